//! Deploys of one repository run one at a time within the process.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

use crate::domain::RepoId;

/// One lock per repository, created on first use.
#[derive(Clone, Default)]
pub struct DeployLocks(Arc<Mutex<HashMap<RepoId, Arc<AsyncMutex<()>>>>>);

impl DeployLocks {
    /// Waits until no other deploy of `repo` runs in this process, and holds the turn.
    pub async fn acquire(&self, repo: &RepoId) -> OwnedMutexGuard<()> {
        let lock = {
            let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
            map.entry(repo.clone()).or_default().clone()
        };
        lock.lock_owned().await
    }
}
