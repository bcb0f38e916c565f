//! The validated configuration the console starts with.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::adapters::web::EdgeSettings;
use crate::domain::environment::EnvironmentPath;
use crate::domain::policy::Policy;
use crate::domain::release::Releases;

use crate::wiring::config::raw::{LogFormat, RawPulp};
use crate::wiring::sections::identity::IdentitySettings;
use crate::wiring::sections::webhooks::WebhookSettings;

/// The names `audit.sink` accepts, checked when the configuration is read; `audit_sinks.rs`
/// builds a sink for each (one line of its table per name, held equal to this list by its
/// test).
pub const AUDIT_SINKS: [&str; 3] = ["jsonl", "stdout", "postgres"];

/// Where audit records go: the `[audit]` table, its sink name one of `AUDIT_SINKS`.
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
    /// Between two checks of the audit log's hash chain; zero: none.
    pub verify_interval: std::time::Duration,
}

/// The file of approval requests beside the audit file (`jsonl` sink).
pub const REQUESTS_FILE: &str = "requests.jsonl";

/// The file of scheduled deploys beside the audit file (`jsonl` sink).
pub const SCHEDULES_FILE: &str = "schedules.jsonl";
/// The file of check reports beside the audit file (`jsonl` sink).
pub const CHECKS_FILE: &str = "checks.jsonl";
/// The file of the rollbacks' pins beside the audit file (`jsonl` sink).
pub const PINS_FILE: &str = "pins.jsonl";

impl AuditSettings {
    /// Where the `jsonl` sink keeps approval requests: `requests.jsonl` beside the audit file.
    pub fn requests_path(&self) -> PathBuf {
        let beside = self.path.parent().unwrap_or(std::path::Path::new(""));
        beside.join(REQUESTS_FILE)
    }

    /// Where the `jsonl` sink keeps scheduled deploys: `schedules.jsonl` beside the audit file.
    pub fn schedules_path(&self) -> PathBuf {
        let beside = self.path.parent().unwrap_or(std::path::Path::new(""));
        beside.join(SCHEDULES_FILE)
    }

    /// Where the `jsonl` sink keeps check reports: `checks.jsonl` beside the audit file.
    pub fn checks_path(&self) -> PathBuf {
        let beside = self.path.parent().unwrap_or(std::path::Path::new(""));
        beside.join(CHECKS_FILE)
    }

    /// Where the `jsonl` sink keeps the rollbacks' pins: `pins.jsonl` beside the audit file.
    pub fn pins_path(&self) -> PathBuf {
        let beside = self.path.parent().unwrap_or(std::path::Path::new(""));
        beside.join(PINS_FILE)
    }
}

/// Where computed diffs are kept beyond memory: the `[diffs]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffSettings {
    /// The directory of the file store (used with the `jsonl` audit sink): `diffs.dir`, or
    /// `diffs` beside the audit file.
    pub dir: PathBuf,
    /// The bound of the store, in bytes (`diffs.max_disk_mb`); 0: no store.
    pub max_bytes: u64,
    /// Whether the newest version's diff against production is computed in the background
    /// (`diffs.compute_ahead`).
    pub compute_ahead: bool,
}

/// The validated configuration.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    pub audit: AuditSettings,
    /// `[evidence]`: the signing key, when there is one.
    pub evidence: crate::wiring::sections::evidence::EvidenceSettings,
    pub diffs: DiffSettings,
    /// Who sends each request (the `[identity]` table).
    pub identity: IdentitySettings,
    /// Who may call the JSON API with a bearer token (`[[api.tokens]]`).
    pub api_tokens: Vec<crate::adapters::identity::bearer::ApiToken>,
    /// How many changes each caller may make a minute (`api.writes_per_minute`).
    pub writes_per_minute: std::num::NonZeroU32,
    /// How many exposure questions an unidentified caller may ask a minute from one address
    /// (`api.anonymous_exposure_per_minute`).
    pub anonymous_exposure_per_minute: std::num::NonZeroU32,
    pub log_format: LogFormat,
    pub page_size: u64,
    /// The `[production]` table as configured (the demo adds its own at startup).
    pub production: HashMap<String, String>,
    /// The environments versions go through, in order (`[environments]`); without them,
    /// `production` alone, named by `[production]`. The demo's own mapping is not in it.
    pub environments: EnvironmentPath,
    /// Who may deploy where, and synchronize (`[policy]`); without it, every identified
    /// operator may.
    pub policy: Policy,
    /// The digest of the `[policy]` and `[environments]` tables as read, the defaults
    /// included: the policy in force each attestation names.
    pub policy_facts: crate::domain::evidence::predicate::PolicyFacts,
    /// Repositories promoted together (`[releases]`).
    pub releases: Releases,
    /// Where events are sent (`[[webhooks]]`), and how (`[webhook_delivery]`).
    pub webhooks: WebhookSettings,
    /// Between two drift checks (`drift.interval_secs`); zero: none.
    pub drift_interval: Duration,
    /// How often due schedules are looked for, and how long a claim lasts (`[schedules]`).
    pub schedules: crate::wiring::sections::schedules::ScheduleSettings,
    /// When a rollback counts a deploy failed (`[insights]`).
    pub insights: crate::app::insights::InsightsSettings,
    /// How long an approval request waits for its approvals (`policy.request_ttl_hours`).
    pub request_ttl: chrono::Duration,
    /// How long a closed request is kept (`policy.request_retention_days`).
    pub request_retention: chrono::Duration,
    /// How long a superseded check report is kept (`policy.check_retention_days`).
    pub check_retention: chrono::Duration,
    /// The edge Pulps that copy this one (`[[edges]]`), and how they are followed
    /// (`[edge_replication]`).
    pub edge_pulps: crate::wiring::sections::edges::EdgePulps,
    pub demo_task_delay: Duration,
    /// The HTTP edge: timeouts, allowed hosts, and how long a shutdown waits for requests
    /// in flight (the task timeout, twice: a deploy waits for two tasks, plus a margin).
    pub edge: EdgeSettings,
    pub(crate) pulp: RawPulp,
    /// Set when the Pulp server was taken from pulp-cli's configuration file.
    pub pulp_from_cli: Option<PathBuf>,
    /// A layer above the built-in defaults set `audit.path` (on the demo upstream, the audit
    /// then stays there instead of a fresh temporary directory).
    pub audit_path_set: bool,
}

impl Config {
    /// No Pulp is named anywhere: the console serves the built-in demo upstream.
    pub fn uses_demo(&self) -> bool {
        self.pulp.base_url.is_empty()
    }
}
