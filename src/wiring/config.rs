//! Configuration: layers of TOML merged in order, later wins key by key (built-in defaults
//! < pulp-cli's file < `--config` file < environment and flags), then validated into
//! [`Config`]. Errors name the key.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::layers::{self, Layer};
use super::server_edge::RawServer;
use crate::adapters::web::EdgeSettings;

/// The defaults, compiled in so the binary runs anywhere. The one place defaults live.
pub const DEFAULT_TOML: &str = include_str!("../../config/default.toml");

/// Why the configuration is not usable.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {path}: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error("the configuration {source_name} is not valid TOML or has an unknown key: {reason}")]
    Parse { source_name: String, reason: String },
    #[error("configuration key {key}: {reason}")]
    Invalid { key: &'static str, reason: String },
}

/// Overrides from the command line and the environment (clap reads both; a flag wins over
/// its environment variable). `None` leaves the lower layers' value.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub config_file: Option<PathBuf>,
    pub listen: Option<String>,
    pub audit_path: Option<PathBuf>,
    pub pulp_url: Option<String>,
    pub pulp_username: Option<String>,
    pub pulp_password: Option<String>,
    /// pulp-cli's configuration file (`~/.config/pulp/cli.toml`), used when nothing else names a Pulp.
    pub pulp_cli_config: Option<PathBuf>,
    /// `audit.sink`, `audit.url` and `audit.password_file`.
    pub audit_sink: Option<String>,
    pub audit_url: Option<String>,
    pub audit_password_file: Option<PathBuf>,
    /// `log.format`.
    pub log_format: Option<String>,
    /// `identity.header`.
    pub identity_header: Option<String>,
    /// `identity.trusted_proxies`, comma separated.
    pub trusted_proxies: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConfig {
    pub server: RawServer,
    pub audit: RawAudit,
    pub dashboard: RawDashboard,
    pub pulp: RawPulp,
    pub demo: RawDemo,
    pub production: HashMap<String, String>,
    pub identity: super::identity::RawIdentity,
    pub log: RawLog,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLog {
    pub format: LogFormat,
}

/// How log lines are written on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines (in colour on a terminal).
    Text,
    /// One JSON object per line, with the span fields (for log collectors).
    Json,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAudit {
    pub sink: String,
    pub path: PathBuf,
    pub url: String,
    pub password_file: PathBuf,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDashboard {
    pub page_size: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDemo {
    pub task_delay_ms: u64,
}

/// The `[pulp]` table. After [`load`], `password` holds the secret (read from
/// `password_file` when that is what the winning layer named).
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPulp {
    pub base_url: String,
    pub api_root: String,
    pub username: String,
    pub password: String,
    pub password_file: String,
    pub ca_file: String,
    pub verify_tls: bool,
    pub connect_timeout_secs: u64,
    pub request_timeout_secs: u64,
    pub task_timeout_secs: u64,
    pub page_size: u64,
    pub use_session: bool,
    pub headers: HashMap<String, String>,
}

/// Where audit records go: the `[audit]` table, its sink name checked against
/// [`super::audit_sinks`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditSettings {
    /// The sink's name (`jsonl`, `stdout`…).
    pub sink: String,
    /// The file, for the sinks that write one.
    pub path: PathBuf,
    /// The database URL, for the `postgres` sink.
    pub url: String,
    /// A file whose first line is the database password (empty path: none).
    pub password_file: PathBuf,
}

/// The validated configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    pub audit: AuditSettings,
    /// Who sends each request (the `[identity]` table).
    pub identity: super::identity::IdentitySettings,
    pub log_format: LogFormat,
    pub page_size: u64,
    /// The `[production]` table as configured (the demo adds its own at startup).
    pub production: HashMap<String, String>,
    pub demo_task_delay: Duration,
    /// The HTTP edge: timeouts, allowed hosts, and how long a shutdown waits for requests
    /// in flight (the task timeout, twice: a deploy waits for two tasks, plus a margin).
    pub edge: EdgeSettings,
    pub(crate) pulp: RawPulp,
    /// Set when the Pulp server was taken from pulp-cli's configuration file.
    pub pulp_from_cli: Option<PathBuf>,
}

impl Config {
    /// No Pulp is named anywhere: the console serves the built-in demo upstream.
    pub fn uses_demo(&self) -> bool {
        self.pulp.base_url.is_empty()
    }
}

impl std::fmt::Debug for RawPulp {
    /// The password never reaches a log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawPulp")
            .field("base_url", &self.base_url)
            .field("api_root", &self.api_root)
            .field("username", &self.username)
            .field(
                "password",
                &if self.password.is_empty() { "" } else { "***" },
            )
            .field("ca_file", &self.ca_file)
            .field("verify_tls", &self.verify_tls)
            .finish_non_exhaustive()
    }
}

/// Builds the layers, merges them in order and validates the result.
pub fn load(overrides: &Overrides) -> Result<Config, ConfigError> {
    let defaults = Layer::parse("built-in defaults", DEFAULT_TOML)?;
    let mut higher = Vec::new();
    if let Some(path) = &overrides.config_file {
        higher.push(Layer::read(path)?);
    }
    higher.push(Layer::from_overrides(overrides)?);
    let pulp_from_cli = pulp_cli_file(&higher, overrides);
    if let Some(path) = &pulp_from_cli {
        higher.insert(0, super::pulp_cli::layer(path)?);
    }
    let mut raw = layers::merge_all(defaults, higher)?;
    if !raw.pulp.password_file.is_empty() {
        raw.pulp.password = read_password_file(Path::new(&raw.pulp.password_file))?;
    }
    let from_cli = pulp_from_cli.clone();
    super::checks::validate(raw, pulp_from_cli).map_err(|e| mention_pulp_cli(e, from_cli))
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
    super::password_file::first_line(path).map_err(|e| ConfigError::Invalid {
        key: "pulp.password_file",
        reason: format!("cannot read {}: {e}", path.display()),
    })
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
