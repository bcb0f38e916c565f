//! The configuration as written: every key, its type (these structs) and, in
//! `config/default.toml`, its default and its doc. Both are read together at every start (an
//! unknown key or a missing default is an error), so they cannot drift apart.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde::Deserialize;
use toml::{Table, Value};

use crate::wiring::sections::api::RawApi;
use crate::wiring::sections::identity::RawIdentity;
use crate::wiring::sections::server_edge::RawServer;

/// The defaults, compiled in so the binary runs anywhere. The one place defaults live.
pub const DEFAULT_TOML: &str = include_str!("../../../config/default.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawConfig {
    /// `[[webhooks]]`, set in a file.
    pub webhooks: Vec<RawWebhook>,
    pub webhook_delivery: RawWebhookDelivery,
    /// `[[edges]]`, set in a file.
    pub edges: Vec<crate::wiring::sections::edges::RawEdge>,
    pub edge_replication: crate::wiring::sections::edges::RawEdgeReplication,
    pub drift: RawDrift,
    pub schedules: crate::wiring::sections::schedules::RawSchedules,
    pub server: RawServer,
    pub audit: RawAudit,
    pub diffs: RawDiffs,
    pub dashboard: RawDashboard,
    pub pulp: RawPulp,
    pub demo: RawDemo,
    pub production: HashMap<String, String>,
    pub environments: RawEnvironments,
    /// `[releases.<name>]`, set in a file.
    pub releases: BTreeMap<String, crate::wiring::sections::releases::RawRelease>,
    pub policy: RawPolicy,
    /// `[verification]`, read by hand (one table per environment).
    pub verification: crate::wiring::sections::verification::RawVerification,
    pub identity: RawIdentity,
    pub api: RawApi,
    pub log: RawLog,
}

/// The `[policy]` table: `syncers`, `request_ttl_hours`, `request_retention_days`, and one
/// table per environment.
/// Read by hand, like `[environments]`: every refusal names its whole key.
#[derive(Debug, Default)]
pub(crate) struct RawPolicy {
    /// Who may synchronize; `None`: every identified operator.
    pub syncers: Option<Vec<String>>,
    /// How long a request waits for its approvals, in hours (declared in
    /// `config/default.toml`, so also set from the environment and the command line).
    pub request_ttl_hours: i64,
    /// How long a closed request is kept, in days (declared in `config/default.toml`).
    pub request_retention_days: i64,
    /// How long a superseded check report is kept, in days (declared in
    /// `config/default.toml`).
    pub check_retention_days: i64,
    /// Who automatic promotions act as, `user:<name>`; empty: nobody (declared in
    /// `config/default.toml`).
    pub automation: String,
    /// Environment name -> its policy as written.
    pub environments: BTreeMap<String, RawEnvironmentPolicy>,
}

/// `[policy.<environment>]` as written (checked in `policy.rs`).
#[derive(Debug, Default)]
pub(crate) struct RawEnvironmentPolicy {
    /// Who may deploy there (`None`: every identified operator).
    pub deployers: Option<Vec<String>>,
    /// Its freeze windows as written (a "start/end" string, or a table with cron, duration
    /// and timezone).
    pub freeze: Vec<Value>,
    /// Who may approve a request to deploy there.
    pub approvers: Option<Vec<String>>,
    /// How many approvals a deploy there needs (0 or `None`: none).
    pub approvals: Option<i64>,
    /// Who may deploy there during a freeze, before a version soaked, or without its required
    /// checks (`override`).
    pub overriders: Option<Vec<String>>,
    /// How long the environment before must have served a version (`soak`, e.g. "24h").
    pub soak: Option<String>,
    /// The checks a version needs passed on the previous environment to come here.
    pub required_checks: Vec<String>,
    /// Whether a version comes here by itself once its required checks passed.
    pub auto_promote: bool,
}

impl<'de> Deserialize<'de> for RawPolicy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let table = Table::deserialize(deserializer)?;
        Self::from_table(table).map_err(D::Error::custom)
    }
}

impl RawPolicy {
    fn from_table(table: Table) -> Result<Self, String> {
        let mut policy = Self::default();
        let mut ttl = None;
        let mut retention = None;
        let mut check_retention = None;
        let mut automation = None;
        for (key, value) in table {
            match key.as_str() {
                "syncers" => {
                    policy.syncers = Some(typed("policy.syncers", value)?);
                    continue;
                }
                "request_ttl_hours" => {
                    ttl = Some(typed("policy.request_ttl_hours", value)?);
                    continue;
                }
                "request_retention_days" => {
                    retention = Some(typed("policy.request_retention_days", value)?);
                    continue;
                }
                "check_retention_days" => {
                    check_retention = Some(typed("policy.check_retention_days", value)?);
                    continue;
                }
                "automation" => {
                    automation = Some(typed("policy.automation", value)?);
                    continue;
                }
                _ => {}
            }
            let Value::Table(environment) = value else {
                return Err(format!(
                    "unknown key policy.{key}: [policy] holds `syncers`, `request_ttl_hours`, \
                     `request_retention_days`, `check_retention_days`, `automation` and one table \
                     per environment, e.g. \
                     [policy.{key}]"
                ));
            };
            let environment = RawEnvironmentPolicy::from_table(&key, environment)?;
            policy.environments.insert(key, environment);
        }
        policy.request_ttl_hours = ttl.ok_or("policy.request_ttl_hours is missing")?;
        policy.request_retention_days =
            retention.ok_or("policy.request_retention_days is missing")?;
        policy.check_retention_days =
            check_retention.ok_or("policy.check_retention_days is missing")?;
        policy.automation = automation.ok_or("policy.automation is missing")?;
        Ok(policy)
    }
}

