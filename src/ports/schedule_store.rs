//! The schedule store port: where scheduled deploys are kept, so that they survive a restart
//! and every replica sees the same ones and claims each at most once at a time. It lives
//! where the audit log and the requests live (a file beside them, or the same database).

use async_trait::async_trait;

use crate::domain::{RepoId, Schedule, ScheduleId};

/// Why the store did not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleStoreError {
    /// Someone else changed the schedule first (it is not at the revision the caller read),
    /// or a schedule with that id exists: read it again and decide again.
    #[error("the schedule changed meanwhile (someone else acted on it at the same time)")]
    Conflict,
    #[error("no schedule {0}")]
    Missing(ScheduleId),
    #[error("the schedules could not be read or written ({target}): {reason}")]
    Unavailable { target: String, reason: String },
}

#[async_trait]
pub trait ScheduleStore: Send + Sync {
    /// Keeps a new schedule durably (its id is new: else [`ScheduleStoreError::Conflict`]).
    async fn create(&self, schedule: &Schedule) -> Result<(), ScheduleStoreError>;

    /// Replaces schedule `next.id` with `next` if the one kept is at revision
    /// `next.revision - 1` (compare and swap: of two callers that read the same revision,
    /// one succeeds and the other gets [`ScheduleStoreError::Conflict`]). Durable when it
    /// returns `Ok`.
    async fn replace(&self, next: &Schedule) -> Result<(), ScheduleStoreError>;

    /// The schedule as kept now; `None` when there is no such schedule.
    async fn get(&self, id: &ScheduleId) -> Result<Option<Schedule>, ScheduleStoreError>;

    /// Every schedule still waiting or running, soonest first.
    async fn open(&self) -> Result<Vec<Schedule>, ScheduleStoreError>;

    /// The newest schedules (of `repo` only, when given), newest made first, at most `limit`.
    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<Schedule>, ScheduleStoreError>;

    /// Where the schedules are kept, in words (a path, a database), for messages.
    fn target(&self) -> String;
}
