//! The audit sinks `audit.sink` can name. A new sink is one adapter file (implementing
//! [`crate::ports::AuditSink`]) plus one line in [`SINKS`] and its name in
//! [`AUDIT_SINKS`](crate::wiring::config::settings::AUDIT_SINKS), the names the configuration
//! accepts (a test holds the two equal). Each brings the diff store, the
//! request store, the event outbox, the CVE index store, the session store and the pin store that go with it: files beside a
//! file, tables of the same database; for standard output, no diff store nor CVE index store,
//! and requests and events in memory (the configuration refuses a policy needing approvals
//! there, see `checks.rs`).

use std::path::Path;
use std::sync::Arc;

use futures::future::{ready, BoxFuture, FutureExt};

use crate::adapters::audit_stdout::StdoutAuditSink;
use crate::adapters::files::audit::JsonlAuditSink;
use crate::adapters::files::checks::JsonlCheckStore;
use crate::adapters::files::cve_index::FileCveIndex;
use crate::adapters::files::diff_store::FileDiffStore;
use crate::adapters::files::edge_states::JsonlEdgeStates;
use crate::adapters::files::outbox::JsonlOutbox;
use crate::adapters::files::pins::JsonlPinStore;
use crate::adapters::files::requests::JsonlRequestStore;
use crate::adapters::files::schedules::JsonlScheduleStore;
use crate::adapters::files::sessions::JsonlSessionStore;
use crate::adapters::memory::{
    MemoryCheckStore, MemoryEdgeStates, MemoryOutbox, MemoryPinStore, MemoryRequestStore,
    MemoryScheduleStore, MemorySessionStore,
};
use crate::adapters::postgres::{
    self, PgAuditSink, PgCheckStore, PgCveIndex, PgDeployLock, PgDiffStore, PgOutbox, PgPinStore,
    PgRequestStore, PgScheduleStore, PgSessionStore,
};
use crate::ports::session_store::SessionStore;
use crate::ports::EdgeStateStore;
use crate::ports::{
    AuditSink, CheckStore, CveIndexStore, DeployLock, DiffStore, EventOutbox, PinStore,
    RequestStore, ScheduleStore,
};

use crate::wiring::config::settings::{AuditSettings, DiffSettings};

/// A sink, the deploy lock it brings when replicas share it (a database), where computed
/// diffs are kept beside it (none: in memory only), where approval requests are, and where
/// events wait for their webhooks.
pub struct Built {
    pub sink: Arc<dyn AuditSink>,
    pub replica_lock: Option<Arc<dyn DeployLock>>,
    pub diff_store: Option<Arc<dyn DiffStore>>,
    pub requests: Arc<dyn RequestStore>,
    pub schedules: Arc<dyn ScheduleStore>,
    /// Where check reports are kept, beside the requests.
    pub checks: Arc<dyn CheckStore>,
    pub outbox: Arc<dyn EventOutbox>,
    /// Where the exposure's CVE index is kept beside the diffs (none: in memory only).
    pub cve_index: Option<Arc<dyn CveIndexStore>>,
    /// Where the promotions' signed evidence is kept, beside the audit.
    pub evidence: Arc<dyn crate::ports::evidence_store::EvidenceStore>,
    /// Where signed-in sessions are kept (OIDC sign-in), beside the requests.
    pub sessions: Arc<dyn SessionStore>,
    /// Where the rollbacks' pins are kept, beside the requests.
    pub pins: Arc<dyn PinStore>,
    /// What the console knows of the edges, beside the requests.
    pub edge_states: Arc<dyn EdgeStateStore>,
}

/// Builds a sink from the `[audit]` settings (connecting to it if need be) and its diff store
/// from `[diffs]`, or says why it cannot.
type Build =
    for<'a> fn(&'a AuditSettings, &'a DiffSettings) -> BoxFuture<'a, Result<Built, String>>;

