use std::io::Write;
use std::time::Duration;

use super::*;
use crate::wiring::config::layers::{merge_all, Layer};
use crate::wiring::config::load;
use crate::wiring::config::raw::DEFAULT_TOML;

fn defaults() -> Layer {
    Layer::parse("built-in defaults", DEFAULT_TOML).unwrap()
}

/// A value of the key's type that is not its default, as text and as TOML.
fn other_value(section: &str, key: &str, default: &Value) -> (String, Value) {
    if (section, key) == ("log", "format") {
        return ("json".into(), Value::String("json".into())); // one of two words
    }
    match default {
        Value::Integer(n) => ((n + 7).to_string(), Value::Integer(n + 7)),
        Value::Boolean(b) => ((!b).to_string(), Value::Boolean(!b)),
        Value::Array(_) => (
            format!(" {section}-a , {key}-b,, "),
            Value::Array(vec![
                Value::String(format!("{section}-a")),
                Value::String(format!("{key}-b")),
            ]),
        ),
        _ => {
            let text = format!(" {section}.{key} value ");
            (text.clone(), Value::String(text))
        }
    }
}

#[test]
fn every_key_of_the_defaults_is_read_from_its_environment_variable() {
    let table = defaults().table;
    let keys = settable_keys(&table);
    assert!(
        keys.len() >= 28,
        "every key of config/default.toml, not {}",
        keys.len()
    );
    for (section, key, default) in keys {
        let name = env_name(section, key);
        let (text, expected) = other_value(section, key, default);
        let environment = vec![(name.clone(), text)];
        let layer = environment_layer(&table, &environment).unwrap();
        let mut merged = table.clone();
        for (s, t) in layer.table.clone() {
            let into = merged.get_mut(&s).and_then(Value::as_table_mut).unwrap();
            into.extend(t.as_table().unwrap().clone());
        }
        assert_eq!(merged[section][key], expected, "{name}");
        // The typed configuration reads it (its type is the declared one).
        merge_all(defaults(), vec![layer]).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn the_keys_a_container_needs_reach_the_validated_configuration() {
    let ca = tempfile::NamedTempFile::new().unwrap();
    let ca_path = ca.path().to_str().unwrap().to_owned();
    let config = load(
        &Overrides::default()
            .env("REPO_CONSOLE_SERVER_HEADER_TIMEOUT_SECS", "9")
            .env("REPO_CONSOLE_SERVER_LISTEN", "127.0.0.1:9090")
            .env(
                "REPO_CONSOLE_SERVER_ALLOWED_HOSTS",
                "https://console.example.com, console.internal:8080",
            )
            .env("REPO_CONSOLE_PULP_BASE_URL", "https://pulp.example.com")
            .env("REPO_CONSOLE_PULP_CA_FILE", &ca_path)
            .env("REPO_CONSOLE_PULP_VERIFY_TLS", "false")
            .env("REPO_CONSOLE_DASHBOARD_PAGE_SIZE", "40")
            .env("REPO_CONSOLE_DEMO_TASK_DELAY_MS", "3"),
    )
    .unwrap();
    assert_eq!(config.edge.header_timeout, Duration::from_secs(9));
    assert_eq!(config.listen.to_string(), "127.0.0.1:9090");
    assert_eq!(config.edge.allowed_hosts.len(), 2);
    let pulp = config.pulp_settings();
    assert_eq!(pulp.base_url, "https://pulp.example.com");
    assert_eq!(config.pulp.ca_file, ca_path);
    assert!(!config.pulp.verify_tls);
    assert_eq!(config.page_size, 40);
    assert_eq!(config.demo_task_delay, Duration::from_millis(3));
}

#[test]
fn a_value_of_the_wrong_type_is_refused_naming_the_key_and_the_environment() {
    let err = load(&Overrides::default().env("REPO_CONSOLE_SERVER_IDLE_TIMEOUT_SECS", "soon"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the environment") && err.contains("idle_timeout_secs"),
        "{err}"
    );
}

#[test]
fn file_then_environment_then_command_line_later_wins() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(
        b"[server]\nheader_timeout_secs = 11\nidle_timeout_secs = 12\nbody_timeout_secs = 13\n",
    )
    .unwrap();
    let overrides = Overrides {
        config_file: Some(file.path().into()),
        ..Overrides::default()
    }
    .env("REPO_CONSOLE_SERVER_IDLE_TIMEOUT_SECS", "22")
    .env("REPO_CONSOLE_SERVER_BODY_TIMEOUT_SECS", "23")
    .flag("server.body_timeout_secs", "33");
    let edge = load(&overrides).unwrap().edge;
    assert_eq!(edge.header_timeout, Duration::from_secs(11), "the file");
    assert_eq!(
        edge.idle_timeout,
        Duration::from_secs(22),
        "the environment over the file"
    );
    assert_eq!(
        edge.body_timeout,
        Duration::from_secs(33),
        "a flag over the environment"
    );
}

#[test]
fn older_names_still_work_and_a_disagreeing_pair_is_refused() {
    let config = load(
        &Overrides::default()
            .env("REPO_CONSOLE_LISTEN", "127.0.0.1:9191")
            .env("REPO_CONSOLE_PULP_URL", "https://pulp.example.com"),
    )
    .unwrap();
    assert_eq!(config.listen.to_string(), "127.0.0.1:9191");
    assert_eq!(config.pulp.base_url, "https://pulp.example.com");
    let same = Overrides::default()
        .env("REPO_CONSOLE_LISTEN", "127.0.0.1:9191")
        .env("REPO_CONSOLE_SERVER_LISTEN", "127.0.0.1:9191");
    assert!(load(&same).is_ok(), "the same value twice is no conflict");
    let err = load(
        &Overrides::default()
            .env("REPO_CONSOLE_LISTEN", "127.0.0.1:9191")
            .env("REPO_CONSOLE_SERVER_LISTEN", "127.0.0.1:9292"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("REPO_CONSOLE_SERVER_LISTEN") && err.contains("REPO_CONSOLE_LISTEN"),
        "{err}"
    );
}

#[test]
fn a_setting_on_the_command_line_must_exist() {
    let err = load(&Overrides::default().flag("server.lisen", "127.0.0.1:1"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("--set server.lisen: no such setting"), "{err}");
    let err = load(&Overrides::default().flag("production.base-os", "x"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no such setting"),
        "tables are set in a file: {err}"
    );
}

#[test]
fn a_password_is_taken_as_given() {
    let config =
        load(&Overrides::default().env("REPO_CONSOLE_PULP_PASSWORD", " spaced, secret ")).unwrap();
    assert_eq!(config.pulp.password, " spaced, secret ");
}

#[test]
fn every_alias_names_a_settable_key_once() {
    let table = defaults().table;
    let keys: Vec<String> = settable_keys(&table)
        .iter()
        .map(|(s, k, _)| format!("{s}.{k}"))
        .collect();
    for alias in ALIASES {
        assert!(keys.contains(&alias.key.to_owned()), "{}", alias.key);
        assert_eq!(ALIASES.iter().filter(|a| a.flag == alias.flag).count(), 1);
    }
}

#[test]
fn the_diff_store_settings_reach_the_configuration_and_default_beside_the_audit_file() {
    let config =
        load(&Overrides::default().env("REPO_CONSOLE_AUDIT_PATH", "/var/log/rc/audit.jsonl"))
            .unwrap();
    assert_eq!(config.diffs.dir, std::path::Path::new("/var/log/rc/diffs"));
    assert_eq!(config.diffs.max_bytes, 512 << 20);
    assert!(config.diffs.compute_ahead, "on by default");
    let config = load(
        &Overrides::default()
            .env("REPO_CONSOLE_DIFFS_DIR", "/var/cache/rc-diffs")
            .env("REPO_CONSOLE_DIFFS_COMPUTE_AHEAD", "false")
            .flag("diffs.max_disk_mb", "64"),
    )
    .unwrap();
    assert!(!config.diffs.compute_ahead);
    assert_eq!(
        config.diffs.dir,
        std::path::Path::new("/var/cache/rc-diffs")
    );
    assert_eq!(config.diffs.max_bytes, 64 << 20);
    let beside_relative = load(&Overrides::default()).unwrap().diffs.dir;
    assert_eq!(
        beside_relative,
        std::path::Path::new("diffs"),
        "audit.jsonl is relative"
    );
}
