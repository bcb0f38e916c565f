//! `[verification]` as the console reads it, over the demo's path (testing, staging,
//! production): from a file, the environment and a flag, per environment, and every refusal
//! naming its key.

use std::io::Write;

use crate::domain::environment::EnvironmentName;
use crate::domain::repository::UnsignedMetadata;
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

fn at(config: &Config, name: &str) -> UnsignedMetadata {
    config
        .policy
        .metadata()
        .at(&EnvironmentName::parse(name).unwrap())
}

#[test]
fn unsigned_metadata_is_refused_by_default_everywhere() {
    let config = loaded("", Overrides::default()).unwrap();
    for name in ["testing", "staging", "production"] {
        assert_eq!(at(&config, name), UnsignedMetadata::Refuse, "{name}");
    }
}

#[test]
fn unsigned_metadata_is_allowed_from_a_file_the_environment_or_a_flag() {
    let file = loaded(
        "[verification]\nunsigned_metadata = \"allow\"",
        Overrides::default(),
    )
    .unwrap();
    assert_eq!(at(&file, "production"), UnsignedMetadata::Allow);
    let env = loaded(
        "",
        Overrides::default().env("REPO_CONSOLE_VERIFICATION_UNSIGNED_METADATA", "allow"),
    )
    .unwrap();
    assert_eq!(at(&env, "production"), UnsignedMetadata::Allow);
    let flag = loaded(
        "[verification]\nunsigned_metadata = \"allow\"",
        Overrides::default().flag("verification.unsigned_metadata", "refuse"),
    )
    .unwrap();
    assert_eq!(at(&flag, "production"), UnsignedMetadata::Refuse);
}

#[test]
fn one_environment_may_say_otherwise() {
    let config = loaded(
        "[verification.testing]\nunsigned_metadata = \"allow\"",
        Overrides::default(),
    )
    .unwrap();
    assert_eq!(at(&config, "testing"), UnsignedMetadata::Allow);
    assert_eq!(at(&config, "production"), UnsignedMetadata::Refuse);
}

#[test]
fn each_refusal_names_its_key() {
    for (file, expected) in [
        (
            "[verification]\nunsigned_metadata = \"yes\"",
            "verification.unsigned_metadata: \"yes\" is neither",
        ),
        (
            "[verification.testing]\nunsigned_metadata = \"maybe\"",
            "verification.testing.unsigned_metadata: \"maybe\" is neither",
        ),
        (
            "[verification.qa]\nunsigned_metadata = \"allow\"",
            "verification.qa: ",
        ),
    ] {
        let shown = refused(file);
        assert!(shown.starts_with(expected), "{file}\n{shown}");
    }
}

#[test]
fn an_unknown_key_or_type_is_refused_naming_it() {
    for (file, expected) in [
        (
            "[verification.testing]\nunsigned = \"allow\"",
            "verification.testing.unsigned",
        ),
        (
            "[verification]\nunsigned_metadata = true",
            "verification.unsigned_metadata",
        ),
        ("[verification]\nsigned = 1", "verification.signed"),
    ] {
        let error = loaded(file, Overrides::default()).unwrap_err().to_string();
        assert!(error.contains(expected), "{file}\n{error}");
    }
}
