//! What a test may set on the console it stands up, each with the default most tests want:
//! an in-memory Pulp (5 ms tasks) behind its fault injector, a JSON Lines audit file in a
//! temporary directory, a clock pinned at 2026-11-22T10:00:00Z, the fixed operator, no
//! policy, production alone, the edge's default settings and no shutdown.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::memory::{
    FaultyPulp, FixedClock, InMemoryPulp, MemoryOptions, MemoryRequestStore, RecordingAuditSink,
};
use repo_console::adapters::web::EdgeSettings;
use repo_console::app::state::AppStateBuilder;
use repo_console::app::AppState;
use repo_console::domain::{EnvironmentPath, Policy};
use repo_console::ports::{AuditSink, Clock, ContentCatalog, OperatorIdentity, RepositoryManager};

use super::served::{serve, TestApp};
use crate::web::WebClient;

/// A fixed clock at `rfc3339`.
pub fn clock_at(rfc3339: &str) -> Arc<FixedClock> {
    let now: DateTime<Utc> = DateTime::parse_from_rfc3339(rfc3339)
        .unwrap_or_else(|e| panic!("{rfc3339} is not an RFC 3339 time: {e}"))
        .into();
    Arc::new(FixedClock(now))
}

/// The instant the default clock is pinned at.
const PINNED: &str = "2026-11-22T10:00:00Z";

type World<W> = Box<dyn FnOnce(&InMemoryPulp) -> W + Send>;
type Change = Box<dyn FnOnce(AppStateBuilder) -> AppStateBuilder + Send>;
type Shutdown = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Builds a [`TestApp`] (see the module's defaults).
pub struct TestAppBuilder<W> {
    memory: Option<Arc<InMemoryPulp>>,
    options: MemoryOptions,
    world: World<W>,
    manager: Option<Arc<dyn RepositoryManager>>,
    content: Option<Arc<dyn ContentCatalog>>,
    clock: Arc<dyn Clock>,
    identity: Arc<dyn OperatorIdentity>,
    audit_path: Option<PathBuf>,
    recording: bool,
    production: HashMap<String, String>,
    changes: Vec<Change>,
    edge: EdgeSettings,
    shutdown: Shutdown,
}

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

impl TestApp<()> {
    /// A builder with the defaults of the module and an empty in-memory upstream.
    pub fn builder() -> TestAppBuilder<()> {
        TestAppBuilder {
            memory: None,
            options: MemoryOptions::default(),
            world: Box::new(|_| ()),
            manager: None,
            content: None,
            clock: clock_at(PINNED),
            identity: Arc::new(FixedOperator::default()),
            audit_path: None,
            recording: false,
            production: HashMap::new(),
            changes: Vec::new(),
            edge: EdgeSettings::default(),
            shutdown: Box::pin(std::future::pending()),
        }
        .task_delay(Duration::from_millis(5))
    }
}

impl<W> TestAppBuilder<W> {
    /// What the in-memory upstream holds: `build` adds it, and the app keeps what it
    /// answers as its `fixture`.
    pub fn world<V>(
        self,
        build: impl FnOnce(&InMemoryPulp) -> V + Send + 'static,
    ) -> TestAppBuilder<V> {
        TestAppBuilder {
            memory: self.memory,
            options: self.options,
            world: Box::new(build),
            manager: self.manager,
            content: self.content,
            clock: self.clock,
            identity: self.identity,
            audit_path: self.audit_path,
            recording: self.recording,
            production: self.production,
            changes: self.changes,
            edge: self.edge,
            shutdown: self.shutdown,
        }
    }

    /// Over this in-memory upstream (already filled) instead of a new one.
    pub fn memory(mut self, memory: Arc<InMemoryPulp>) -> Self {
        self.memory = Some(memory);
        self
    }

    /// How long the new in-memory upstream's tasks take (and are waited for: a task that
    /// never ends is given up on after 1 s plus four times this).
    pub fn task_delay(mut self, delay: Duration) -> Self {
        self.options.task_delay = delay;
        self.options.task_timeout = Duration::from_secs(1) + delay * 4;
        self
    }

    /// Over another upstream (the real Pulp, a counting decorator) for reads, deploys and
    /// content; the in-memory one is then built but not served.
    pub fn upstream<P: RepositoryManager + ContentCatalog + 'static>(
        mut self,
        pulp: Arc<P>,
    ) -> Self {
        self.manager = Some(pulp.clone());
        self.content = Some(pulp);
        self
    }

    /// What versions contain is read from `content` (the rest from the upstream).
    pub fn content(mut self, content: Arc<dyn ContentCatalog>) -> Self {
        self.content = Some(content);
        self
    }

    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// A clock fixed at `rfc3339`.
    pub fn at(self, rfc3339: &str) -> Self {
        self.clock(clock_at(rfc3339))
    }

    pub fn identity(mut self, identity: Arc<dyn OperatorIdentity>) -> Self {
        self.identity = identity;
        self
    }

    /// Who may deploy where, approve, override a freeze, synchronize.
    pub fn policy(self, policy: Policy) -> Self {
        self.configure(move |state| state.policy(policy))
    }

    /// Callers of the JSON API, by bearer token.
    pub fn tokens(self, tokens: BearerTokens) -> Self {
        self.configure(move |state| state.api_callers(Arc::new(tokens)))
    }

    /// Approval requests kept in memory, for 24 hours each.
    pub fn requests(self) -> Self {
        let store = Arc::new(MemoryRequestStore::default());
        self.configure(move |state| state.requests(store, chrono::Duration::hours(24)))
    }

    /// The environments versions go through (production alone otherwise).
    pub fn environments(self, path: EnvironmentPath) -> Self {
        self.configure(move |state| state.environments(path))
    }

    /// Production alone, with these distributions by repository name.
    pub fn production(mut self, production: HashMap<String, String>) -> Self {
        self.production = production;
        self
    }

    pub fn page_size(self, page_size: u64) -> Self {
        self.configure(move |state| state.page_size(page_size))
    }

    /// The audit as records in memory ([`TestApp::recorded`]) instead of a file.
    pub fn recording_audit(mut self) -> Self {
        self.recording = true;
        self
    }

    /// The JSON Lines audit file at `path` instead of one in the app's directory.
    pub fn audit_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.audit_path = Some(path.into());
        self
    }

    /// Any other setting of the state (events, stores, locks...), applied in order after
    /// the ones above.
    pub fn configure(
        mut self,
        change: impl FnOnce(AppStateBuilder) -> AppStateBuilder + Send + 'static,
    ) -> Self {
        self.changes.push(Box::new(change));
        self
    }

    /// The edge's settings (timeouts, allowed hosts, shutdown grace).
    pub fn edge(mut self, settings: EdgeSettings) -> Self {
        self.edge = settings;
        self
    }

    /// Serving stops when `shutdown` resolves (never, otherwise).
    pub fn until(mut self, shutdown: impl Future<Output = ()> + Send + 'static) -> Self {
        self.shutdown = Box::pin(shutdown);
        self
    }

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
        let builder = AppState::builder(manager, content, audit, self.clock, self.identity)
            .production(self.production);
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