impl RawEnvironmentPolicy {
    fn from_table(name: &str, table: Table) -> Result<Self, String> {
        let mut policy = Self::default();
        for (field, value) in table {
            let dotted = format!("policy.{name}.{field}");
            match field.as_str() {
                "deployers" => policy.deployers = Some(typed(&dotted, value)?),
                "freeze" => policy.freeze = typed(&dotted, value)?,
                "approvers" => policy.approvers = Some(typed(&dotted, value)?),
                "approvals" => {
                    policy.approvals = Some(typed(&dotted, value).map_err(|e| {
                        format!("{e} (approvals is a whole number: 0 for none, 1 or more)")
                    })?)
                }
                "override" => policy.overriders = Some(typed(&dotted, value)?),
                "soak" => policy.soak = Some(typed(&dotted, value)?),
                "required_checks" => policy.required_checks = typed(&dotted, value)?,
                "auto_promote" => policy.auto_promote = typed(&dotted, value)?,
                _ => {
                    return Err(format!(
                        "unknown key {dotted}: an environment's policy has deployers, freeze, \
                         approvers, approvals, override, soak, required_checks and auto_promote"
                    ))
                }
            }
        }
        Ok(policy)
    }
}

/// The `[environments]` table: `order`, and one table per environment (named as in `order`).
/// Read by hand (serde's flatten would lose the key of an error): every refusal names its
/// whole key, e.g. `environments.staging.distrbution`.
#[derive(Debug)]
pub(crate) struct RawEnvironments {
    pub order: Vec<String>,
    pub tables: BTreeMap<String, RawEnvironment>,
}

/// `[environments.<name>]`. Free-named tables cannot hold their defaults in
/// `config/default.toml`: they are documented there, and given here.
#[derive(Debug, Default)]
pub(crate) struct RawEnvironment {
    /// The distribution name pattern, holding `{repo}`.
    pub distribution: Option<String>,
    /// Repository name -> distribution name; wins over the pattern.
    pub repos: HashMap<String, String>,
    pub requires_previous: bool,
}

impl<'de> Deserialize<'de> for RawEnvironments {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let table = Table::deserialize(deserializer)?;
        Self::from_table(table).map_err(D::Error::custom)
    }
}

impl RawEnvironments {
    fn from_table(table: Table) -> Result<Self, String> {
        let mut order = None;
        let mut tables = BTreeMap::new();
        for (key, value) in table {
            if key == "order" {
                order = Some(typed("environments.order", value)?);
                continue;
            }
            let Value::Table(environment) = value else {
                return Err(format!(
                    "unknown key environments.{key}: [environments] holds `order` and one \
                     table per environment, e.g. [environments.{key}]"
                ));
            };
            let environment = RawEnvironment::from_table(&key, environment)?;
            tables.insert(key, environment);
        }
        let order = order.ok_or("environments.order is missing")?;
        Ok(Self { order, tables })
    }
}

impl RawEnvironment {
    fn from_table(name: &str, table: Table) -> Result<Self, String> {
        let mut environment = Self::default();
        for (key, value) in table {
            let dotted = format!("environments.{name}.{key}");
            match key.as_str() {
                "distribution" => environment.distribution = Some(typed(&dotted, value)?),
                "repos" => environment.repos = typed(&dotted, value)?,
                "requires_previous" => environment.requires_previous = typed(&dotted, value)?,
                _ => {
                    return Err(format!(
                        "unknown key {dotted}: an environment has distribution, repos and \
                         requires_previous"
                    ))
                }
            }
        }
        Ok(environment)
    }
}

/// `value` read as a `T`, or why not, naming `key`.
fn typed<T: DeserializeOwned>(key: &str, value: Value) -> Result<T, String> {
    value
        .try_into()
        .map_err(|e: toml::de::Error| format!("{key}: {}", e.message().trim_end()))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLog {
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
pub(crate) struct RawAudit {
    pub sink: String,
    pub path: PathBuf,
    pub url: String,
    pub password_file: PathBuf,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDiffs {
    pub dir: PathBuf,
    pub max_disk_mb: u64,
    pub compute_ahead: bool,
}

/// One `[[webhooks]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWebhook {
    pub url: String,
    /// Absent: every event.
    pub events: Option<Vec<String>>,
    /// Required (checked with the others, naming the key).
    pub secret_file: Option<PathBuf>,
    /// A PEM bundle of the CA that issued the receiver's certificate, trusted beside the web
    /// roots and the system's (for a receiver behind a company CA). Absent or empty: none.
    pub ca_file: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWebhookDelivery {
    pub source: String,
    pub timeout_secs: u64,
    pub retry_first_secs: u64,
    pub retry_max_secs: u64,
    pub give_up_hours: u64,
    pub retention_days: u64,
    /// Also sign with the deprecated body-only `X-Repo-Console-Signature` (replayable).
    pub deprecated_signature: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDrift {
    pub interval_secs: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDashboard {
    pub page_size: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDemo {
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
