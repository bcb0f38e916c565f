//! What every use case and handler shares: the ports, behind trait objects, and each
//! feature's own part ([`super::parts`]: its locks, caches, queue, kept by type, so that this
//! file names no feature room). Built in one place, [`AppState::builder`], by the composition
//! root and by tests alike.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Arc;

use crate::domain::environment::EnvironmentPath;
use crate::domain::policy::{Policy, TokenRoster};
use crate::domain::release::Releases;
use crate::ports::{
    AuditSink, CheckStore, Clock, ContentCatalog, DeployLock, DiffStore, EventMetrics,
    OperatorIdentity, RepositoryManager, RequestStore, ScheduleStore,
};

use super::parts::{Parts, StatePart};
use super::write_limit::WriteLimit;

/// Repositories per dashboard page unless configured otherwise.
const DEFAULT_PAGE_SIZE: u64 = 25;

/// The console's dependencies. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// Upstream, for what a deploy or a sync reads and changes: always fresh.
    pub(crate) manager: Arc<dyn RepositoryManager>,
    /// Upstream, for what pages show: the same, or one that shares identical concurrent reads.
    pub(crate) reads: Arc<dyn RepositoryManager>,
    pub(crate) audit: Arc<dyn AuditSink>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) identity: Arc<dyn OperatorIdentity>,
    /// The environments versions go through, and how each names its distributions.
    pub(crate) environments: Arc<EnvironmentPath>,
    /// Who may deploy where, and synchronize.
    pub(crate) policy: Arc<Policy>,
    /// The API tokens configured now, for the authority of a schedule's or a request's
    /// token author when its deploy runs (none: every token author's authority lapsed).
    pub(crate) tokens: Arc<TokenRoster>,
    /// Repositories promoted together.
    pub(crate) releases: Arc<Releases>,
    /// The lock shared with the other replicas, when the console runs as several (PostgreSQL);
    /// `None` when it runs alone (the in-process lock is enough).
    pub(crate) replica_lock: Option<Arc<dyn DeployLock>>,
    /// Repositories per dashboard page.
    pub(crate) page_size: u64,
    /// What versions contain (packages, advisories), for diffs.
    pub(crate) content: Arc<dyn ContentCatalog>,
    /// Where computed diffs are kept beyond the process (a directory, the replicas'
    /// database); `None`: in memory only. Read through [`crate::app::diffs::known`].
    pub(crate) diff_store: Option<Arc<dyn DiffStore>>,
    /// Where approval requests are kept (beside the audit log); `None`: nowhere, so a deploy
    /// that needs approvals cannot be requested.
    pub(crate) requests: Option<Arc<dyn RequestStore>>,
    /// How long a request waits for its approvals.
    pub(crate) request_ttl: chrono::Duration,
    /// Where scheduled deploys are kept (beside the audit log); `None`: nowhere, so no deploy
    /// can be scheduled.
    pub(crate) schedules: Option<Arc<dyn ScheduleStore>>,
    /// How long a replica's claim on a due schedule keeps the others away from it.
    pub(crate) claim_lapse: chrono::Duration,
    /// This process, as its claims name it (host, process id and a random part).
    pub(crate) replica: Arc<str>,
    /// Where the checks pipelines report are kept (beside the requests); `None`: nowhere, so
    /// no check can be reported and every required check is missing.
    pub(crate) checks: Option<Arc<dyn CheckStore>>,
    /// Who calls the JSON API (bearer tokens, or the trusted proxy); `None`: nobody may
    /// change anything through it.
    pub(crate) api_callers: Option<Arc<dyn OperatorIdentity>>,
    /// Where use cases and the web edge report what they measure (deploys, drift, answers),
    /// and what `/metrics` reads. The composition root gives the Prometheus adapter; a state
    /// built without one measures nothing.
    pub(crate) metrics: Arc<dyn EventMetrics>,
    /// The limit on each caller's writes; `None`: no limit.
    pub(crate) write_limit: Option<Arc<WriteLimit>>,
    /// The upstream is the built-in demo, not a Pulp: every page says so.
    pub(crate) demo: bool,
    /// Each feature's own part (see [`super::parts`]): reached through [`AppState::part`]
    /// and [`AppState::given`], or the accessor the feature's room defines.
    parts: Parts,
    /// Signing in with an OpenID Connect provider (`[identity] mode = "oidc"`); `None`:
    /// another identity scheme.
    pub(crate) sign_in: Option<crate::app::sign_in::SignIn>,
    /// The edge Pulps that copy production, and what was last seen of them; `None`: none.
    pub(crate) edges: Option<crate::app::edges::Edges>,
    /// Where the edges' events go (given with the webhooks); `None`: nowhere.
    pub(crate) edge_news: Option<Arc<dyn crate::app::edges::EdgeNews>>,
}

