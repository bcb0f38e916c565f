//! `PgAuditSink`: audit lines as rows of `deploy_audit`, each written in its own
//! transaction; every replica reads the same history. Each table is a hash chain (see
//! [`crate::domain::audit_chain`]): a writer takes the table's transaction-scoped advisory lock,
//! reads the newest row's line and seals its own after it, so that two replicas writing at
//! once never link two rows to the same one; the row's id (taken under the lock) is the
//! chain's order. The columns a row copies from its line are checked against it as the chain
//! is read ([`super::audit_columns`]).

use crate::domain::audit_chain::seal::{next_after, seal, Next, StartDigest};
use crate::domain::audit_chain::verify::{Anchor, BreakKind, ChainBreak, ChainSummary, Verifier};
use crate::domain::deploy::{DeployId, DeployRecord};
use crate::domain::ids::ReleaseName;
use crate::domain::release::ReleaseRecord;
use crate::domain::repository::RepoId;
use crate::ports::audit_chain::{ChainAnchors, ChainReport};
use crate::ports::audit_sink::{AuditPosition, AuditSlice};
use crate::ports::{AuditError, AuditReadError, AuditSink};
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use sqlx::{PgConnection, Postgres, Row, Transaction};

use super::audit_columns::{columns_of, ChainedTable, DEPLOY_AUDIT, RELEASE_AUDIT};
use super::Database;

pub struct PgAuditSink {
    db: Database,
}

const INSERT: &str = "INSERT INTO deploy_audit (deploy_id, recorded_at, operator, repository_uuid, \
    repository_name, previous_version, target_version, distribution, publication, outcome, \
    production_changed, error, line) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";

/// The lock of one table's chain, held until its transaction ends.
const CHAIN_LOCK: &str =
    "SELECT pg_advisory_xact_lock(hashtextextended('repo-console audit chain ' || $1, 0))";

/// The tables that are chains, in the order `verify_chain` reports them.
const CHAINED_TABLES: [ChainedTable; 2] = [DEPLOY_AUDIT, RELEASE_AUDIT];

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

    /// The record sealed as the next line of `table`, under the table's chain lock (taken in
    /// `tx`, held until it ends).
    async fn sealed(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        table: &'static str,
        record: &impl serde::Serialize,
    ) -> Result<String, AuditError> {
        sqlx::query(CHAIN_LOCK)
            .bind(table)
            .execute(&mut **tx)
            .await
            .map_err(|e| self.error(e))?;
        let next = next_of(tx, table).await.map_err(|e| self.error(e))?;
        seal(record, &next).map_err(|e| self.error(e))
    }

    /// Reads `table` from its first row and checks its chain, and that each row's copied
    /// columns say what its line says.
    async fn verify_table(
        &self,
        table: &ChainedTable,
        anchor: Option<Anchor>,
    ) -> Result<Result<ChainSummary, ChainBreak>, sqlx::Error> {
        let mut verifier = Verifier::expecting(anchor);
        let select = table.select();
        let mut rows = sqlx::query(&select).fetch(&self.db.pool);
        let mut number = 0;
        while let Some(row) = rows.try_next().await? {
            number += 1;
            let line: String = row.try_get(0)?;
            if let Err(broken) = verifier.feed(line.as_bytes()) {
                return Ok(Err(broken));
            }
            let held = (1..=table.columns.len())
                .map(|index| row.try_get::<Option<String>, _>(index))
                .collect::<Result<Vec<_>, _>>()?;
            let columns = table.disagreeing(&line, &held);
            if !columns.is_empty() {
                return Ok(Err(ChainBreak {
                    line: number,
                    time: time_of(&line),
                    kind: BreakKind::ColumnsChanged { columns },
                }));
            }
        }
        Ok(verifier.finish())
    }
}

/// What the next row of `table` links to: its newest row, or a start after every row (read
/// once, on the first write of a console that chains its rows).
async fn next_of(conn: &mut PgConnection, table: &'static str) -> Result<Next, sqlx::Error> {
    let newest: Option<String> = sqlx::query_scalar(&format!(
        "SELECT line FROM {table} ORDER BY id DESC LIMIT 1"
    ))
    .fetch_optional(&mut *conn)
    .await?;
    let newest: Vec<&[u8]> = newest.iter().map(|line| line.as_bytes()).collect();
    if let Some(next) = next_after(&newest) {
        return Ok(next);
    }
    let mut digest = StartDigest::default();
    let select = format!("SELECT line FROM {table} ORDER BY id");
    let mut rows = sqlx::query_scalar::<_, String>(&select).fetch(&mut *conn);
    while let Some(line) = rows.try_next().await? {
        digest.add(line.as_bytes());
    }
    Ok(digest.start())
}

#[async_trait]
impl AuditSink for PgAuditSink {
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError> {
        let (outcome, changed, error) = columns_of(&record.outcome);
        let mut tx = self.db.pool.begin().await.map_err(|e| self.error(e))?;
        let line = self.sealed(&mut tx, "deploy_audit", record).await?;
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
        let mut tx = self.db.pool.begin().await.map_err(|e| self.error(e))?;
        let line = self.sealed(&mut tx, "release_audit", record).await?;
        sqlx::query(
            "INSERT INTO release_audit (release_id, release_name, recorded_at, environment, line) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(record.release.id.as_str())
        .bind(record.release.name.as_str())
        .bind(record.timestamp)
        .bind(record.environment.as_str())
        .bind(line)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.error(e))?;
        tx.commit().await.map_err(|e| self.error(e))
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

    /// The rows after id `after` (the row's id is the chain's order, taken under the chain's
    /// lock, so no row commits behind one already read).
    async fn outcomes_after(
        &self,
        after: AuditPosition,
        limit: usize,
    ) -> Result<AuditSlice, AuditReadError> {
        let rows: Vec<(i64, String)> = sqlx::query_as(
            "SELECT id, line FROM deploy_audit WHERE id > $1 AND outcome <> 'started' \
             ORDER BY id LIMIT $2",
        )
        .bind(to_i64(after.0))
        .bind(to_i64(limit as u64))
        .fetch_all(&self.db.pool)
        .await
        .map_err(|e| self.read_failed(e))?;
        let next = rows.last().map_or(after, |(id, _)| {
            AuditPosition(u64::try_from(*id).unwrap_or(0))
        });
        let lines: Vec<String> = rows.into_iter().map(|(_, line)| line).collect();
        Ok(AuditSlice {
            lines: self.records(&lines)?,
            next,
        })
    }

    /// Each table from its first row, `deploy_audit` then `release_audit` (a line's number is
    /// its row's place in the table by id).
    async fn verify_chain(
        &self,
        anchors: &ChainAnchors,
    ) -> Result<Vec<ChainReport>, AuditReadError> {
        let mut reports = Vec::with_capacity(CHAINED_TABLES.len());
        for table in &CHAINED_TABLES {
            let anchor = anchors.get(table.name).cloned();
            let verdict = self
                .verify_table(table, anchor)
                .await
                .map_err(|e| self.read_failed(e))?;
            reports.push(ChainReport {
                log: table.name.to_owned(),
                verdict,
            });
        }
        Ok(reports)
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}

/// The time a line says it was written (its `timestamp`), when it says one.
fn time_of(line: &str) -> Option<DateTime<Utc>> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    let text = value.get("timestamp")?.as_str()?;
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|at| at.with_timezone(&Utc))
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
