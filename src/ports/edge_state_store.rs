//! The edge state store port: what the console knows of the edges that must outlive a restart
//! and be shared by the replicas. Per distribution the edges copy, the digest production
//! serves, since when, and those it served before (without them, an edge that serves an older
//! digest after a restart would read `other` instead of `behind`); per edge and distribution,
//! its state, the digest it serves and since when; per edge, its last replication (task and
//! error) and when it is tried again.
//!
//! Kept where the requests are (a file beside the audit file, the database the replicas
//! share, or memory for `audit.sink = "stdout"`). Each record is kept under its key, the last
//! written wins; a cell is written by [`EdgeStateStore::swap_cell`], which answers the cell
//! it replaced in one step, so that of two replicas judging the same change, one sees it as a
//! change (and tells it once).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::edge::{EdgeName, EdgeState, MetadataDigest, Replication};
use crate::domain::environment::EnvironmentName;

/// A distribution the edges copy, as the central Pulp serves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMark {
    pub distribution: String,
    pub environment: EnvironmentName,
    pub base_path: String,
    /// The digest production serves, when read.
    pub central: Option<MetadataDigest>,
    /// When the console last moved it (production served `central` since then).
    pub moved_at: Option<DateTime<Utc>>,
    /// The digests production served before, oldest first.
    pub earlier: Vec<MetadataDigest>,
}

/// One edge's state for one distribution, as last judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCell {
    pub edge: EdgeName,
    pub distribution: String,
    pub state: EdgeState,
    /// The digest its content app served at that judgement, when it served one.
    pub served: Option<MetadataDigest>,
    /// Since when it serves `served` (the first judgement that read it).
    pub served_since: Option<DateTime<Utc>>,
    pub judged_at: DateTime<Utc>,
}

/// One edge's follow-up: its last replication and when it is tried again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRun {
    pub edge: EdgeName,
    /// The last replication the console started (its task, and Pulp's error when it failed).
    pub last: Option<Replication>,
    /// When the edge is tried again, if it did not catch up.
    pub next_retry: Option<DateTime<Utc>>,
}

/// Everything kept, each record once (the last written under its key).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EdgeRecords {
    pub marks: Vec<StoredMark>,
    pub cells: Vec<StoredCell>,
    pub runs: Vec<StoredRun>,
}

/// Why the store could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the edge state store ({target}) failed: {reason}")]
pub struct EdgeStoreError {
    pub target: String,
    pub reason: String,
}

#[async_trait]
pub trait EdgeStateStore: Send + Sync {
    /// Everything kept, marks by distribution, cells by edge then distribution, runs by edge.
    /// A record that cannot be read is left out (and logged): it never stands for another
    /// state.
    async fn load(&self) -> Result<EdgeRecords, EdgeStoreError>;

    /// Keeps `mark` under its distribution.
    async fn put_mark(&self, mark: &StoredMark) -> Result<(), EdgeStoreError>;

    /// Keeps `cell` under its edge and distribution, and answers the cell it replaced, in one
    /// step shared with the other replicas.
    async fn swap_cell(&self, cell: &StoredCell) -> Result<Option<StoredCell>, EdgeStoreError>;

    /// Keeps `run` under its edge.
    async fn put_run(&self, run: &StoredRun) -> Result<(), EdgeStoreError>;

    /// Where it is kept, in words, for logs.
    fn target(&self) -> String;
}
