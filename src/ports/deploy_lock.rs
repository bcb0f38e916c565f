//! The cross-replica deploy lock port: one deploy at a time per production distribution
//! across every replica of the console. (Within one process, deploys of a repository are
//! already serialized by the app's in-process lock.)

use async_trait::async_trait;

use crate::domain::repository::DistributionHref;

/// A held turn: released when dropped, on every path (and by the lock's holder going away,
/// e.g. a replica killed mid-deploy).
pub struct DeployTurn(#[allow(dead_code)] Box<dyn Send + Sync>);

impl DeployTurn {
    /// A turn whose release is dropping `held`.
    pub fn new(held: impl Send + Sync + 'static) -> Self {
        Self(Box::new(held))
    }
}

/// Why a turn could not be taken: the deploy does not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the deploy lock could not be taken ({target}): {reason}")]
pub struct LockError {
    pub target: String,
    pub reason: String,
}

#[async_trait]
pub trait DeployLock: Send + Sync {
    /// Waits until no other replica deploys to `distribution`, and holds the turn.
    async fn acquire(&self, distribution: &DistributionHref) -> Result<DeployTurn, LockError>;
}
