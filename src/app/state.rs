//! What every use case and handler shares: the ports, behind trait objects. Built in one
//! place, [`AppState::builder`], by the composition root and by tests alike.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ports::{AuditSink, Clock, DeployLock, OperatorIdentity, RepositoryManager};

use super::deploy_lock::DeployLocks;

/// Repositories per dashboard page unless configured otherwise.
const DEFAULT_PAGE_SIZE: u64 = 25;

/// The console's dependencies. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub(crate) manager: Arc<dyn RepositoryManager>,
    pub(crate) audit: Arc<dyn AuditSink>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) identity: Arc<dyn OperatorIdentity>,
    /// Production distribution per repository name (the `[production]` table).
    pub(crate) production: Arc<HashMap<String, String>>,
    pub(crate) deploy_locks: DeployLocks,
    /// The lock shared with the other replicas, when the console runs as several (PostgreSQL);
    /// `None` when it runs alone (the in-process lock is enough).
    pub(crate) replica_lock: Option<Arc<dyn DeployLock>>,
    /// Repositories per dashboard page.
    pub(crate) page_size: u64,
}

impl AppState {
    /// Starts a state from the four ports; production names and the page size are optional.
    pub fn builder(
        manager: Arc<dyn RepositoryManager>,
        audit: Arc<dyn AuditSink>,
        clock: Arc<dyn Clock>,
        identity: Arc<dyn OperatorIdentity>,
    ) -> AppStateBuilder {
        AppStateBuilder(Self {
            manager,
            audit,
            clock,
            identity,
            production: Arc::new(HashMap::new()),
            deploy_locks: DeployLocks::default(),
            replica_lock: None,
            page_size: DEFAULT_PAGE_SIZE,
        })
    }

    /// A builder holding this state's parts, to change one of them (tests do).
    pub fn rebuild(&self) -> AppStateBuilder {
        AppStateBuilder(Self {
            deploy_locks: DeployLocks::default(),
            ..self.clone()
        })
    }
}

/// Builds an [`AppState`].
pub struct AppStateBuilder(AppState);

impl AppStateBuilder {
    /// The production distribution of each named repository.
    pub fn production(mut self, production: HashMap<String, String>) -> Self {
        self.0.production = Arc::new(production);
        self
    }

    /// Repositories per dashboard page (at least 1).
    pub fn page_size(mut self, page_size: u64) -> Self {
        self.0.page_size = page_size.max(1);
        self
    }

    pub fn manager(mut self, manager: Arc<dyn RepositoryManager>) -> Self {
        self.0.manager = manager;
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

    pub fn audit(mut self, audit: Arc<dyn AuditSink>) -> Self {
        self.0.audit = audit;
        self
    }

    pub fn build(self) -> AppState {
        self.0
    }
}
