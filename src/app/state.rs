//! What every use case and handler shares: the ports, behind trait objects.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ports::{AuditSink, Clock, ContentCatalog, OperatorIdentity, RepositoryManager};

use super::deploy_lock::DeployLocks;
use super::diff_cache::DiffCache;

/// The console's dependencies. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub manager: Arc<dyn RepositoryManager>,
    pub audit: Arc<dyn AuditSink>,
    pub clock: Arc<dyn Clock>,
    pub identity: Arc<dyn OperatorIdentity>,
    /// Production distribution per repository name (the `[production]` table).
    pub production: Arc<HashMap<String, String>>,
    pub deploy_locks: DeployLocks,
    /// Repositories per dashboard page.
    pub page_size: u64,
    /// What versions contain (packages, advisories), for diffs.
    pub content: Arc<dyn ContentCatalog>,
    /// Diffs already computed (versions are immutable).
    pub diffs: DiffCache,
}