impl AppState {
    /// Starts a state from the ports; production names and the page size are optional.
    pub fn builder(
        manager: Arc<dyn RepositoryManager>,
        content: Arc<dyn ContentCatalog>,
        audit: Arc<dyn AuditSink>,
        clock: Arc<dyn Clock>,
        identity: Arc<dyn OperatorIdentity>,
    ) -> AppStateBuilder {
        AppStateBuilder(Self {
            reads: manager.clone(),
            manager,
            audit,
            clock,
            identity,
            environments: Arc::new(EnvironmentPath::production_only(HashMap::new())),
            policy: Arc::default(),
            tokens: Arc::default(),
            releases: Arc::default(),
            replica_lock: None,
            page_size: DEFAULT_PAGE_SIZE,
            content,
            diff_store: None,
            requests: None,
            request_ttl: chrono::Duration::hours(24),
            schedules: None,
            claim_lapse: chrono::Duration::minutes(10),
            replica: replica_name().into(),
            checks: None,
            api_callers: None,
            metrics: Arc::new(NotMeasured),
            write_limit: None,
            demo: false,
            parts: Parts::default(),
            sign_in: None,
            edges: None,
            edge_news: None,
        })
    }

    /// The environments, first to last.
    pub fn environments(&self) -> &EnvironmentPath {
        &self.environments
    }

    /// Who may deploy where, and synchronize.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The releases, by name.
    pub fn releases(&self) -> &Releases {
        &self.releases
    }

    /// The feature's part of type `T`, made from its `Default` on first use and shared by
    /// every clone of this state.
    pub fn part<T: StatePart + Default>(&self) -> Arc<T> {
        self.parts.get_or_default()
    }

    /// The feature's part of type `T` that the composition root gave, if it gave one.
    pub fn given<T: StatePart>(&self) -> Option<Arc<T>> {
        self.parts.get()
    }

    /// Who calls the JSON API, when anyone may.
    pub fn api_callers(&self) -> Option<&Arc<dyn OperatorIdentity>> {
        self.api_callers.as_ref()
    }

    /// Signing in with an OpenID Connect provider, when that is the identity scheme.
    pub fn signing_in(&self) -> Option<&crate::app::sign_in::SignIn> {
        self.sign_in.as_ref()
    }

    /// Where what the console measures is reported, and read back for `/metrics`.
    pub fn metrics(&self) -> &dyn EventMetrics {
        self.metrics.as_ref()
    }

    /// The limit on each caller's writes, when there is one.
    pub fn write_limit(&self) -> Option<&WriteLimit> {
        self.write_limit.as_deref()
    }

    /// The upstream is the built-in demo.
    pub fn serves_demo(&self) -> bool {
        self.demo
    }

    /// The edge Pulps, when the console follows any.
    pub fn edges(&self) -> Option<&crate::app::edges::Edges> {
        self.edges.as_ref()
    }

    /// What the edges' use cases need of this state.
    pub fn edge_world(&self) -> crate::app::edges::EdgeWorld {
        crate::app::edges::EdgeWorld {
            edges: self.edges.clone(),
            clock: self.clock.clone(),
            replica_lock: self.replica_lock.clone(),
            metrics: self.metrics.clone(),
            reads: self.reads.clone(),
            environments: self.environments.clone(),
            policy: self.policy.clone(),
            news: self.edge_news.clone(),
        }
    }

    /// A builder holding this state's parts, to change one of them (tests do).
    pub fn rebuild(&self) -> AppStateBuilder {
        AppStateBuilder(Self {
            parts: self.parts.for_rebuild(),
            ..self.clone()
        })
    }
}

/// Builds an [`AppState`].
pub struct AppStateBuilder(AppState);

impl AppStateBuilder {
    /// One environment, production, with the distribution of each named repository (a
    /// console configured without environments).
    pub fn production(mut self, production: HashMap<String, String>) -> Self {
        self.0.environments = Arc::new(EnvironmentPath::production_only(production));
        self
    }

    /// The upstream is the built-in demo, not a Pulp (every page then says so).
    pub fn demo(mut self, demo: bool) -> Self {
        self.0.demo = demo;
        self
    }

