//! Deploys to one environment of a repository (one distribution) run one at a time within
//! the process. A lock exists only while
//! a deploy holds it or waits for it: the map does not grow with every repository ever seen.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

use crate::app::parts::StatePart;
use crate::app::state::AppState;
use crate::domain::environment::EnvironmentName;
use crate::domain::repository::RepoId;

/// One environment of one repository: what a deploy changes.
type Key = (RepoId, EnvironmentName);

/// Each repository's lock, with how many deploys hold or wait for it.
type LockMap = HashMap<Key, (Arc<AsyncMutex<()>>, usize)>;
type Locks = Arc<Mutex<LockMap>>;

/// One lock per repository with a deploy running or waiting.
#[derive(Default, Clone)]
pub struct DeployLocks(Locks);

impl DeployLocks {
    /// Waits until no other deploy to `environment` of `repo` runs in this process, and
    /// holds the turn.
    pub async fn acquire(&self, repo: &RepoId, environment: &EnvironmentName) -> DeployTurn {
        let claim = Claim::new(&self.0, (repo.clone(), environment.clone()));
        let guard = claim.lock.clone().lock_owned().await;
        DeployTurn {
            _guard: guard,
            _claim: claim,
        }
    }

    /// How many repositories have a lock now (a deploy running or waiting).
    pub fn len(&self) -> usize {
        lock_map(&self.0).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn lock_map(locks: &Locks) -> MutexGuard<'_, LockMap> {
    locks.lock().unwrap_or_else(|p| p.into_inner())
}

/// The turn of one deploy; the next deploy of the repository starts when it is dropped.
pub struct DeployTurn {
    // Fields drop in order: the lock is released before the claim is given up.
    _guard: OwnedMutexGuard<()>,
    _claim: Claim,
}

/// An interest in one repository's lock (holding or waiting); the last one removes it.
struct Claim {
    locks: Locks,
    repo: Key,
    lock: Arc<AsyncMutex<()>>,
}

impl Claim {
    fn new(locks: &Locks, repo: Key) -> Self {
        let mut map = lock_map(locks);
        let (lock, claims) = map.entry(repo.clone()).or_default();
        *claims += 1;
        Self {
            locks: locks.clone(),
            repo,
            lock: lock.clone(),
        }
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut map = lock_map(&self.locks);
        if let Some((_, claims)) = map.get_mut(&self.repo) {
            *claims -= 1;
            if *claims == 0 {
                map.remove(&self.repo);
            }
        }
    }
}

/// The state's lock table: a rebuilt state starts its own.
impl StatePart for DeployLocks {
    const ANEW_ON_REBUILD: bool = true;
}

impl AppState {
    /// The in-process turns deploys take, per repository and environment.
    pub(crate) fn deploy_locks(&self) -> Arc<DeployLocks> {
        self.part()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn prod() -> EnvironmentName {
        EnvironmentName::production()
    }

    fn repo(n: u8) -> RepoId {
        RepoId::parse(&format!("0190b6a2-0000-7000-8000-0000000000{n:02x}")).unwrap()
    }

    #[tokio::test]
    async fn locks_go_when_no_deploy_holds_or_waits_for_them() {
        let locks = DeployLocks::default();
        for n in 0..50 {
            drop(locks.acquire(&repo(n), &prod()).await);
        }
        assert!(locks.is_empty());
        let first = locks.acquire(&repo(1), &prod()).await;
        let waiting = {
            let locks = locks.clone();
            tokio::spawn(async move { locks.acquire(&repo(1), &prod()).await })
        };
        let cancelled = {
            let locks = locks.clone();
            tokio::spawn(async move { locks.acquire(&repo(1), &prod()).await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        cancelled.abort();
        let _ = cancelled.await;
        assert_eq!(locks.len(), 1);
        drop(first);
        let second = waiting.await.unwrap();
        assert_eq!(locks.len(), 1, "still held by the second deploy");
        drop(second);
        assert!(locks.is_empty());
    }

    #[tokio::test]
    async fn a_second_deploy_of_a_repository_waits_for_the_first() {
        let locks = DeployLocks::default();
        let first = locks.acquire(&repo(1), &prod()).await;
        let other =
            tokio::time::timeout(Duration::from_millis(50), locks.acquire(&repo(2), &prod())).await;
        assert!(other.is_ok(), "another repository does not wait");
        let staging = EnvironmentName::parse("staging").unwrap();
        let other_env =
            tokio::time::timeout(Duration::from_millis(50), locks.acquire(&repo(1), &staging))
                .await;
        assert!(other_env.is_ok(), "another environment of it does not wait");
        let same =
            tokio::time::timeout(Duration::from_millis(50), locks.acquire(&repo(1), &prod())).await;
        assert!(same.is_err(), "the same repository waits");
        drop(first);
        let same =
            tokio::time::timeout(Duration::from_millis(50), locks.acquire(&repo(1), &prod())).await;
        assert!(same.is_ok());
    }
}
