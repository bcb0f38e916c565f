//! `PgAuditSink`: audit lines as rows of `deploy_audit`, each written in its own
//! transaction; every replica reads the same history.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use sqlx::Row;

use crate::domain::{
    AuditOutcome, DeployId, DeployRecord, ProductionChanged, PublicationHref, RepoId,
};
use crate::ports::{AuditError, AuditSink};

use super::Database;

pub struct PgAuditSink {
    db: Database,
}

const INSERT: &str = "INSERT INTO deploy_audit (deploy_id, recorded_at, operator, repository_uuid, \
    repository_name, previous_version, target_version, distribution, publication, outcome, \
    production_changed, error, line) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";

const RECENT: &str = "SELECT deploy_id, recorded_at, operator, repository_uuid, repository_name, \
    previous_version, target_version, distribution, publication, outcome, production_changed, error \
    FROM deploy_audit WHERE repository_uuid = $1 ORDER BY id DESC LIMIT $2";

impl PgAuditSink {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn error(&self, reason: impl ToString) -> AuditError {
        AuditError {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }

    /// The newest `limit` lines of repository `repo`, newest first.
    pub async fn recent(
        &self,
        repo: &RepoId,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = sqlx::query(RECENT)
            .bind(repo.as_str())
            .bind(limit)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        rows.iter()
            .map(|row| record_of(row).map_err(|e| self.error(e)))
            .collect()
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

    async fn check_writable(&self) -> Result<(), AuditError> {
        let writable: bool =
            sqlx::query_scalar("SELECT has_table_privilege('deploy_audit', 'INSERT')")
                .fetch_one(&self.db.pool)
                .await
                .map_err(|e| self.error(e))?;
        if writable {
            Ok(())
        } else {
            Err(self.error("the console's database user may not insert into deploy_audit"))
        }
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

fn record_of(row: &sqlx::postgres::PgRow) -> Result<DeployRecord, String> {
    let text = |column: &str| row.try_get::<String, _>(column).map_err(|e| e.to_string());
    let version = |v: i64| u64::try_from(v).map_err(|_| format!("negative version {v}"));
    let previous: Option<i64> = row.try_get("previous_version").map_err(|e| e.to_string())?;
    let publication: Option<String> = row.try_get("publication").map_err(|e| e.to_string())?;
    let timestamp: DateTime<Utc> = row.try_get("recorded_at").map_err(|e| e.to_string())?;
    Ok(DeployRecord {
        deploy_id: DeployId::new(text("deploy_id")?),
        timestamp,
        operator: text("operator")?,
        repository_uuid: text("repository_uuid")?,
        repository_name: text("repository_name")?,
        previous_version: previous.map(version).transpose()?,
        target_version: version(row.try_get("target_version").map_err(|e| e.to_string())?)?,
        distribution: text("distribution")?,
        publication: publication.map(PublicationHref::new),
        outcome: outcome_of(row)?,
    })
}

fn outcome_of(row: &sqlx::postgres::PgRow) -> Result<AuditOutcome, String> {
    let outcome: String = row.try_get("outcome").map_err(|e| e.to_string())?;
    let changed: Option<String> = row
        .try_get("production_changed")
        .map_err(|e| e.to_string())?;
    let error: Option<String> = row.try_get("error").map_err(|e| e.to_string())?;
    match outcome.as_str() {
        "started" => Ok(AuditOutcome::Started),
        "deployed" => Ok(AuditOutcome::Deployed),
        "failed" => Ok(AuditOutcome::Failed {
            production_changed: match changed.as_deref() {
                Some("yes") => ProductionChanged::Yes,
                Some("no") => ProductionChanged::No,
                _ => ProductionChanged::Unknown,
            },
            error: error.unwrap_or_default(),
        }),
        other => Err(format!("unknown outcome '{other}'")),
    }
}
