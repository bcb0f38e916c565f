use std::io::Write;
use std::time::Duration;

use crate::domain::event::EventKind;
use crate::wiring::config::{load, Config, ConfigError, Overrides};

/// The configuration with `toml` as the `--config` file (plus `overrides`).
fn with_file(toml: &str, overrides: Overrides) -> Result<Config, ConfigError> {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(toml.as_bytes()).unwrap();
    load(&Overrides {
        config_file: Some(file.path().into()),
        ..overrides
    })
}

fn secret_file(secret: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "{secret}").unwrap();
    file
}

#[test]
fn without_webhooks_nothing_is_sent_and_drift_is_checked_every_minute() {
    let config = load(&Overrides::default()).unwrap();
    assert!(config.webhooks.hooks.is_empty());
    assert_eq!(config.webhooks.source, "repo-console");
    assert_eq!(config.webhooks.timeout, Duration::from_secs(10));
    assert_eq!(
        config.webhooks.retry.give_up_after,
        Duration::from_secs(24 * 3600)
    );
    assert_eq!(config.drift_interval, Duration::from_secs(60));
}

#[test]
fn each_webhook_names_its_events_or_gets_every_one_and_its_secret_stays_out_of_logs() {
    let secret = secret_file("s3cret-value");
    let path = secret.path().display();
    let toml = format!(
        "[[webhooks]]\nurl = \"https://chat.example.com/hooks/T0/xyzzy-in-path\"\n\
         events = [\"deployment.failed\", \"drift.detected\"]\nsecret_file = \"{path}\"\n\
         [[webhooks]]\nurl = \"http://127.0.0.1:9000/in\"\nsecret_file = \"{path}\"\n\
         [webhook_delivery]\nsource = \"https://console.example.com\"\ngive_up_hours = 2\n"
    );
    let config = with_file(&toml, Overrides::default()).unwrap();
    let hooks = &config.webhooks.hooks;
    assert_eq!(hooks.len(), 2);
    let first: Vec<EventKind> = hooks[0].subscription.events.iter().copied().collect();
    assert_eq!(
        first,
        [EventKind::DeploymentFailed, EventKind::DriftDetected]
    );
    assert_eq!(hooks[1].subscription.events.len(), EventKind::ALL.len());
    assert_eq!(config.webhooks.source, "https://console.example.com");
    assert_eq!(
        config.webhooks.retry.give_up_after,
        Duration::from_secs(7200)
    );
    let shown = format!("{config:?}");
    assert!(
        !shown.contains("s3cret") && !shown.contains("xyzzy"),
        "{shown}"
    );
}

#[test]
fn a_bad_webhook_is_refused_naming_its_key() {
    let secret = secret_file("s");
    let path = secret.path().display();
    let empty = secret_file("");
    let cases = [
        (
            format!("[[webhooks]]\nurl = \"ftp://x\"\nsecret_file = \"{path}\""),
            "webhooks[0].url",
        ),
        (
            format!("[[webhooks]]\nurl = \"https://x/\"\nevents = [\"deploy.done\"]\nsecret_file = \"{path}\""),
            "webhooks[0].events",
        ),
        (
            format!("[[webhooks]]\nurl = \"https://x/\"\nevents = []\nsecret_file = \"{path}\""),
            "webhooks[0].events",
        ),
        (
            "[[webhooks]]\nurl = \"https://x/\"".to_owned(),
            "webhooks[0].secret_file",
        ),
        (
            format!("[[webhooks]]\nurl = \"https://x/\"\nsecret_file = \"{}\"", empty.path().display()),
            "webhooks[0].secret_file",
        ),
        (
            format!("[[webhooks]]\nurl = \"https://x/\"\nsecret_file = \"{path}\"\n[[webhooks]]\nurl = \"https://x/\"\nsecret_file = \"{path}\""),
            "webhooks[1].url",
        ),
        (
            "[webhook_delivery]\ntimeout_secs = 0".to_owned(),
            "webhook_delivery.timeout_secs",
        ),
        (
            "[webhook_delivery]\nretry_first_secs = 60\nretry_max_secs = 30".to_owned(),
            "webhook_delivery.retry_max_secs",
        ),
    ];
    for (toml, key) in cases {
        let error = with_file(&toml, Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(error.contains(key), "{toml}: {error}");
    }
    let unknown = with_file(
        "[[webhooks]]\nurl = \"https://x/\"\nsecret = \"inline\"",
        Overrides::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(unknown.contains("secret"), "{unknown}");
}

#[test]
fn delivery_and_drift_settings_come_from_the_environment_and_flags_too() {
    let overrides = Overrides::default()
        .env("REPO_CONSOLE_DRIFT_INTERVAL_SECS", "0")
        .env("REPO_CONSOLE_WEBHOOK_DELIVERY_RETRY_FIRST_SECS", "1")
        .flag("webhook_delivery.timeout_secs", "3");
    let config = load(&overrides).unwrap();
    assert_eq!(config.drift_interval, Duration::ZERO, "0 turns checks off");
    assert_eq!(config.webhooks.retry.first, Duration::from_secs(1));
    assert_eq!(config.webhooks.timeout, Duration::from_secs(3));
    let too_long = load(&Overrides::default().env("REPO_CONSOLE_DRIFT_INTERVAL_SECS", "100000"))
        .unwrap_err()
        .to_string();
    assert!(too_long.contains("drift.interval_secs"), "{too_long}");
}

#[test]
fn a_secret_file_holds_one_secret_or_two_while_rotating_and_a_ca_file_must_hold_a_ca() {
    let mut rotating = tempfile::NamedTempFile::new().unwrap();
    write!(rotating, "whsec_bmV3LWtleQ==\nold raw secret\n").unwrap();
    let toml = format!(
        "[[webhooks]]\nurl = \"https://x/\"\nsecret_file = \"{}\"\n",
        rotating.path().display()
    );
    let config = with_file(&toml, Overrides::default()).unwrap();
    let secret = &config.webhooks.hooks[0].secret;
    assert_eq!(
        secret.keys(),
        [b"new-key".to_vec(), b"old raw secret".to_vec()]
    );
    assert!(config.webhooks.hooks[0].trusted.is_none());
    let broken = secret_file("whsec_%%%");
    let not_a_ca = secret_file("not a certificate");
    for (toml, key) in [
        (
            format!(
                "[[webhooks]]\nurl = \"https://x/\"\nsecret_file = \"{}\"",
                broken.path().display()
            ),
            "webhooks[0].secret_file",
        ),
        (
            format!(
                "[[webhooks]]\nurl = \"https://x/\"\nsecret_file = \"{}\"\nca_file = \"{}\"",
                rotating.path().display(),
                not_a_ca.path().display()
            ),
            "webhooks[0].ca_file",
        ),
        (
            format!(
                "[[webhooks]]\nurl = \"https://x/\"\nsecret_file = \"{}\"\nca_file = \"/nonexistent/ca.pem\"",
                rotating.path().display()
            ),
            "webhooks[0].ca_file",
        ),
    ] {
        let error = with_file(&toml, Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(error.contains(key), "{toml}: {error}");
        assert!(!error.contains("%%%"), "the secret is not shown: {error}");
    }
}