/// Every sink, by its name in `audit.sink`.
const SINKS: &[(&str, Build)] = &[
    ("jsonl", |audit, diffs| {
        let store = FileDiffStore::new(&diffs.dir, diffs.max_bytes);
        let requests = JsonlRequestStore::new(audit.requests_path());
        let kept = Kept {
            requests: Arc::new(requests),
            schedules: Arc::new(JsonlScheduleStore::new(audit.schedules_path())),
            checks: Arc::new(JsonlCheckStore::new(audit.checks_path())),
            sessions: Arc::new(JsonlSessionStore::beside(&audit.path)),
            pins: Arc::new(JsonlPinStore::new(audit.pins_path())),
            edge_states: Arc::new(JsonlEdgeStates::beside(&audit.path)),
        };
        let outbox = match JsonlOutbox::beside(&audit.path) {
            Ok(outbox) => Arc::new(outbox),
            Err(e) => return ready(Err(format!("cannot read the webhook outbox: {e}"))).boxed(),
        };
        let mut built = alone(
            JsonlAuditSink::new(&audit.path),
            Some(Arc::new(store)),
            kept,
            outbox,
        );
        built.cve_index = Some(Arc::new(FileCveIndex::in_dir(&diffs.dir)));
        built.evidence =
            Arc::new(crate::adapters::files::evidence::JsonlEvidenceStore::beside(&audit.path));
        ready(Ok(built)).boxed()
    }),
    ("stdout", |_, _| {
        let requests = MemoryRequestStore::default();
        let outbox = Arc::new(MemoryOutbox::default());
        let kept = Kept {
            requests: Arc::new(requests),
            schedules: Arc::new(MemoryScheduleStore::default()),
            checks: Arc::new(MemoryCheckStore::default()),
            sessions: Arc::new(MemorySessionStore::default()),
            pins: Arc::new(MemoryPinStore::default()),
            edge_states: Arc::new(MemoryEdgeStates::default()),
        };
        ready(Ok(alone(StdoutAuditSink::default(), None, kept, outbox))).boxed()
    }),
    ("postgres", |audit, diffs| {
        shared_database(audit, diffs).boxed()
    }),
];

/// What is kept beside a sink of one replica: requests, schedules, checks, sessions, pins,
/// edges.
struct Kept {
    requests: Arc<dyn RequestStore>,
    schedules: Arc<dyn ScheduleStore>,
    checks: Arc<dyn CheckStore>,
    sessions: Arc<dyn SessionStore>,
    pins: Arc<dyn PinStore>,
    edge_states: Arc<dyn EdgeStateStore>,
}

/// A sink of one replica: the in-process deploy lock is enough.
fn alone(
    sink: impl AuditSink + 'static,
    diff_store: Option<Arc<dyn DiffStore>>,
    kept: Kept,
    outbox: Arc<dyn EventOutbox>,
) -> Built {
    Built {
        sink: Arc::new(sink),
        replica_lock: None,
        diff_store,
        requests: kept.requests,
        schedules: kept.schedules,
        checks: kept.checks,
        outbox,
        cve_index: None,
        evidence: Arc::new(crate::adapters::memory::MemoryEvidenceStore::default()),
        sessions: kept.sessions,
        pins: kept.pins,
        edge_states: kept.edge_states,
    }
}

/// The PostgreSQL sink, and the lock every replica takes, the diffs every replica reads and the
/// requests every replica acts on, in the same database.
async fn shared_database(audit: &AuditSettings, diffs: &DiffSettings) -> Result<Built, String> {
    let password = read_password(&audit.password_file)?;
    let db = postgres::connect(&audit.url, password.as_deref()).await?;
    Ok(Built {
        sink: Arc::new(PgAuditSink::new(db.clone())),
        replica_lock: Some(Arc::new(PgDeployLock::new(db.clone()))),
        diff_store: Some(Arc::new(PgDiffStore::new(db.clone(), diffs.max_bytes))),
        requests: Arc::new(PgRequestStore::new(db.clone())),
        schedules: Arc::new(PgScheduleStore::new(db.clone())),
        checks: Arc::new(PgCheckStore::new(db.clone())),
        outbox: Arc::new(PgOutbox::new(db.clone())),
        evidence: Arc::new(postgres::PgEvidenceStore::new(db.clone())),
        cve_index: Some(Arc::new(PgCveIndex::new(db.clone()))),
        edge_states: Arc::new(postgres::PgEdgeStates::new(db.clone())),
        sessions: Arc::new(PgSessionStore::new(db.clone())),
        pins: Arc::new(PgPinStore::new(db)),
    })
}

