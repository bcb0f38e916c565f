//! Configuration: layers of TOML merged in order, later wins key by key (built-in defaults
//! < pulp-cli's file < `--config` file < environment < flags), then validated into
//! [`Config`]. Errors name the key. Every key is declared once: its type in `raw.rs`, its
//! default and doc in `config/default.toml`; the environment and flag layers are derived from
//! those defaults (`overrides.rs`). The tables themselves are checked in `wiring/sections`, the
//! room below (a section's raw table is declared there); here also the demo's own release and
//! policy (`demo_tables.rs`) and the Pulp client's settings from `[pulp]` (`pulp_settings.rs`).

pub(crate) mod checks;
pub(crate) mod demo_tables;
pub(crate) mod layers;
pub(crate) mod nearest;
pub mod overrides;

pub(crate) mod pulp_cli;
pub(crate) mod pulp_settings;
pub(crate) mod raw;
pub(crate) mod settings;
pub(crate) mod unknown_env;

use std::path::{Path, PathBuf};

use layers::Layer;
use overrides::{environment_layer, flags_layer};

pub use crate::wiring::config::overrides::{Overrides, ALIASES};
pub use crate::wiring::config::raw::{LogFormat, DEFAULT_TOML};
pub use crate::wiring::config::settings::{AuditSettings, Config, DiffSettings};
pub use crate::wiring::sections::error::ConfigError;

/// Builds the layers, merges them in order and validates the result.
pub fn load(overrides: &Overrides) -> Result<Config, ConfigError> {
    let defaults = Layer::parse("built-in defaults", DEFAULT_TOML)?;
    let mut higher = Vec::new();
    if let Some(path) = &overrides.config_file {
        higher.push(Layer::read(path)?);
    }
    let defaults_table = &defaults.table;
    unknown_env::refuse_unknown(defaults_table, &overrides.environment)?;
    higher.push(environment_layer(defaults_table, &overrides.environment)?);
    higher.push(flags_layer(defaults_table, &overrides.flags)?);
    let pulp_from_cli = pulp_cli_file(&higher, overrides);
    if let Some(path) = &pulp_from_cli {
        higher.insert(0, crate::wiring::config::pulp_cli::layer(path)?);
    }
    let audit_path_set = higher.iter().any(|layer| layer.sets("audit", "path"));
    let mut raw = layers::merge_all(defaults, higher)?;
    if !raw.pulp.password_file.is_empty() {
        raw.pulp.password = read_password_file(Path::new(&raw.pulp.password_file))?;
    }
    let from_cli = pulp_from_cli.clone();
    let mut config = crate::wiring::config::checks::validate(raw, pulp_from_cli)
        .map_err(|e| mention_pulp_cli(e, from_cli))?;
    config.audit_path_set = audit_path_set;
    Ok(config)
}

/// `repo-console config check FILE`: `file` over the built-in defaults alone (neither the
/// environment nor pulp-cli's file: the answer is about the file), validated as at start.
pub fn check_file(file: &Path) -> Result<Config, ConfigError> {
    load(&Overrides {
        config_file: Some(file.to_owned()),
        ..Overrides::default()
    })
}

/// What a valid configuration makes the console do, in one line.
pub fn summary(config: &Config) -> String {
    let upstream = if config.uses_demo() {
        "the built-in demo upstream (no pulp.base_url)".to_owned()
    } else {
        format!("Pulp at {}", config.pulp.base_url)
    };
    let environments: Vec<String> = config
        .environments
        .iter()
        .map(|environment| environment.name.to_string())
        .collect();
    format!(
        "valid: listens on {}, uses {upstream}, environments {}, audit sink {}",
        config.listen,
        environments.join(" > "),
        config.audit.sink
    )
}

/// A refused `pulp.*` value may come from pulp-cli's file: say that it was read.
fn mention_pulp_cli(error: ConfigError, pulp_cli: Option<PathBuf>) -> ConfigError {
    match (error, pulp_cli) {
        (ConfigError::Invalid { key, reason }, Some(path)) if key.starts_with("pulp.") => {
            let reason = format!("{reason} (pulp-cli's {} is in use)", path.display());
            ConfigError::Invalid { key, reason }
        }
        (error, _) => error,
    }
}

/// pulp-cli's file, when it exists and no higher layer names a Pulp (its other settings
/// belong to its server: they are never layered onto a server named elsewhere).
fn pulp_cli_file(higher: &[Layer], overrides: &Overrides) -> Option<PathBuf> {
    let named = higher.iter().any(Layer::names_a_pulp);
    let path = overrides.pulp_cli_config.as_ref()?;
    (!named && path.is_file()).then(|| path.clone())
}

fn read_password_file(path: &Path) -> Result<String, ConfigError> {
    crate::wiring::sections::password_file::first_line(path).map_err(|e| ConfigError::Invalid {
        key: "pulp.password_file".into(),
        reason: format!("cannot read {}: {e}", path.display()),
    })
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "no_panic_tests.rs"]
mod no_panic_tests;
