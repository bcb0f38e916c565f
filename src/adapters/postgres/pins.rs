//! `PgPinStore`: pin records as rows of `pin_records`, one per fact in the order kept (its
//! `id`), so that every replica holds the same environments. Each row's record is the JSON
//! the file store writes ([`crate::adapters::shared::pin_codec`]); a row that cannot be read
//! makes its pin read as unreadable, never lifted or set in silence.

use async_trait::async_trait;

use crate::adapters::shared::pin_codec::{decode, encode};
use crate::domain::pin::{standing, Pin, PinKey, PinRecord};
use crate::domain::repository::RepoId;
use crate::ports::{PinStore, PinStoreError};

use super::Database;

pub struct PgPinStore {
    db: Database,
}

const APPEND: &str =
    "INSERT INTO pin_records (pin_key, repository_uuid, record) VALUES ($1, $2, $3)";

const OF_PIN: &str = "SELECT id, record FROM pin_records WHERE pin_key = $1 ORDER BY id";

const OF_REPOSITORY: &str =
    "SELECT id, record FROM pin_records WHERE repository_uuid = $1 ORDER BY id";

impl PgPinStore {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn unavailable(&self, reason: impl ToString) -> PinStoreError {
        PinStoreError::Unavailable {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }

    /// The records of the rows `query` selects with `key`, in order; the first that cannot
    /// be read stops the read.
    async fn rows(&self, query: &str, key: &str) -> Result<Vec<PinRecord>, PinStoreError> {
        let rows: Vec<(i64, String)> = sqlx::query_as(query)
            .bind(key)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        rows.iter()
            .map(|(id, record)| {
                decode(record.as_bytes(), || format!("pin_records row {id}"))
                    .map_err(PinStoreError::Unreadable)
            })
            .collect()
    }
}

#[async_trait]
impl PinStore for PgPinStore {
    async fn append(&self, record: &PinRecord) -> Result<(), PinStoreError> {
        let json = encode(record).map_err(|e| self.unavailable(e))?;
        let json = String::from_utf8(json).map_err(|e| self.unavailable(e))?;
        let key = record.key();
        sqlx::query(APPEND)
            .bind(key.to_string())
            .bind(key.repository.as_str())
            .bind(json)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.unavailable(e))?;
        Ok(())
    }

    async fn standing(&self, key: &PinKey) -> Result<Option<Pin>, PinStoreError> {
        let records = self.rows(OF_PIN, &key.to_string()).await?;
        Ok(standing(key, &records))
    }

    async fn of_repository(&self, repo: &RepoId) -> Result<Vec<PinRecord>, PinStoreError> {
        self.rows(OF_REPOSITORY, repo.as_str()).await
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}
