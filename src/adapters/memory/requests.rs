//! `MemoryRequestStore`: approval requests kept in the process (tests, and the demo with
//! `audit.sink = "stdout"`, where nothing survives a restart anyway).

use std::sync::Mutex;

use async_trait::async_trait;

use crate::domain::approval::{ApprovalRequest, RequestEvent, RequestLog};
use crate::domain::ids::RequestId;
use crate::domain::repository::RepoId;
use crate::ports::{RequestStore, RequestStoreError};

/// Requests in the order they were made.
#[derive(Default)]
pub struct MemoryRequestStore {
    logs: Mutex<Vec<RequestLog>>,
}

impl MemoryRequestStore {
    fn logs(&self) -> std::sync::MutexGuard<'_, Vec<RequestLog>> {
        self.logs.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[async_trait]
impl RequestStore for MemoryRequestStore {
    async fn create(&self, request: &ApprovalRequest) -> Result<(), RequestStoreError> {
        let mut logs = self.logs();
        if logs.iter().any(|log| log.request.id == request.id) {
            return Err(RequestStoreError::Conflict);
        }
        logs.push(RequestLog {
            request: request.clone(),
            events: Vec::new(),
        });
        Ok(())
    }

    async fn append(
        &self,
        id: &RequestId,
        seen: usize,
        event: &RequestEvent,
    ) -> Result<(), RequestStoreError> {
        let mut logs = self.logs();
        let log = logs
            .iter_mut()
            .find(|log| &log.request.id == id)
            .ok_or_else(|| RequestStoreError::Unavailable {
                target: self.target(),
                reason: format!("no request {id}"),
            })?;
        if log.events.len() != seen {
            return Err(RequestStoreError::Conflict);
        }
        log.events.push(event.clone());
        Ok(())
    }

    async fn get(&self, id: &RequestId) -> Result<Option<RequestLog>, RequestStoreError> {
        Ok(self
            .logs()
            .iter()
            .find(|log| &log.request.id == id)
            .cloned())
    }

    async fn remove(&self, ids: &[RequestId]) -> Result<usize, RequestStoreError> {
        let mut logs = self.logs();
        let before = logs.len();
        logs.retain(|log| !ids.contains(&log.request.id));
        Ok(before - logs.len())
    }

    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<RequestLog>, RequestStoreError> {
        Ok(self
            .logs()
            .iter()
            .rev()
            .filter(|log| repo.is_none_or(|r| log.request.repository_uuid == r.as_str()))
            .take(limit)
            .cloned()
            .collect())
    }

    /// Kept as values, never as records: nothing is unreadable.
    async fn unreadable(
        &self,
    ) -> Result<Vec<crate::domain::ids::UnreadableRequest>, RequestStoreError> {
        Ok(Vec::new())
    }

    fn target(&self) -> String {
        "memory (lost when the console stops)".to_owned()
    }
}
