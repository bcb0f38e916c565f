//! Building what a [`TestAppBuilder`] describes: the console's state and its handles
//! ([`Standing`]), served or not yet.

use std::path::PathBuf;
use std::sync::Arc;

use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::memory::{FaultyPulp, InMemoryPulp, RecordingAuditSink};
use repo_console::adapters::web::EdgeSettings;
use repo_console::app::state::AppStateBuilder;
use repo_console::app::AppState;
use repo_console::ports::{AuditSink, ContentCatalog, RepositoryManager};

use super::builder::{Shutdown, TestAppBuilder};
use super::served::{serve, TestApp};
use crate::web::WebClient;

/// A console built but not served yet: its state and its handles.
pub struct Standing<W> {
    pub state: AppState,
    pub pulp: Arc<FaultyPulp>,
    pub memory: Arc<InMemoryPulp>,
    pub fixture: W,
    pub audit_path: PathBuf,
    recorded: Option<Arc<RecordingAuditSink>>,
    dir: tempfile::TempDir,
    edge: EdgeSettings,
    shutdown: Shutdown,
}

impl<W> TestAppBuilder<W> {
    /// The console's state and handles, not served.
    pub fn build(self) -> Standing<W> {
        let memory = self
            .memory
            .unwrap_or_else(|| Arc::new(InMemoryPulp::new(self.options)));
        let fixture = (self.world)(&memory);
        let pulp = Arc::new(FaultyPulp::new(memory.clone()));
        let dir = tempfile::tempdir().expect("a temporary directory");
        let audit_path = self
            .audit_path
            .unwrap_or_else(|| dir.path().join("logs/audit.jsonl"));
        let recorded = self
            .recording
            .then(|| Arc::new(RecordingAuditSink::default()));
        let audit: Arc<dyn AuditSink> = match &recorded {
            Some(recording) => recording.clone(),
            None => Arc::new(JsonlAuditSink::new(&audit_path)),
        };
        let manager: Arc<dyn RepositoryManager> = self.manager.unwrap_or_else(|| pulp.clone());
        let content: Arc<dyn ContentCatalog> = self.content.unwrap_or_else(|| pulp.clone());
        // Each console its own registry, so a test reads exact counts.
        // Checks beside the audit, as the console with the jsonl sink keeps them.
        let checks = audit_path.with_file_name("checks.jsonl");
        let builder = AppState::builder(manager, content, audit, self.clock, self.identity)
            .production(self.production)
            .metrics(Arc::new(repo_console::adapters::metrics::Metrics::new()))
            .checks(Arc::new(
                repo_console::adapters::files::checks::JsonlCheckStore::new(checks),
            ))
            // Pins beside the audit, as the console with the jsonl sink keeps them.
            .part(repo_console::app::pins::Pins::new(Arc::new(
                repo_console::adapters::files::pins::JsonlPinStore::new(
                    audit_path.with_file_name("pins.jsonl"),
                ),
            )));
        let state = self
            .changes
            .into_iter()
            .fold(builder, |state, change| change(state))
            .build();
        Standing {
            state,
            pulp,
            memory,
            fixture,
            audit_path,
            recorded,
            dir,
            edge: self.edge,
            shutdown: self.shutdown,
        }
    }

    /// The console built and served.
    pub async fn spawn(self) -> TestApp<W> {
        self.build().serve().await
    }
}

impl<W> Standing<W> {
    /// Serves the state (as it is now: a test may have changed it) through the edge.
    pub async fn serve(self) -> TestApp<W> {
        let (address, served) = serve(self.state.clone(), self.edge, self.shutdown).await;
        TestApp {
            client: WebClient {
                address: address.clone(),
            },
            address,
            state: self.state,
            pulp: self.pulp,
            memory: self.memory,
            fixture: self.fixture,
            audit_path: self.audit_path,
            served,
            recorded: self.recorded,
            dir: self.dir,
        }
    }

    /// The temporary directory of this console.
    pub fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// The audit sink kept in memory; panics when this console writes its audit to a file.
    pub fn recorded(&self) -> Arc<RecordingAuditSink> {
        self.recorded.clone().expect(
            "this console writes its audit to a JSON Lines file: build it with .recording_audit()",
        )
    }

    /// Serves a variant of the state (the same upstream, stores and audit; `change`
    /// applied, e.g. another operator) on a port of its own until the test ends; answers
    /// its address. Fresh locks and caches, as a second process would have.
    pub async fn serve_variant(
        &self,
        change: impl FnOnce(AppStateBuilder) -> AppStateBuilder,
    ) -> String {
        let state = change(self.state.rebuild()).build();
        serve(state, self.edge.clone(), std::future::pending())
            .await
            .0
    }
}
