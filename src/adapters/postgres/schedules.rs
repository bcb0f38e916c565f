//! `PgScheduleStore`: scheduled deploys as rows of `deploy_schedules`, so that every replica
//! sees the same schedules. A schedule is replaced only over the revision the writer read
//! (`UPDATE ... WHERE revision = $n - 1`): of two replicas claiming it at once, exactly one
//! updates a row, and the other gets `Conflict`. A row whose JSON cannot be read back is
//! unreadable: never returned as open or recent, refused to `get` (so never replaced), and listed
//! by `unreadable` (the database's `state` column keeps saying what it was).

use async_trait::async_trait;
use sqlx::Row;

use crate::domain::ids::ScheduleId;
use crate::domain::repository::RepoId;
use crate::domain::schedule::record::{self, UnreadableSchedule};
use crate::domain::schedule::Schedule;
use crate::ports::{ScheduleStore, ScheduleStoreError};

use super::Database;

pub struct PgScheduleStore {
    db: Database,
}

const CREATE: &str = "INSERT INTO deploy_schedules \
    (id, repository_uuid, created_at, run_at, state, revision, schedule) \
    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING";

const REPLACE: &str = "UPDATE deploy_schedules SET state = $2, revision = $3, schedule = $4 \
    WHERE id = $1 AND revision = $3 - 1";

const EXISTS: &str = "SELECT EXISTS (SELECT 1 FROM deploy_schedules WHERE id = $1)";

const GET: &str = "SELECT id, schedule FROM deploy_schedules WHERE id = $1";

const OPEN: &str = "SELECT id, schedule FROM deploy_schedules \
    WHERE state IN ('waiting', 'running') ORDER BY run_at, id";

const RECENT: &str = "SELECT id, schedule FROM deploy_schedules \
    WHERE $1::text IS NULL OR repository_uuid = $1 \
    ORDER BY created_at DESC, id DESC LIMIT $2";

/// Every row, to find those that cannot be read (a handful of schedules a month, pruned).
const ALL: &str = "SELECT id, schedule FROM deploy_schedules ORDER BY created_at, id";

const REMOVE_ENDED: &str = "DELETE FROM deploy_schedules \
    WHERE id = ANY($1) AND state IN ('done', 'failed', 'cancelled', 'refused')";

impl PgScheduleStore {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn unavailable(&self, reason: impl ToString) -> ScheduleStoreError {
        ScheduleStoreError::Unavailable {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }

    fn encode(&self, schedule: &Schedule) -> Result<(String, i64), ScheduleStoreError> {
        let json = serde_json::to_string(schedule).map_err(|e| self.unavailable(e))?;
        let revision = i64::try_from(schedule.revision).map_err(|e| self.unavailable(e))?;
        Ok((json, revision))
    }

    /// Each row read back, or why it cannot be.
    fn decode(&self, rows: &[sqlx::postgres::PgRow]) -> Vec<Result<Schedule, UnreadableSchedule>> {
        rows.iter()
            .map(|row| {
                let id: &str = row.get("id");
                record::read(row.get::<&str, _>("schedule").as_bytes()).map_err(|why| {
                    UnreadableSchedule {
                        id: ScheduleId::parse(id),
                        place: format!("row {id} of deploy_schedules in {}", self.db.target),
                        why,
                    }
                })
            })
            .collect()
    }

    /// The rows that can be read; those that cannot are logged and left out.
    fn readable(&self, rows: &[sqlx::postgres::PgRow]) -> Vec<Schedule> {
        self.decode(rows)
            .into_iter()
            .filter_map(|row| {
                row.inspect_err(|unreadable| {
                    tracing::error!(%unreadable, "a schedule's row cannot be read: the schedule is not run until the row is mended or removed");
                })
                .ok()
            })
            .collect()
    }
}

#[async_trait]
impl ScheduleStore for PgScheduleStore {
    async fn create(&self, schedule: &Schedule) -> Result<(), ScheduleStoreError> {
        let (json, revision) = self.encode(schedule)?;
        let inserted = sqlx::query(CREATE)
            .bind(schedule.id.as_str())
            .bind(&schedule.repository_uuid)
            .bind(schedule.created)
            .bind(schedule.at)
            .bind(schedule.state.word())
            .bind(revision)
            .bind(json)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        match inserted.rows_affected() {
            1 => Ok(()),
            _ => Err(ScheduleStoreError::Conflict),
        }
    }

    async fn replace(&self, next: &Schedule) -> Result<(), ScheduleStoreError> {
        let (json, revision) = self.encode(next)?;
        let updated = sqlx::query(REPLACE)
            .bind(next.id.as_str())
            .bind(next.state.word())
            .bind(revision)
            .bind(json)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        if updated.rows_affected() == 1 {
            return Ok(());
        }
        let exists: bool = sqlx::query_scalar(EXISTS)
            .bind(next.id.as_str())
            .fetch_one(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Err(if exists {
            ScheduleStoreError::Conflict
        } else {
            ScheduleStoreError::Missing(next.id.clone())
        })
    }

    async fn get(&self, id: &ScheduleId) -> Result<Option<Schedule>, ScheduleStoreError> {
        let rows = sqlx::query(GET)
            .bind(id.as_str())
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        match self.decode(&rows).pop() {
            None => Ok(None),
            Some(Ok(schedule)) => Ok(Some(schedule)),
            Some(Err(unreadable)) => Err(ScheduleStoreError::Unreadable(unreadable)),
        }
    }

    async fn open(&self) -> Result<Vec<Schedule>, ScheduleStoreError> {
        let rows = sqlx::query(OPEN)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(self.readable(&rows))
    }

    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<Schedule>, ScheduleStoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = sqlx::query(RECENT)
            .bind(repo.map(RepoId::as_str))
            .bind(limit)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(self.readable(&rows))
    }

    async fn unreadable(&self) -> Result<Vec<UnreadableSchedule>, ScheduleStoreError> {
        let rows = sqlx::query(ALL)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(self
            .decode(&rows)
            .into_iter()
            .filter_map(Result::err)
            .collect())
    }

    async fn remove_ended(&self, ids: &[ScheduleId]) -> Result<usize, ScheduleStoreError> {
        let ids: Vec<&str> = ids.iter().map(ScheduleId::as_str).collect();
        let removed = sqlx::query(REMOVE_ENDED)
            .bind(&ids)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(usize::try_from(removed.rows_affected()).unwrap_or(usize::MAX))
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}
