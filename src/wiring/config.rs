//! Configuration: the built-in defaults (`config/default.toml`), an optional file, the
//! environment and the command line, validated into [`Config`]. Errors name the key.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::server_edge::{edge_settings, RawServer};
use crate::adapters::web::EdgeSettings;

/// The defaults, compiled in so the binary runs anywhere.
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

/// Overrides from the command line (and the environment, read by clap).
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
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    server: RawServer,
    audit: RawAudit,
    dashboard: RawDashboard,
    pulp: RawPulp,
    demo: RawDemo,
    production: HashMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAudit {
    sink: String,
    path: PathBuf,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDashboard {
    page_size: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDemo {
    task_delay_ms: u64,
}

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

/// Where audit records go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditSinkKind {
    Jsonl(PathBuf),
    Stdout,
}

/// The validated configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    pub audit: AuditSinkKind,
    pub page_size: u64,
    pub production: HashMap<String, String>,
    pub demo_task_delay: Duration,
    /// How long a shutdown waits for requests in flight: the task timeout, twice (a deploy
    /// waits for two tasks), plus a margin.
    pub shutdown_grace: Duration,
    /// The HTTP edge: timeouts, allowed hosts (and the same shutdown grace).
    pub edge: EdgeSettings,
    pub(crate) pulp: RawPulp,
    /// Set when the Pulp server was taken from pulp-cli's configuration file.
    pub pulp_from_cli: Option<PathBuf>,
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

/// Loads the defaults, then `overrides.config_file`, then the overrides themselves.
pub fn load(overrides: &Overrides) -> Result<Config, ConfigError> {
    let mut merged = parse("built-in defaults", DEFAULT_TOML)?;
    if let Some(path) = &overrides.config_file {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Read {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        merge(&mut merged, parse(&path.display().to_string(), &text)?);
    }
    let raw: RawConfig = merged
        .try_into()
        .map_err(|e: toml::de::Error| ConfigError::Parse {
            source_name: "(merged)".into(),
            reason: e.to_string(),
        })?;
    validate(raw, overrides)
}

fn parse(source_name: &str, text: &str) -> Result<toml::Table, ConfigError> {
    text.parse::<toml::Table>().map_err(|e| ConfigError::Parse {
        source_name: source_name.to_owned(),
        reason: e.to_string(),
    })
}

/// Deep merge: tables merge key by key, anything else is replaced.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

fn validate(mut raw: RawConfig, o: &Overrides) -> Result<Config, ConfigError> {
    let shutdown_grace = Duration::from_secs(
        raw.pulp
            .task_timeout_secs
            .saturating_mul(2)
            .saturating_add(10),
    );
    let edge = edge_settings(&raw.server, shutdown_grace)?;
    let listen_text = o.listen.clone().unwrap_or(raw.server.listen);
    let listen = listen_text.parse().map_err(|_| ConfigError::Invalid {
        key: "server.listen",
        reason: format!("'{listen_text}' is not an address such as 127.0.0.1:8080"),
    })?;
    let audit_path = o.audit_path.clone().unwrap_or(raw.audit.path);
    let audit = match raw.audit.sink.as_str() {
        "jsonl" => AuditSinkKind::Jsonl(audit_path),
        "stdout" => AuditSinkKind::Stdout,
        other => {
            return Err(ConfigError::Invalid {
                key: "audit.sink",
                reason: format!("'{other}' is not one of: jsonl, stdout"),
            })
        }
    };
    if raw.dashboard.page_size == 0 {
        return Err(ConfigError::Invalid {
            key: "dashboard.page_size",
            reason: "must be at least 1".into(),
        });
    }
    apply_pulp_overrides(&mut raw.pulp, o)?;
    let pulp_from_cli = match &o.pulp_cli_config {
        Some(path) if raw.pulp.base_url.is_empty() && path.is_file() => {
            super::pulp_cli::apply(&mut raw.pulp, path)?;
            Some(path.clone())
        }
        _ => None,
    };
    Ok(Config {
        pulp_from_cli,
        listen,
        audit,
        page_size: raw.dashboard.page_size,
        production: raw.production,
        demo_task_delay: Duration::from_millis(raw.demo.task_delay_ms),
        shutdown_grace,
        edge,
        pulp: raw.pulp,
    })
}

fn apply_pulp_overrides(pulp: &mut RawPulp, o: &Overrides) -> Result<(), ConfigError> {
    if let Some(url) = &o.pulp_url {
        pulp.base_url = url.clone();
    }
    if let Some(user) = &o.pulp_username {
        pulp.username = user.clone();
    }
    if let Some(password) = &o.pulp_password {
        pulp.password = password.clone();
    }
    if !pulp.password_file.is_empty() && pulp.password.is_empty() {
        pulp.password = read_password_file(Path::new(&pulp.password_file))?;
    }
    if pulp.page_size == 0 {
        return Err(ConfigError::Invalid {
            key: "pulp.page_size",
            reason: "must be at least 1".into(),
        });
    }
    Ok(())
}

fn read_password_file(path: &Path) -> Result<String, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Invalid {
        key: "pulp.password_file",
        reason: format!("cannot read {}: {e}", path.display()),
    })?;
    Ok(text.lines().next().unwrap_or("").to_owned())
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
