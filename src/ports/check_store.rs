//! The check store port: where the checks pipelines report are kept (every report, the latest
//! of each check counting), and the claims that make each automatic promotion once, across
//! replicas. It lives where approval requests live (a file beside the audit file, or the same
//! database).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::check::{CheckReport, PromotionKey};
use crate::domain::repository::RepoId;

/// Why the store did not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the checks could not be read or written ({target}): {reason}")]
pub struct CheckStoreError {
    pub target: String,
    pub reason: String,
}

#[async_trait]
pub trait CheckStore: Send + Sync {
    /// Keeps `report` durably (when it returns `Ok`). Every report is kept (it is the checks'
    /// audit); a later one of the same check replaces the earlier in [`Self::latest`].
    async fn record(&self, report: &CheckReport) -> Result<(), CheckStoreError>;

    /// The latest report of each check of repository `repo` (of `version` only, when given),
    /// in key order.
    async fn latest(
        &self,
        repo: &RepoId,
        version: Option<u64>,
    ) -> Result<Vec<CheckReport>, CheckStoreError>;

    /// Every report made at or after `from` and before `to`, as kept (a report a pruning
    /// removed is not among them), in the order they were made: the insights' check pass
    /// rate. One read whatever the number of repositories.
    async fn reported_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<CheckReport>, CheckStoreError>;

    /// Claims promotion `key`: `true` for the first caller (of every process sharing the
    /// store), `false` while it stays claimed. Durable when it returns.
    async fn claim_promotion(&self, key: &PromotionKey) -> Result<bool, CheckStoreError>;

    /// Gives claim `key` back: the promotion was refused before anything changed, so a later
    /// report may try it again.
    async fn release_promotion(&self, key: &PromotionKey) -> Result<(), CheckStoreError>;

    /// Removes the reports [`crate::domain::check::retention::prunable`] names when the
    /// retention keeps what was reported at or after `kept_from` (superseded and older; the
    /// latest of each check and every claim stay). Answers how many went. Durable when it
    /// returns `Ok`.
    async fn prune(&self, kept_from: DateTime<Utc>) -> Result<usize, CheckStoreError>;

    /// Where the checks are kept, in words (a path, a database), for messages.
    fn target(&self) -> String;
}
