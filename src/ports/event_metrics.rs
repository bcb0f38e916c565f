//! What the console reports to its metrics: how deploys end (pages, API, approvals), drift per
//! repository and environment, how webhook deliveries end, the answers of the console and the
//! requests to Pulp; and, for the scrape endpoint, everything measured so far. One instance,
//! held in `AppState`, built by the composition root (no process-wide global).

use std::time::Duration;

use crate::domain::environment::EnvironmentName;

/// One environment of one repository, as a drift check found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriftReading {
    /// The repository's name.
    pub repository: String,
    pub environment: EnvironmentName,
    pub drifted: bool,
}

/// How one delivery attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptEnd {
    Delivered,
    /// Failed; another attempt is scheduled.
    Retried,
    /// Failed for the last time.
    GivenUp,
}

impl AttemptEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Delivered => "delivered",
            Self::Retried => "retried",
            Self::GivenUp => "given_up",
        }
    }
}

/// How one deploy request ended, as counted (`repo_console_deploys_total{outcome}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeployEnd {
    Deployed,
    Failed,
    /// Refused before anything changed.
    Refused,
    /// Recorded as an approval request.
    Requested,
    NotStarted,
    /// Refused because the sender is not known (the environment is then not read).
    Unidentified,
}

/// How a deploy was asked for: the `asked` label of `repo_console_deploys_total`. Each
/// member of a release promotion counts as one deploy, asked `release`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeployAsked {
    /// An operator's deploy, from the pages or the API.
    Deploy,
    /// An operator's rollback.
    Rollback,
    /// A member of a release promotion.
    Release,
    /// A schedule, at its time.
    Schedule,
    /// An automatic promotion (a required check passed).
    Automation,
    /// The completing approval of a request.
    Approval,
}

impl DeployAsked {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Deploy => "deploy",
            Self::Rollback => "rollback",
            Self::Release => "release",
            Self::Schedule => "schedule",
            Self::Automation => "automation",
            Self::Approval => "approval",
        }
    }
}

impl DeployEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Deployed => "deployed",
            Self::Failed => "failed",
            Self::Refused => "refused",
            Self::Requested => "requested",
            Self::NotStarted => "not_started",
            Self::Unidentified => "unidentified",
        }
    }
}

pub trait EventMetrics: Send + Sync {
    /// A deploy request ended so, for `environment` (`None`: not known, the request was not
    /// read); `took` is the duration of one that started (deployed or failed).
    fn deploy_ended(
        &self,
        end: DeployEnd,
        asked: DeployAsked,
        environment: Option<&EnvironmentName>,
        took: Option<Duration>,
    );

    /// The readings of one drift check. `complete`: every repository was read, so a
    /// repository or environment not among them is gone (its reading is dropped).
    fn drift_checked(&self, readings: &[DriftReading], complete: bool);

    /// A delivery attempt ended so.
    fn delivery(&self, end: AttemptEnd);

    /// A check of the audit log's hash chain found these verdicts, one per log.
    fn audit_chain_checked(&self, reports: &[crate::ports::audit_chain::ChainReport]) {
        let _ = reports;
    }

    /// The console answered a request of `route` (its template, never raw path text) so.
    fn http_answered(&self, route: &str, status: u16);

    /// One request to Pulp: its `operation` (method and API route template), its status
    /// (`None`: no answer) and how long it took.
    fn upstream_request(&self, operation: String, status: Option<u16>, took: Duration);

    /// The CVE index after it was brought up to date: the advisory units and the distinct
    /// CVEs it holds, and when (seconds since the Unix epoch).
    fn cve_index(&self, advisories: usize, cves: usize, refreshed_unix: i64);

    /// A deploy's lead time (its version's creation in Pulp to its arrival), counted once, by
    /// the replica that moved it, when it moved (see [`crate::app::promotion::measure`]).
    fn lead_time(&self, _environment: &EnvironmentName, _seconds: i64) {}

    /// A sign-in event (OIDC): `signed_in`, `refused`, `signed_out` or `expired`.
    fn sign_in(&self, _event: &'static str) {}
    /// What the edges serve after a judgement: each edge's lag behind production in seconds
    /// (the longest of its distributions'), and how many (edge, distribution) pairs are in
    /// each state (`serving`, `behind`, ...). Measured nowhere unless an adapter says so.
    fn edges_judged(&self, lags: &[(String, i64)], states: &[(&'static str, i64)]) {
        let _ = (lags, states);
    }

    /// Everything measured so far, in the text format the scrape endpoint serves (empty when
    /// nothing is measured).
    fn render(&self) -> String;

    /// The content type of [`EventMetrics::render`].
    fn content_type(&self) -> &'static str;
}
