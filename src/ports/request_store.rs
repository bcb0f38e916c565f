//! The request store port: where approval requests and what happened to them are kept, so
//! that they survive a restart and every replica sees and acts on the same ones. It lives
//! where the audit log lives (a file beside it, or the same database).

use async_trait::async_trait;

use crate::domain::approval::{ApprovalRequest, RequestEvent, RequestLog};
use crate::domain::ids::{RequestId, UnreadableRequest};
use crate::domain::repository::RepoId;

/// Why the store did not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestStoreError {
    /// Someone else appended to the request first (it holds more events than the caller
    /// saw): read it again and decide again.
    #[error("the request changed meanwhile (someone else acted on it at the same time)")]
    Conflict,
    #[error("the requests could not be read or written ({target}): {reason}")]
    Unavailable { target: String, reason: String },
    /// A record of the request cannot be read: it is not acted on or run until an operator
    /// mends or removes the record.
    #[error(
        "{0}: it is not acted on; mend or remove that record (see the file formats reference)"
    )]
    Unreadable(UnreadableRequest),
}

#[async_trait]
pub trait RequestStore: Send + Sync {
    /// Keeps a new request durably (its id is new).
    async fn create(&self, request: &ApprovalRequest) -> Result<(), RequestStoreError>;

    /// Appends `event` to request `id` if it holds exactly `seen` events now (compare and
    /// swap: of two callers that saw the same events, one succeeds and the other gets
    /// [`RequestStoreError::Conflict`]). Durable when it returns `Ok`.
    async fn append(
        &self,
        id: &RequestId,
        seen: usize,
        event: &RequestEvent,
    ) -> Result<(), RequestStoreError>;

    /// The request and its events in order; `None` when there is no such request;
    /// [`RequestStoreError::Unreadable`] when one of its records cannot be read.
    async fn get(&self, id: &RequestId) -> Result<Option<RequestLog>, RequestStoreError>;

    /// The newest requests (of `repo` only, when given), newest first, at most `limit`; never
    /// one with a record that cannot be read (see [`Self::unreadable`]).
    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<RequestLog>, RequestStoreError>;

    /// Removes requests `ids` with their events (retention: closed requests no one needs);
    /// answers how many were removed. A request written meanwhile is kept. Durable when it
    /// returns `Ok`.
    async fn remove(&self, ids: &[RequestId]) -> Result<usize, RequestStoreError>;

    /// The requests with a record that cannot be read, and records too damaged to tell their
    /// request, in the order kept.
    async fn unreadable(&self) -> Result<Vec<UnreadableRequest>, RequestStoreError>;

    /// Where the requests are kept, in words (a path, a database), for messages.
    fn target(&self) -> String;
}
