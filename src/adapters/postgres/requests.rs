//! `PgRequestStore`: approval requests as rows of `deploy_requests`, their events as rows of
//! `deploy_request_events` keyed by (request, seq), so that every replica sees and acts on
//! the same requests. An event after `seen` others is inserted at seq `seen + 1` only when
//! seq `seen` is there (seqs are dense from 1): of two replicas that saw the same events, the
//! primary key lets exactly one in, and the other gets `Conflict`.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use sqlx::Row;

use crate::domain::approval::{ApprovalRequest, RequestEvent, RequestLog};
use crate::domain::ids::{RequestId, UnreadableRequest};
use crate::domain::repository::RepoId;
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
const GET: &str = "SELECT r.id, r.request, e.event FROM deploy_requests r \
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

/// Every request and its events, to find those with a row that cannot be read (closed ones
/// are pruned after the retention).
const ALL: &str = "SELECT r.id, r.request, e.event FROM deploy_requests r \
    LEFT JOIN deploy_request_events e ON e.request_id = r.id \
    ORDER BY r.created_at, r.id, e.seq";

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

    /// Each request of `rows` (ordered by request, then event) read back, or why one of its
    /// rows cannot be.
    fn fold(&self, rows: &[sqlx::postgres::PgRow]) -> Vec<Result<RequestLog, UnreadableRequest>> {
        let mut logs: Vec<Result<RequestLog, UnreadableRequest>> = Vec::new();
        let mut current: Option<&str> = None;
        for row in rows {
            let id: &str = row.get("id");
            let unreadable = |table: &str, error: serde_json::Error| UnreadableRequest {
                id: RequestId::parse(id),
                place: format!("a row of {table} ({id}) in {}", self.db.target),
                why: error.to_string(),
            };
            if current != Some(id) {
                current = Some(id);
                let request = row.get::<&str, _>("request");
                logs.push(
                    serde_json::from_str(request)
                        .map(|request| RequestLog {
                            request,
                            events: Vec::new(),
                        })
                        .map_err(|e| unreadable("deploy_requests", e)),
                );
            }
            let (Some(event), Some(Ok(log))) =
                (row.get::<Option<&str>, _>("event"), logs.last_mut())
            else {
                continue;
            };
            match serde_json::from_str(event) {
                Ok(event) => log.events.push(event),
                Err(e) => {
                    *logs.last_mut().expect("pushed above") =
                        Err(unreadable("deploy_request_events", e))
                }
            }
        }
        logs
    }

    /// The requests of `rows` that can be read; the others are logged and left out.
    fn readable(&self, rows: &[sqlx::postgres::PgRow]) -> Vec<RequestLog> {
        self.fold(rows)
            .into_iter()
            .filter_map(|log| {
                log.inspect_err(|unreadable| {
                    tracing::error!(%unreadable, "a request's row cannot be read: the request is not acted on until the row is mended or removed");
                })
                .ok()
            })
            .collect()
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
        match self.fold(&rows).pop() {
            None => Ok(None),
            Some(Ok(log)) => Ok(Some(log)),
            Some(Err(unreadable)) => Err(RequestStoreError::Unreadable(unreadable)),
        }
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
        Ok(self.readable(&rows))
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

    async fn unreadable(&self) -> Result<Vec<UnreadableRequest>, RequestStoreError> {
        let rows = sqlx::query(ALL)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(self
            .fold(&rows)
            .into_iter()
            .filter_map(Result::err)
            .collect())
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}
