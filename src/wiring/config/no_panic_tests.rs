//! Issue 33, attack 8: no input to the configuration can panic. Every key of
//! `config/default.toml`, given an arbitrary string through each layer (a file, the
//! environment, a flag), is loaded or refused with a message, never a panic.

use std::io::Write;

use proptest::prelude::*;

use crate::wiring::config::layers::Layer;
use crate::wiring::config::overrides::{env_name, settable_keys};
use crate::wiring::config::raw::DEFAULT_TOML;
use crate::wiring::config::{load, Overrides};

/// Every settable key, as `(section, key)`.
fn keys() -> Vec<(String, String)> {
    let defaults = Layer::parse("built-in defaults", DEFAULT_TOML).unwrap();
    settable_keys(&defaults.table)
        .into_iter()
        .map(|(section, key, _)| (section.to_owned(), key.to_owned()))
        .collect()
}

/// Loads with `overrides`: a config or an error, whichever; a panic fails the test.
fn loads_or_refuses(overrides: &Overrides) {
    let _ = load(overrides);
}

fn key_and_text() -> impl Strategy<Value = ((String, String), String)> {
    let keys = keys();
    (0..keys.len(), any::<String>()).prop_map(move |(i, text)| (keys[i].clone(), text))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_text_from_the_environment_loads_or_is_refused(((section, key), text) in key_and_text()) {
        loads_or_refuses(&Overrides::default().env(&env_name(&section, &key), &text));
    }

    #[test]
    fn any_text_as_a_flag_loads_or_is_refused(((section, key), text) in key_and_text()) {
        loads_or_refuses(&Overrides::default().flag(&format!("{section}.{key}"), &text));
    }

    #[test]
    fn any_text_in_a_file_loads_or_is_refused(((section, key), text) in key_and_text()) {
        let value = toml::Value::String(text);
        let mut file = tempfile::NamedTempFile::new().unwrap();
        write!(file, "[{section}]\n{key} = {value}\n").unwrap();
        loads_or_refuses(&Overrides {
            config_file: Some(file.path().into()),
            ..Overrides::default()
        });
    }
}

#[test]
fn a_multibyte_token_digest_from_the_environment_is_refused_not_a_panic() {
    // 64 bytes, as a digest's hex is, with characters straddling the byte pairs.
    let straddling = format!("a{}a", "é".repeat(31));
    for value in [
        format!("ci:{straddling}:release"),
        format!("ci:{}:release", "é".repeat(32)),
    ] {
        let refused = load(&Overrides::default().env("REPO_CONSOLE_API_TOKENS", &value));
        assert!(refused.is_err(), "{value}");
    }
}
