//! `PgDiffStore`: computed diffs as rows of `version_diffs`, so that a diff one replica
//! computed is read by the others. A row is inserted once (`ON CONFLICT DO NOTHING`: two
//! replicas computing the same diff store the same bytes) and never updated; after each
//! insert the oldest rows beyond the bound are deleted.

use async_trait::async_trait;

use crate::adapters::shared::diff_codec::{decode, encode};
use crate::domain::diff::{DiffKey, VersionDiff};
use crate::ports::{DiffStore, DiffStoreError};

use super::Database;

pub struct PgDiffStore {
    db: Database,
    max_bytes: i64,
}

const GET: &str = "SELECT body FROM version_diffs WHERE from_href = $1 AND to_href = $2";

/// A row that cannot be read (damaged, or of an earlier format) goes, so that the diff is
/// stored again once computed (an insert never replaces a row).
const FORGET: &str = "DELETE FROM version_diffs WHERE from_href = $1 AND to_href = $2";

const INSERT: &str = "INSERT INTO version_diffs (from_href, to_href, body, bytes) \
    VALUES ($1, $2, $3, $4) ON CONFLICT (from_href, to_href) DO NOTHING";

/// Deletes the rows beyond the newest `$1` bytes of bodies.
const PRUNE: &str = "DELETE FROM version_diffs v USING ( \
        SELECT from_href, to_href, \
            SUM(bytes) OVER (ORDER BY created_at DESC, from_href, to_href) AS newer \
        FROM version_diffs) o \
    WHERE v.from_href = o.from_href AND v.to_href = o.to_href AND o.newer > $1";

impl PgDiffStore {
    /// Diffs kept in `db`, at most `max_bytes` of bodies.
    pub fn new(db: Database, max_bytes: u64) -> Self {
        Self {
            db,
            max_bytes: i64::try_from(max_bytes).unwrap_or(i64::MAX),
        }
    }

    fn error(&self, reason: impl ToString) -> DiffStoreError {
        DiffStoreError {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }
}

/// The key's columns: no version to start from is `''` (a primary key is never null).
fn columns(key: &DiffKey) -> (&str, &str) {
    (key.0.as_ref().map_or("", |h| h.as_str()), key.1.as_str())
}

#[async_trait]
impl DiffStore for PgDiffStore {
    async fn get(&self, key: &DiffKey) -> Result<Option<VersionDiff>, DiffStoreError> {
        let (from, to) = columns(key);
        let body: Option<Vec<u8>> = sqlx::query_scalar(GET)
            .bind(from)
            .bind(to)
            .fetch_optional(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        let Some(body) = body else { return Ok(None) };
        let key = key.clone();
        let decoded = tokio::task::spawn_blocking(move || decode(&body, &key))
            .await
            .map_err(|e| self.error(e))?;
        match decoded {
            Ok(diff) => Ok(Some(diff)),
            Err(error) => {
                tracing::warn!(from, to, %error, "a stored diff cannot be read; computing it again");
                sqlx::query(FORGET)
                    .bind(from)
                    .bind(to)
                    .execute(&self.db.pool)
                    .await
                    .map_err(|e| self.error(e))?;
                Ok(None)
            }
        }
    }

    async fn put(&self, key: &DiffKey, diff: &VersionDiff) -> Result<(), DiffStoreError> {
        let body = encode(key, diff).map_err(|e| self.error(e))?;
        let bytes = i64::try_from(body.len()).unwrap_or(i64::MAX);
        if bytes > self.max_bytes {
            tracing::debug!(bytes, "a diff larger than the store's bound is not stored");
            return Ok(());
        }
        let (from, to) = columns(key);
        let inserted = sqlx::query(INSERT)
            .bind(from)
            .bind(to)
            .bind(body)
            .bind(bytes)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?
            .rows_affected();
        if inserted > 0 {
            let pruned = sqlx::query(PRUNE)
                .bind(self.max_bytes)
                .execute(&self.db.pool)
                .await
                .map_err(|e| self.error(e))?
                .rows_affected();
            if pruned > 0 {
                tracing::info!(
                    pruned,
                    "stored diffs pruned to the bound (diffs.max_disk_mb)"
                );
            }
        }
        Ok(())
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}
