//! A console serving on 127.0.0.1:0, the handles to its in-memory upstream and audit, and
//! what a test reads back (the audit trail, the upstream's writes, what production serves).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use repo_console::adapters::memory::{FaultyPulp, InMemoryPulp, RecordingAuditSink};
use repo_console::adapters::web::{self, EdgeSettings};
use repo_console::app::AppState;

use crate::web::WebClient;

/// A console serving on a free port of 127.0.0.1, built by [`super::TestAppBuilder`].
pub struct TestApp<W = ()> {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    pub client: WebClient,
    /// The state served (rebuild it to serve a variant, e.g. for another operator).
    pub state: AppState,
    /// The in-memory upstream behind its fault injector (served unless the builder named
    /// another upstream).
    pub pulp: Arc<FaultyPulp>,
    pub memory: Arc<InMemoryPulp>,
    /// What the builder's world put into the in-memory upstream.
    pub fixture: W,
    /// The JSON Lines audit file (absent when the audit is recorded in memory).
    pub audit_path: PathBuf,
    /// The serving task; it ends when the builder's shutdown future resolves.
    pub served: tokio::task::JoinHandle<std::io::Result<()>>,
    pub(super) recorded: Option<Arc<RecordingAuditSink>>,
    pub(super) dir: tempfile::TempDir,
}

impl<W> TestApp<W> {
    /// The temporary directory of this console (its audit file, stores a test adds).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The audit sink kept in memory; panics when this console writes its audit to a file.
    pub fn recorded(&self) -> &RecordingAuditSink {
        self.recorded.as_deref().expect(
            "this TestApp writes its audit to a JSON Lines file (audit_lines()); \
             build it with .recording_audit() to read records",
        )
    }

    /// Every line of the JSON Lines audit file, parsed (none when it was never written).
    pub fn audit_lines(&self) -> Vec<serde_json::Value> {
        match std::fs::read_to_string(&self.audit_path) {
            Ok(text) => text
                .lines()
                .map(|l| serde_json::from_str(l).expect("each audit line is JSON"))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The upstream calls that change something.
    pub fn mutations(&self) -> Vec<String> {
        self.memory
            .calls()
            .into_iter()
            .filter(|c| {
                c.starts_with("create_publication")
                    || c.starts_with("update_distribution")
                    || c.starts_with("sync ")
            })
            .collect()
    }

    /// The version `distribution` serves in the in-memory upstream.
    pub fn production_version(&self, distribution: &str) -> Option<u64> {
        self.memory.serving_version(distribution).map(|n| n.get())
    }
}

/// Serves `state` through the whole edge on a free port of 127.0.0.1 until `shutdown`;
/// answers its address and the serving task.
pub async fn serve(
    state: AppState,
    settings: EdgeSettings,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> (String, tokio::task::JoinHandle<std::io::Result<()>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port on 127.0.0.1");
    let address = format!("http://{}", listener.local_addr().expect("its address"));
    let served = tokio::spawn(web::serve_with(listener, state, shutdown, settings));
    (address, served)
}
