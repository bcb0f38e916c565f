//! Upstream's record of a change of a distribution: who, when, through which task.

use chrono::{DateTime, Utc};

use super::href::TaskHref;

/// How upstream's work on a change ended (or that it has not yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeState {
    Completed,
    Failed,
    Canceled,
    /// Waiting or running.
    Unfinished,
}

/// One change of a distribution as upstream recorded it (a Pulp task that reserved it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistributionChange {
    /// When upstream received the request.
    pub at: DateTime<Utc>,
    /// The upstream user who asked for it.
    pub by: String,
    pub task: TaskHref,
    /// The correlation the request carried: the console's deploy id for its own changes.
    pub correlation: Option<String>,
    pub state: ChangeState,
}
