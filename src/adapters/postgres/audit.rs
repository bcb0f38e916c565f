//! `PgAuditSink`: audit lines as rows of `deploy_audit`, each written in its own
//! transaction; every replica reads the same history.

use crate::domain::deploy::{AuditOutcome, DeployId, DeployRecord, ProductionChanged};
use crate::domain::ids::ReleaseName;
use crate::domain::release::ReleaseRecord;
use crate::domain::repository::RepoId;
use crate::ports::{AuditError, AuditReadError, AuditSink};
use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::Database;

pub struct PgAuditSink {
    db: Database,
}

const INSERT: &str = "INSERT INTO deploy_audit (deploy_id, recorded_at, operator, repository_uuid, \
    repository_name, previous_version, target_version, distribution, publication, outcome, \
    production_changed, error, line) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";

/// The newest lines of one repository, as the JSON records they were written as (so every
/// field of the record comes back, also those added after the table's columns).
const RECENT: &str =
    "SELECT line FROM deploy_audit WHERE repository_uuid = $1 ORDER BY id DESC LIMIT $2";

impl PgAuditSink {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn read_failed(&self, reason: impl ToString) -> AuditReadError {
        AuditReadError::Failed {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }

    /// The rows' lines, as the records they were written as.
    fn records<T: serde::de::DeserializeOwned>(
        &self,
        lines: &[String],
    ) -> Result<Vec<T>, AuditReadError> {
        lines
            .iter()
            .map(|line| serde_json::from_str(line).map_err(|e| self.read_failed(e)))
            .collect()
    }

    fn error(&self, reason: impl ToString) -> AuditError {
        AuditError {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }
}

#[async_trait]
impl AuditSink for PgAuditSink {
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError> {
        let line = serde_json::to_string(record).map_err(|e| self.error(e))?;
        let (outcome, changed, error) = columns_of(&record.outcome);
        let mut tx = self.db.pool.begin().await.map_err(|e| self.error(e))?;
        sqlx::query(INSERT)
            .bind(record.deploy_id.as_str())
            .bind(record.timestamp)
            .bind(&record.operator)
            .bind(&record.repository_uuid)
            .bind(&record.repository_name)
            .bind(record.previous_version.map(to_i64))
            .bind(to_i64(record.target_version))
            .bind(&record.distribution)
            .bind(record.publication.as_ref().map(ToString::to_string))
            .bind(outcome)
            .bind(changed)
            .bind(error)
            .bind(line)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        tx.commit().await.map_err(|e| self.error(e))
    }

    async fn record_release(&self, record: &ReleaseRecord) -> Result<(), AuditError> {
        let line = serde_json::to_string(record).map_err(|e| self.error(e))?;
        sqlx::query(
            "INSERT INTO release_audit (release_id, release_name, recorded_at, environment, line) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(record.release.id.as_str())
        .bind(record.release.name.as_str())
        .bind(record.timestamp)
        .bind(record.environment.as_str())
        .bind(line)
        .execute(&self.db.pool)
        .await
        .map_err(|e| self.error(e))
        .map(drop)
    }

    async fn recent_releases(
        &self,
        name: &ReleaseName,
        limit: usize,
    ) -> Result<Vec<ReleaseRecord>, AuditReadError> {
        let lines: Vec<String> = sqlx::query_scalar(
            "SELECT line FROM release_audit WHERE release_name = $1 ORDER BY id DESC LIMIT $2",
        )
        .bind(name.as_str())
        .bind(to_i64(limit as u64))
        .fetch_all(&self.db.pool)
        .await
        .map_err(|e| self.read_failed(e))?;
        self.records(&lines)
    }

    async fn check_writable(&self) -> Result<(), AuditError> {
        let writable: bool = sqlx::query_scalar(
            "SELECT has_table_privilege('deploy_audit', 'INSERT') \
                 AND has_table_privilege('release_audit', 'INSERT')",
        )
        .fetch_one(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        if writable {
            Ok(())
        } else {
            Err(self.error(
                "the console's database user may not insert into deploy_audit and release_audit",
            ))
        }
    }

    async fn recent(
        &self,
        repo: &RepoId,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let lines: Vec<String> = sqlx::query_scalar(RECENT)
            .bind(repo.as_str())
            .bind(limit)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.read_failed(e))?;
        self.records(&lines)
    }

    async fn lines_of(&self, id: &DeployId) -> Result<Vec<DeployRecord>, AuditReadError> {
        let lines: Vec<String> =
            sqlx::query_scalar("SELECT line FROM deploy_audit WHERE deploy_id = $1 ORDER BY id")
                .bind(id.as_str())
                .fetch_all(&self.db.pool)
                .await
                .map_err(|e| self.read_failed(e))?;
        self.records(&lines)
    }

    async fn outcomes_since(
        &self,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        let mut lines: Vec<String> = sqlx::query_scalar(
            "SELECT line FROM deploy_audit WHERE recorded_at >= $1 AND outcome <> 'started' \
             ORDER BY id DESC LIMIT $2",
        )
        .bind(since)
        .bind(to_i64(limit as u64))
        .fetch_all(&self.db.pool)
        .await
        .map_err(|e| self.read_failed(e))?;
        lines.reverse();
        self.records(&lines)
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn columns_of(outcome: &AuditOutcome) -> (&'static str, Option<&'static str>, Option<&str>) {
    match outcome {
        AuditOutcome::Started => ("started", None, None),
        AuditOutcome::Deployed => ("deployed", None, None),
        AuditOutcome::Failed {
            production_changed,
            error,
        } => (
            "failed",
            Some(changed_text(*production_changed)),
            Some(error),
        ),
    }
}

fn changed_text(changed: ProductionChanged) -> &'static str {
    match changed {
        ProductionChanged::Yes => "yes",
        ProductionChanged::No => "no",
        ProductionChanged::Unknown => "unknown",
    }
}
