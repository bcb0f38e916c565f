//! The diff store port: computed diffs kept beyond the process (a directory, a database
//! shared by the replicas). Repository versions never change, so a diff stored once is
//! right for ever: a store is a cache that never needs invalidating, only bounding.

use async_trait::async_trait;

use crate::domain::diff::{DiffKey, VersionDiff};

/// Why the store could not be read or written. A diff can always be computed again, so the
/// application logs this and carries on: it never fails a page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the diff store could not be used ({target}): {reason}")]
pub struct DiffStoreError {
    /// Where the store keeps diffs (a directory, a database).
    pub target: String,
    pub reason: String,
}

#[async_trait]
pub trait DiffStore: Send + Sync {
    /// The diff stored under `key`, or `None` when none is (never stored, evicted by the
    /// store's bound, or unreadable: a store that finds a damaged entry logs it and answers
    /// `None`).
    async fn get(&self, key: &DiffKey) -> Result<Option<VersionDiff>, DiffStoreError>;

    /// Stores `diff` under `key`. A key already stored is left as it is (the diff of two
    /// versions is always the same). A reader never sees a partly written diff. The store
    /// may forget its oldest diffs to stay within its bound.
    async fn put(&self, key: &DiffKey, diff: &VersionDiff) -> Result<(), DiffStoreError>;

    /// Where the diffs are kept, in words (a directory, `postgres://host:port/db`), for logs.
    fn target(&self) -> String;
}
