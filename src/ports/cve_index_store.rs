//! The CVE index store port: the index from CVE to advisories (see
//! [`crate::domain::exposure::cve_index`]) kept beyond the process, where the diffs are (a
//! directory, or the database the replicas share), so that a restart or another replica
//! refreshes it instead of reading every advisory again.

use async_trait::async_trait;

use crate::domain::exposure::CveIndex;

/// Why the index could not be read or written. It can always be built again from Pulp, so
/// the application logs this and carries on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the CVE index could not be used ({target}): {reason}")]
pub struct CveIndexStoreError {
    /// Where the index is kept (a file, a database).
    pub target: String,
    pub reason: String,
}

#[async_trait]
pub trait CveIndexStore: Send + Sync {
    /// The index as last saved; `None` when none was (or it cannot be read: the store logs
    /// a damaged one and answers `None`, so that it is built again).
    async fn load(&self) -> Result<Option<CveIndex>, CveIndexStoreError>;

    /// Saves `index` whole, replacing the one saved before. A reader never sees a partly
    /// written index.
    async fn save(&self, index: &CveIndex) -> Result<(), CveIndexStoreError>;

    /// Where the index is kept, in words, for logs.
    fn target(&self) -> String;
}
