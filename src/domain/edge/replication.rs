//! An edge's replication: the task group Pulp starts when asked to replicate
//! (`upstream-pulps/<id>/replicate/`), and how it ended.

use chrono::{DateTime, Utc};

/// The reference of the replication an edge started (Pulp's task group href), as the edge's
/// Pulp names it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct ReplicationTask(String);

impl ReplicationTask {
    pub fn new(reference: impl Into<String>) -> Self {
        Self(reference.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Where a replication is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplicationEnd {
    /// Some of its tasks still wait or run.
    Running,
    /// Every task ended well.
    Completed,
    /// A task failed or was cancelled: the edge's own words.
    Failed(String),
}

/// An edge's last replication, as the console started and followed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replication {
    pub task: ReplicationTask,
    pub started_at: DateTime<Utc>,
    pub end: ReplicationEnd,
}
