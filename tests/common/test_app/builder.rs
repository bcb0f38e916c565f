//! What a test may set on the console it stands up, each with the default most tests want:
//! an in-memory Pulp (5 ms tasks) behind its fault injector, a JSON Lines audit file (and
//! checks.jsonl beside it) in a temporary directory, a clock pinned at 2026-11-22T10:00:00Z,
//! the fixed operator, no policy, production alone, the edge's default settings and no
//! shutdown.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::memory::{FixedClock, InMemoryPulp, MemoryOptions, MemoryRequestStore};
use repo_console::adapters::web::EdgeSettings;
use repo_console::app::state::AppStateBuilder;
use repo_console::domain::environment::EnvironmentPath;
use repo_console::domain::policy::Policy;
use repo_console::ports::{Clock, ContentCatalog, OperatorIdentity, RepositoryManager};

use super::served::TestApp;

/// A fixed clock at `rfc3339`.
pub fn clock_at(rfc3339: &str) -> Arc<FixedClock> {
    let now: DateTime<Utc> = DateTime::parse_from_rfc3339(rfc3339)
        .unwrap_or_else(|e| panic!("{rfc3339} is not an RFC 3339 time: {e}"))
        .into();
    Arc::new(FixedClock(now))
}

/// The instant the default clock is pinned at.
const PINNED: &str = "2026-11-22T10:00:00Z";

/// The time of the default clock (what the console's audit lines say, unless a test sets a
/// clock of its own).
pub fn pinned_time() -> DateTime<Utc> {
    clock_at(PINNED).0
}

type World<W> = Box<dyn FnOnce(&InMemoryPulp) -> W + Send>;
type Change = Box<dyn FnOnce(AppStateBuilder) -> AppStateBuilder + Send>;
pub(super) type Shutdown = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Builds a [`TestApp`] (see the module's defaults).
pub struct TestAppBuilder<W> {
    pub(super) memory: Option<Arc<InMemoryPulp>>,
    pub(super) options: MemoryOptions,
    pub(super) world: World<W>,
    pub(super) manager: Option<Arc<dyn RepositoryManager>>,
    pub(super) content: Option<Arc<dyn ContentCatalog>>,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) identity: Arc<dyn OperatorIdentity>,
    pub(super) audit_path: Option<PathBuf>,
    pub(super) recording: bool,
    pub(super) production: HashMap<String, String>,
    pub(super) changes: Vec<Change>,
    pub(super) edge: EdgeSettings,
    pub(super) shutdown: Shutdown,
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

    /// Callers of the JSON API, by bearer token (also the tokens configured now, for the
    /// authority of what they asked when it runs).
    pub fn tokens(self, tokens: BearerTokens) -> Self {
        let roster = tokens.roster();
        self.configure(move |state| state.api_callers(Arc::new(tokens)).tokens(roster))
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
}
