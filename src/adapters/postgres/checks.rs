//! `PgCheckStore`: check reports as rows of `check_reports` (every report kept, the latest
//! of each check read with `DISTINCT ON`), and promotion claims as rows of
//! `promotion_claims`, whose primary key lets one replica claim each promotion.

use async_trait::async_trait;

use crate::domain::check::{CheckReport, PromotionKey};
use crate::domain::repository::RepoId;
use crate::ports::{CheckStore, CheckStoreError};

use super::Database;

pub struct PgCheckStore {
    db: Database,
}

const RECORD: &str = "INSERT INTO check_reports \
    (repository_uuid, environment, version, name, reported_at, report) \
    VALUES ($1, $2, $3, $4, $5, $6)";

/// The latest report of each check of a repository (of one version when `$2` is not null).
const LATEST: &str = "SELECT DISTINCT ON (version, environment, name) report \
    FROM check_reports WHERE repository_uuid = $1 AND ($2::bigint IS NULL OR version = $2) \
    ORDER BY version, environment, name, reported_at DESC, id DESC";

/// Every report made in `[$1, $2)`, in the order made (`check_reports_by_time`).
const BETWEEN: &str = "SELECT report FROM check_reports \
    WHERE reported_at >= $1 AND reported_at < $2 ORDER BY reported_at, id";

const CLAIM: &str = "INSERT INTO promotion_claims (repository_uuid, environment, version) \
    VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

/// `domain::check::retention::prunable` in SQL: a report older than `$1` that a later report
/// of the same check replaced (later in time, or as late and written after it).
const PRUNE: &str = "DELETE FROM check_reports r WHERE r.reported_at < $1 AND EXISTS ( \
    SELECT 1 FROM check_reports n WHERE n.repository_uuid = r.repository_uuid \
    AND n.environment = r.environment AND n.version = r.version AND n.name = r.name \
    AND (n.reported_at > r.reported_at OR (n.reported_at = r.reported_at AND n.id > r.id)))";

const RELEASE: &str = "DELETE FROM promotion_claims \
    WHERE repository_uuid = $1 AND environment = $2 AND version = $3";

impl PgCheckStore {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn unavailable(&self, reason: impl ToString) -> CheckStoreError {
        CheckStoreError {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }
}

/// A version number as PostgreSQL's bigint.
fn bigint(version: u64) -> i64 {
    i64::try_from(version).unwrap_or(i64::MAX)
}

#[async_trait]
impl CheckStore for PgCheckStore {
    async fn record(&self, report: &CheckReport) -> Result<(), CheckStoreError> {
        let json = serde_json::to_string(report).map_err(|e| self.unavailable(e))?;
        sqlx::query(RECORD)
            .bind(&report.key.repository_uuid)
            .bind(report.key.environment.as_str())
            .bind(bigint(report.key.version))
            .bind(report.key.name.as_str())
            .bind(report.at)
            .bind(json)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(())
    }

    async fn latest(
        &self,
        repo: &RepoId,
        version: Option<u64>,
    ) -> Result<Vec<CheckReport>, CheckStoreError> {
        let rows: Vec<String> = sqlx::query_scalar(LATEST)
            .bind(repo.as_str())
            .bind(version.map(bigint))
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        let mut reports = rows
            .iter()
            .map(|json| serde_json::from_str::<CheckReport>(json))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.unavailable(format!("a stored row: {e}")))?;
        reports.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(reports)
    }

    async fn reported_between(
        &self,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<CheckReport>, CheckStoreError> {
        let rows: Vec<String> = sqlx::query_scalar(BETWEEN)
            .bind(from)
            .bind(to)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        rows.iter()
            .map(|json| serde_json::from_str::<CheckReport>(json))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.unavailable(format!("a stored row: {e}")))
    }

    async fn claim_promotion(&self, key: &PromotionKey) -> Result<bool, CheckStoreError> {
        let done = sqlx::query(CLAIM)
            .bind(&key.repository_uuid)
            .bind(key.environment.as_str())
            .bind(bigint(key.version))
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(done.rows_affected() == 1)
    }

    async fn release_promotion(&self, key: &PromotionKey) -> Result<(), CheckStoreError> {
        sqlx::query(RELEASE)
            .bind(&key.repository_uuid)
            .bind(key.environment.as_str())
            .bind(bigint(key.version))
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(())
    }

    async fn prune(
        &self,
        kept_from: chrono::DateTime<chrono::Utc>,
    ) -> Result<usize, CheckStoreError> {
        let removed = sqlx::query(PRUNE)
            .bind(kept_from)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(usize::try_from(removed.rows_affected()).unwrap_or(usize::MAX))
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}