    /// The clock the console reads (a fixed one in tests).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.0.clock = clock;
        self
    }

    /// The edge Pulps that copy the central one (`[[edges]]`).
    pub fn edges(mut self, edges: crate::app::edges::Edges) -> Self {
        self.0.edges = Some(edges);
        self
    }

    /// Where the edges' events go (the events' room gives it with the webhooks).
    pub fn edge_news(mut self, news: Arc<dyn crate::app::edges::EdgeNews>) -> Self {
        self.0.edge_news = Some(news);
        self
    }

    /// Who may deploy where, and synchronize.
    pub fn policy(mut self, policy: Policy) -> Self {
        self.0.policy = Arc::new(policy);
        self
    }

    /// The API tokens configured now (see [`AppState::tokens`]).
    pub fn tokens(mut self, tokens: TokenRoster) -> Self {
        self.0.tokens = Arc::new(tokens);
        self
    }

    /// The repositories promoted together.
    pub fn releases(mut self, releases: Releases) -> Self {
        self.0.releases = Arc::new(releases);
        self
    }

    /// The environments versions go through.
    pub fn environments(mut self, path: EnvironmentPath) -> Self {
        self.0.environments = Arc::new(path);
        self
    }

    /// Repositories per dashboard page (at least 1).
    pub fn page_size(mut self, page_size: u64) -> Self {
        self.0.page_size = page_size.max(1);
        self
    }

    /// The upstream for everything (pages read it directly).
    pub fn manager(mut self, manager: Arc<dyn RepositoryManager>) -> Self {
        self.0.reads = manager.clone();
        self.0.manager = manager;
        self
    }

    /// What pages read through (e.g. a decorator of the manager sharing concurrent reads).
    /// Deploys and syncs always use the manager itself.
    pub fn page_reads(mut self, reads: Arc<dyn RepositoryManager>) -> Self {
        self.0.reads = reads;
        self
    }

    /// Who calls the JSON API (see `adapters::identity_bearer`).
    pub fn api_callers(mut self, callers: Arc<dyn OperatorIdentity>) -> Self {
        self.0.api_callers = Some(callers);
        self
    }

    pub fn identity(mut self, identity: Arc<dyn OperatorIdentity>) -> Self {
        self.0.identity = identity;
        self
    }

    /// Deploys take a turn from `lock` too, shared with the other replicas.
    pub fn replica_lock(mut self, lock: Arc<dyn DeployLock>) -> Self {
        self.0.replica_lock = Some(lock);
        self
    }

    /// Computed diffs are kept in `store` too, and read back from it (by this process after
    /// a restart, or by the other replicas).
    pub fn diff_store(mut self, store: Arc<dyn DiffStore>) -> Self {
        self.0.diff_store = Some(store);
        self
    }

    /// Operators sign in with an OpenID Connect provider.
    pub fn sign_in(mut self, sign_in: crate::app::sign_in::SignIn) -> Self {
        self.0.sign_in = Some(sign_in);
        self
    }

    /// Approval requests are kept in `store`, for `ttl` each.
    pub fn requests(mut self, store: Arc<dyn RequestStore>, ttl: chrono::Duration) -> Self {
        self.0.requests = Some(store);
        self.0.request_ttl = ttl;
        self
    }

    /// Scheduled deploys are kept in `store`; a replica's claim on a due one lasts `lapse`.
    pub fn schedules(mut self, store: Arc<dyn ScheduleStore>, lapse: chrono::Duration) -> Self {
        self.0.schedules = Some(store);
        self.0.claim_lapse = lapse;
        self
    }

    /// This process's name in its claims on schedules (tests name their replicas).
    pub fn replica(mut self, name: &str) -> Self {
        self.0.replica = name.into();
        self
    }

    /// Check reports (and promotion claims) are kept in `store`.
    pub fn checks(mut self, store: Arc<dyn CheckStore>) -> Self {
        self.0.checks = Some(store);
        self
    }

    /// What the console measures is reported to `metrics` (and `/metrics` reads it there).
    pub fn metrics(mut self, metrics: Arc<dyn EventMetrics>) -> Self {
        self.0.metrics = metrics;
        self
    }

    pub fn audit(mut self, audit: Arc<dyn AuditSink>) -> Self {
        self.0.audit = audit;
        self
    }

    /// Each caller may write at most `per_minute` times a minute (read on this state's clock:
    /// set the clock first).
    pub fn write_limit(mut self, per_minute: NonZeroU32) -> Self {
        self.0.write_limit = Some(Arc::new(WriteLimit::new(per_minute, self.0.clock.clone())));
        self
    }

    /// Gives the state a feature's configured part (its store, its queue, its limit),
    /// replacing one of its type.
    pub fn part<T: StatePart>(self, part: T) -> Self {
        self.0.parts.set(part);
        self
    }

    /// The clock set so far (a feature's part that reads it is made with it).
    pub fn clock_so_far(&self) -> Arc<dyn Clock> {
        self.0.clock.clone()
    }

    pub fn build(self) -> AppState {
        self.0
    }
}

/// The metrics of a state built without any (tests, benchmarks, tools): nothing is counted,
/// and `/metrics` answers an empty text.
struct NotMeasured;

impl EventMetrics for NotMeasured {
    fn deploy_ended(
        &self,
        _: crate::ports::DeployEnd,
        _: crate::ports::DeployAsked,
        _: Option<&crate::domain::environment::EnvironmentName>,
        _: Option<std::time::Duration>,
    ) {
    }
    fn drift_checked(&self, _: &[crate::ports::DriftReading], _: bool) {}
    fn delivery(&self, _: crate::ports::AttemptEnd) {}
    fn http_answered(&self, _: &str, _: u16) {}
    fn upstream_request(&self, _: String, _: Option<u16>, _: std::time::Duration) {}
    fn cve_index(&self, _: usize, _: usize, _: i64) {}
    fn render(&self) -> String {
        String::new()
    }
    fn content_type(&self) -> &'static str {
        "text/plain; charset=utf-8"
    }
}

/// A name for this process's claims: its host, its process id and a random part (two
/// consoles on one host, or one restarted, are told apart).
fn replica_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_default();
    let random = uuid::Uuid::new_v4().simple().to_string();
    format!("{host}:{}:{}", std::process::id(), &random[..8])
}
