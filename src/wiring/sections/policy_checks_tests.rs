//! `required_checks`, `auto_promote` and `automation` as the console reads them, over the
//! demo's path (testing, staging, production): every refusal names its key.

use std::io::Write;

use crate::domain::environment::EnvironmentName;
use crate::wiring::config::settings::Config;
use crate::wiring::config::{load, Overrides};
use crate::wiring::sections::error::ConfigError;

fn loaded(file: &str, overrides: Overrides) -> Result<Config, ConfigError> {
    let mut written = tempfile::NamedTempFile::new().unwrap();
    write!(written, "{file}").unwrap();
    load(&Overrides {
        config_file: Some(written.path().into()),
        ..overrides
    })
}

fn refused(file: &str) -> String {
    match loaded(file, Overrides::default()) {
        Err(ConfigError::Invalid { key, reason }) => format!("{key}: {reason}"),
        other => panic!("{file}: refused, not {other:?}"),
    }
}

fn env(name: &str) -> EnvironmentName {
    EnvironmentName::parse(name).unwrap()
}

const PROMOTING: &str = "[policy]\nautomation = \"user:promoter\"\n\
    [policy.production]\nrequired_checks = [\"smoke\", \"e2e\", \"smoke\"]\nauto_promote = true\n\
    deployers = [\"user:promoter\", \"group:release\"]\n";

#[test]
fn required_checks_and_auto_promotion_are_read_from_a_file() {
    let config = loaded(PROMOTING, Overrides::default()).unwrap();
    let checks = config.policy.checks();
    let names: Vec<&str> = checks
        .required(&env("production"))
        .iter()
        .map(|n| n.as_str())
        .collect();
    assert_eq!(names, ["smoke", "e2e"], "each once, in order");
    assert!(checks.auto_promotes(&env("production")));
    assert!(!checks.auto_promotes(&env("staging")));
    assert!(checks.required(&env("staging")).is_empty());
    assert_eq!(checks.automation().unwrap().as_str(), "promoter");
    let defaults = load(&Overrides::default()).unwrap();
    assert!(defaults.policy.checks().automation().is_none());
}

#[test]
fn automation_comes_from_every_layer() {
    let file = "[policy.production]\nrequired_checks = [\"smoke\"]\nauto_promote = true\n";
    let who = |overrides: Overrides| {
        loaded(file, overrides)
            .unwrap()
            .policy
            .checks()
            .automation()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        who(Overrides::default().env("REPO_CONSOLE_POLICY_AUTOMATION", "user:env-bot")),
        "env-bot"
    );
    assert_eq!(
        who(Overrides::default().flag("policy.automation", "user:flag-bot")),
        "flag-bot"
    );
}

#[test]
fn each_refusal_names_its_key() {
    let cases = [
        (
            "[policy.testing]\nrequired_checks = [\"smoke\"]",
            "policy.testing.required_checks: testing is the first environment",
        ),
        (
            "[policy.staging]\nrequired_checks = [\"Smoke Test\"]",
            "policy.staging.required_checks: 'Smoke Test' is not a check name",
        ),
        (
            "[policy.production]\nauto_promote = true",
            "policy.production.auto_promote: true, but policy.production.required_checks is empty",
        ),
        (
            "[policy.production]\nrequired_checks = [\"smoke\"]\nauto_promote = true",
            "policy.automation: empty, but policy.production.auto_promote is true",
        ),
        (
            "[policy]\nautomation = \"group:bots\"\n[policy.production]\nrequired_checks = [\"smoke\"]\nauto_promote = true",
            "policy.automation: 'group:bots': automatic promotions act as one user",
        ),
        (
            "[policy]\nautomation = \"bot\"",
            "policy.automation: 'bot' is not a subject",
        ),
        (
            "[policy]\nautomation = \"user:bot\"\n[policy.production]\nrequired_checks = [\"smoke\"]\n\
             auto_promote = true\ndeployers = [\"group:release\"]",
            "policy.automation: user:bot may not deploy to production",
        ),
    ];
    for (file, expected) in cases {
        let shown = refused(file);
        assert!(shown.starts_with(expected), "{file}\n{shown}");
    }
    let unknown = loaded(
        "[policy.production]\nrequired_check = [\"smoke\"]",
        Overrides::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        unknown.contains("unknown key policy.production.required_check"),
        "{unknown}"
    );
}
