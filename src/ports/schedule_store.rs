//! The schedule store port: where scheduled deploys are kept, so that they survive a restart
//! and every replica sees the same ones and claims each at most once at a time. It lives
//! where the audit log and the requests live (a file beside them, or the same database).

use async_trait::async_trait;

use crate::domain::ids::ScheduleId;
use crate::domain::repository::RepoId;
use crate::domain::schedule::record::UnreadableSchedule;
use crate::domain::schedule::Schedule;

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
    /// The schedule's last record cannot be read: it is not run and cannot be changed until
    /// an operator mends or removes the record.
    #[error("{0}: it is not run; mend or remove that record (see the file formats reference)")]
    Unreadable(UnreadableSchedule),
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

    /// The schedule as kept now; `None` when there is no such schedule;
    /// [`ScheduleStoreError::Unreadable`] when its last record cannot be read.
    async fn get(&self, id: &ScheduleId) -> Result<Option<Schedule>, ScheduleStoreError>;

    /// Every schedule still waiting or running, soonest first; never one whose last record
    /// cannot be read (see [`Self::unreadable`]).
    async fn open(&self) -> Result<Vec<Schedule>, ScheduleStoreError>;

    /// The newest schedules (of `repo` only, when given), newest made first, at most `limit`.
    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<Schedule>, ScheduleStoreError>;

    /// The schedules whose last record cannot be read (never run, never listed by
    /// [`Self::recent`]), and records too damaged to tell their schedule, in the order kept.
    async fn unreadable(&self) -> Result<Vec<UnreadableSchedule>, ScheduleStoreError>;

    /// Removes those of schedules `ids` that ended (done, failed, cancelled or refused, as
    /// kept now: retention); an open or unreadable one is kept. Answers how many were
    /// removed. Durable when it returns `Ok`.
    async fn remove_ended(&self, ids: &[ScheduleId]) -> Result<usize, ScheduleStoreError>;

    /// Where the schedules are kept, in words (a path, a database), for messages.
    fn target(&self) -> String;
}