fn read_password(path: &Path) -> Result<Option<String>, String> {
    if path.as_os_str().is_empty() {
        return Ok(None);
    }
    crate::wiring::sections::password_file::first_line(path)
        .map(Some)
        .map_err(|e| format!("cannot read audit.password_file {}: {e}", path.display()))
}

/// The sink the settings name, with its diff store unless `diffs.max_disk_mb` is 0.
pub async fn build(audit: &AuditSettings, diffs: &DiffSettings) -> Result<Built, String> {
    let (_, build) = SINKS
        .iter()
        .find(|(name, _)| *name == audit.sink)
        .ok_or_else(|| format!("no audit sink is named '{}'", audit.sink))?;
    let mut built = build(audit, diffs).await?;
    if diffs.max_bytes == 0 {
        built.diff_store = None;
        built.cve_index = None;
    }
    Ok(built)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn each_named_sink_is_built_and_says_where_it_writes() {
        let jsonl = AuditSettings {
            sink: "jsonl".into(),
            path: "/var/log/console/audit.jsonl".into(),
            url: String::new(),
            password_file: Default::default(),
            verify_interval: Default::default(),
        };
        let diffs = DiffSettings {
            dir: "/var/log/console/diffs".into(),
            max_bytes: 1 << 20,
            compute_ahead: true,
        };
        let built = build(&jsonl, &diffs).await.unwrap();
        assert_eq!(built.sink.target(), "/var/log/console/audit.jsonl");
        assert_eq!(
            built.outbox.target(),
            "/var/log/console/webhooks-outbox.jsonl"
        );
        assert!(built.replica_lock.is_none());
        assert_eq!(
            built.requests.target(),
            "/var/log/console/requests.jsonl",
            "requests beside the audit file"
        );
        assert_eq!(built.checks.target(), "/var/log/console/checks.jsonl");
        assert_eq!(built.pins.target(), "/var/log/console/pins.jsonl");
        assert_eq!(built.edge_states.target(), "/var/log/console/edges.jsonl");
        let store = built.diff_store.expect("files beside the audit file");
        assert_eq!(store.target(), "/var/log/console/diffs");
        let none = DiffSettings {
            max_bytes: 0,
            ..diffs.clone()
        };
        assert!(build(&jsonl, &none).await.unwrap().diff_store.is_none());
        let stdout = AuditSettings {
            sink: "stdout".into(),
            ..jsonl.clone()
        };
        let built = build(&stdout, &diffs).await.unwrap();
        assert_eq!(built.sink.target(), "standard output");
        assert!(built.diff_store.is_none(), "memory only");
        assert!(built.requests.target().starts_with("memory"));
        assert!(built.checks.target().starts_with("memory"));
        assert!(built.pins.target().starts_with("memory"));
        assert_eq!(built.outbox.target(), "memory");
        let names: Vec<&str> = SINKS.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            names,
            crate::wiring::config::settings::AUDIT_SINKS,
            "every name audit.sink accepts has a sink, and no sink is unnamed"
        );
        let unreachable = AuditSettings {
            sink: "postgres".into(),
            url: "postgres://nobody@127.0.0.1:1/none".into(),
            ..jsonl
        };
        let error = build(&unreachable, &diffs)
            .await
            .err()
            .expect("no database there");
        assert!(
            error.starts_with("cannot connect to postgres://127.0.0.1:1/none"),
            "{error}"
        );
    }
}
