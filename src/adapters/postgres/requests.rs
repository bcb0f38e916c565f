//! `PgRequestStore`: approval requests as rows of `deploy_requests`, their events as rows of
//! `deploy_request_events` keyed by (request, seq), so that every replica sees and acts on
//! the same requests. An event after `seen` others is inserted at seq `seen + 1` only when
//! seq `seen` is there (seqs are dense from 1): of two replicas that saw the same events, the
//! primary key lets exactly one in, and the other gets `Conflict`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use sqlx::Row;

use crate::domain::{ApprovalRequest, RepoId, RequestEvent, RequestId, RequestLog};
use crate::ports::{RequestStore, RequestStoreError};

use super::Database;

pub struct PgRequestStore {
    db: Database,
}

const CREATE: &str = "INSERT INTO deploy_requests (id, repository_uuid, created_at, request) \
    VALUES ($1, $2, $3, $4)";

/// Inserts seq `$2` only after seq `$2 - 1` (the first event after the request alone).
const APPEND: &str = "INSERT INTO deploy_request_events (request_id, seq, recorded_at, event) \
    SELECT $1, $2, $3, $4 WHERE $2 = 1 OR EXISTS ( \
        SELECT 1 FROM deploy_request_events WHERE request_id = $1 AND seq = $2 - 1)";

const EXISTS: &str = "SELECT EXISTS (SELECT 1 FROM deploy_requests WHERE id = $1)";

/// One request and its events in order, in one statement (one snapshot).
const GET: &str = "SELECT r.request, e.event FROM deploy_requests r \
    LEFT JOIN deploy_request_events e ON e.request_id = r.id \
    WHERE r.id = $1 ORDER BY e.seq";

/// The newest requests (of one repository when `$1` is not null) and their events, newest
/// first, in one statement.
const RECENT: &str = "WITH chosen AS ( \
        SELECT id, created_at, request FROM deploy_requests \
        WHERE $1::text IS NULL OR repository_uuid = $1 \
        ORDER BY created_at DESC, id DESC LIMIT $2) \
    SELECT c.id, c.request, e.event FROM chosen c \
    LEFT JOIN deploy_request_events e ON e.request_id = c.id \
    ORDER BY c.created_at DESC, c.id DESC, e.seq";

/// PostgreSQL's unique_violation and foreign_key_violation.
const UNIQUE_VIOLATION: &str = "23505";
const FOREIGN_KEY_VIOLATION: &str = "23503";

impl PgRequestStore {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn unavailable(&self, reason: impl ToString) -> RequestStoreError {
        RequestStoreError::Unavailable {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }

    fn no_request(&self, id: &RequestId) -> RequestStoreError {
        self.unavailable(format!("no request {id}"))
    }

    fn decode<T: serde::de::DeserializeOwned>(&self, json: &str) -> Result<T, RequestStoreError> {
        serde_json::from_str(json).map_err(|e| self.unavailable(format!("a stored row: {e}")))
    }
}

/// The database's error code, if it is one.
fn code(error: &sqlx::Error) -> Option<String> {
    match error {
        sqlx::Error::Database(db) => db.code().map(|c| c.into_owned()),
        _ => None,
    }
}

/// When the event happened.
fn at(event: &RequestEvent) -> DateTime<Utc> {
    match event {
        RequestEvent::Approved { at, .. }
        | RequestEvent::Rejected { at, .. }
        | RequestEvent::Cancelled { at, .. }
        | RequestEvent::Stale { at, .. }
        | RequestEvent::Executed { at, .. } => *at,
    }
}

#[async_trait]
impl RequestStore for PgRequestStore {
    async fn create(&self, request: &ApprovalRequest) -> Result<(), RequestStoreError> {
        let json = serde_json::to_string(request).map_err(|e| self.unavailable(e))?;
        let inserted = sqlx::query(CREATE)
            .bind(request.id.as_str())
            .bind(&request.repository_uuid)
            .bind(request.created)
            .bind(json)
            .execute(&self.db.pool)
            .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(e) if code(&e).as_deref() == Some(UNIQUE_VIOLATION) => {
                Err(RequestStoreError::Conflict)
            }
            Err(e) => Err(self.unavailable(e)),
        }
    }

    async fn append(
        &self,
        id: &RequestId,
        seen: usize,
        event: &RequestEvent,
    ) -> Result<(), RequestStoreError> {
        let seq = i32::try_from(seen + 1).map_err(|_| self.unavailable("too many events"))?;
        let json = serde_json::to_string(event).map_err(|e| self.unavailable(e))?;
        let inserted = sqlx::query(APPEND)
            .bind(id.as_str())
            .bind(seq)
            .bind(at(event))
            .bind(json)
            .execute(&self.db.pool)
            .await;
        match inserted {
            Ok(done) if done.rows_affected() == 1 => Ok(()),
            // Fewer events than seen: the request changed (or there is none).
            Ok(_) => {
                let exists: bool = sqlx::query_scalar(EXISTS)
                    .bind(id.as_str())
                    .fetch_one(&self.db.pool)
                    .await
                    .map_err(|e| self.unavailable(e))?;
                Err(if exists {
                    RequestStoreError::Conflict
                } else {
                    self.no_request(id)
                })
            }
            Err(e) => match code(&e).as_deref() {
                Some(UNIQUE_VIOLATION) => Err(RequestStoreError::Conflict),
                Some(FOREIGN_KEY_VIOLATION) => Err(self.no_request(id)),
                _ => Err(self.unavailable(e)),
            },
        }
    }

    async fn get(&self, id: &RequestId) -> Result<Option<RequestLog>, RequestStoreError> {
        let rows = sqlx::query(GET)
            .bind(id.as_str())
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let mut log = RequestLog {
            request: self.decode(first.get::<&str, _>("request"))?,
            events: Vec::new(),
        };
        for row in &rows {
            if let Some(event) = row.get::<Option<&str>, _>("event") {
                log.events.push(self.decode(event)?);
            }
        }
        Ok(Some(log))
    }

    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<RequestLog>, RequestStoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = sqlx::query(RECENT)
            .bind(repo.map(RepoId::as_str))
            .bind(limit)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        let mut logs: Vec<RequestLog> = Vec::new();
        let mut current: Option<&str> = None;
        for row in &rows {
            let id: &str = row.get("id");
            if current != Some(id) {
                current = Some(id);
                logs.push(RequestLog {
                    request: self.decode(row.get::<&str, _>("request"))?,
                    events: Vec::new(),
                });
            }
            if let Some(event) = row.get::<Option<&str>, _>("event") {
                let log = logs.last_mut().expect("pushed above");
                log.events.push(self.decode(event)?);
            }
        }
        Ok(logs)
    }

    /// In batches of 500 ids, each one transaction (events first, then the requests).
    async fn remove(&self, ids: &[RequestId]) -> Result<usize, RequestStoreError> {
        let mut removed = 0;
        for batch in ids.chunks(500) {
            let batch: Vec<&str> = batch.iter().map(RequestId::as_str).collect();
            let mut tx = self
                .db
                .pool
                .begin()
                .await
                .map_err(|e| self.unavailable(e))?;
            sqlx::query("DELETE FROM deploy_request_events WHERE request_id = ANY($1)")
                .bind(&batch)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.unavailable(e))?;
            let gone = sqlx::query("DELETE FROM deploy_requests WHERE id = ANY($1)")
                .bind(&batch)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.unavailable(e))?
                .rows_affected();
            tx.commit().await.map_err(|e| self.unavailable(e))?;
            removed += usize::try_from(gone).unwrap_or(usize::MAX);
        }
        Ok(removed)
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}
