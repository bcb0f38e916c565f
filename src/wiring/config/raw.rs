//! The configuration as written: every key, its type (these structs) and, in
//! `config/default.toml`, its default and its doc. Both are read together at every start (an
//! unknown key or a missing default is an error), so they cannot drift apart.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use serde::Deserialize;

use crate::wiring::sections::api::RawApi;
use crate::wiring::sections::environments::RawEnvironments;
use crate::wiring::sections::evidence::RawEvidence;
use crate::wiring::sections::identity::RawIdentity;
use crate::wiring::sections::policy::RawPolicy;
use crate::wiring::sections::server_edge::RawServer;
use crate::wiring::sections::webhooks::{RawDrift, RawWebhook, RawWebhookDelivery};

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
    pub insights: crate::wiring::sections::insights::RawInsights,
    pub server: RawServer,
    pub audit: RawAudit,
    pub evidence: RawEvidence,
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
    pub oidc: crate::wiring::sections::oidc::RawOidc,
    pub api: RawApi,
    pub log: RawLog,
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
    pub verify_interval_secs: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDiffs {
    pub dir: PathBuf,
    pub max_disk_mb: u64,
    pub compute_ahead: bool,
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
