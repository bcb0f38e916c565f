//! `PgCveIndex`: the CVE index as the one row of `cve_index`, shared by the replicas, replaced
//! whole at each refresh. A row that cannot be read is logged and answered as missing (the
//! index is then built again from Pulp, and the row replaced).

use async_trait::async_trait;

use crate::domain::exposure::CveIndex;
use crate::ports::{CveIndexStore, CveIndexStoreError};

use super::Database;

const LOAD: &str = "SELECT body FROM cve_index WHERE singleton";

const SAVE: &str = "INSERT INTO cve_index (singleton, body, updated_at) VALUES (TRUE, $1, now()) \
    ON CONFLICT (singleton) DO UPDATE SET body = EXCLUDED.body, updated_at = now()";

pub struct PgCveIndex {
    db: Database,
}

impl PgCveIndex {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn error(&self, reason: impl ToString) -> CveIndexStoreError {
        CveIndexStoreError {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }
}

#[async_trait]
impl CveIndexStore for PgCveIndex {
    async fn load(&self) -> Result<Option<CveIndex>, CveIndexStoreError> {
        let body: Option<String> = sqlx::query_scalar(LOAD)
            .fetch_optional(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        let Some(body) = body else { return Ok(None) };
        match serde_json::from_str(&body) {
            Ok(index) => Ok(Some(index)),
            Err(error) => {
                tracing::warn!(%error, "the stored CVE index cannot be read; building it again");
                Ok(None)
            }
        }
    }

    async fn save(&self, index: &CveIndex) -> Result<(), CveIndexStoreError> {
        let body = serde_json::to_string(index).map_err(|e| self.error(e))?;
        sqlx::query(SAVE)
            .bind(body)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        Ok(())
    }

    fn target(&self) -> String {
        format!("{} (cve_index)", self.db.target)
    }
}
