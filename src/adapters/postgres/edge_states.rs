//! `PgEdgeStates`: the edge state store in the database the replicas share (`edge_states`,
//! one row per key, the record in the written form of
//! [`edge_record`](crate::adapters::shared::edge_record)). A cell is swapped under a
//! transaction-scoped advisory lock on its key, so that of two replicas judging the same
//! change at once, the second reads the first one's cell.

use async_trait::async_trait;

use crate::adapters::shared::edge_record::{cell_key, Kept};
use crate::ports::edge_state_store::{
    EdgeRecords, EdgeStateStore, EdgeStoreError, StoredCell, StoredMark, StoredRun,
};

use super::Database;

pub struct PgEdgeStates {
    db: Database,
}

const UPSERT: &str = "INSERT INTO edge_states (key, record, written) VALUES ($1, $2, now()) \
     ON CONFLICT (key) DO UPDATE SET record = EXCLUDED.record, written = EXCLUDED.written";

impl PgEdgeStates {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn error(&self, reason: impl ToString) -> EdgeStoreError {
        EdgeStoreError {
            target: self.target(),
            reason: reason.to_string(),
        }
    }

    async fn put(&self, record: Kept) -> Result<(), EdgeStoreError> {
        sqlx::query(UPSERT)
            .bind(record.key())
            .bind(value(&record))
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        Ok(())
    }
}

fn value(record: &Kept) -> serde_json::Value {
    serde_json::to_value(record.written()).expect("a record always serializes")
}

fn read(key: &str, value: serde_json::Value) -> Option<Kept> {
    match serde_json::from_value(value)
        .map_err(|e| e.to_string())
        .and_then(|r| Kept::read(r).map_err(|e| e.to_string()))
    {
        Ok(kept) => Some(kept),
        Err(error) => {
            tracing::warn!(key, %error, "an edge state row cannot be read; left out (the edge is judged again)");
            None
        }
    }
}

#[async_trait]
impl EdgeStateStore for PgEdgeStates {
    async fn load(&self) -> Result<EdgeRecords, EdgeStoreError> {
        let rows: Vec<(String, serde_json::Value)> =
            sqlx::query_as("SELECT key, record FROM edge_states ORDER BY key")
                .fetch_all(&self.db.pool)
                .await
                .map_err(|e| self.error(e))?;
        let mut records = EdgeRecords::default();
        for (key, value) in rows {
            match read(&key, value) {
                Some(Kept::Mark(m)) => records.marks.push(m),
                Some(Kept::Cell(c)) => records.cells.push(c),
                Some(Kept::Run(r)) => records.runs.push(r),
                None => {}
            }
        }
        Ok(records)
    }

    async fn put_mark(&self, mark: &StoredMark) -> Result<(), EdgeStoreError> {
        self.put(Kept::Mark(mark.clone())).await
    }

    async fn swap_cell(&self, cell: &StoredCell) -> Result<Option<StoredCell>, EdgeStoreError> {
        let key = cell_key(&cell.edge, &cell.distribution);
        let mut tx = self.db.pool.begin().await.map_err(|e| self.error(e))?;
        sqlx::query(
            "SELECT pg_advisory_xact_lock(hashtextextended('repo-console edge ' || $1, 0))",
        )
        .bind(&key)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.error(e))?;
        let old: Option<(serde_json::Value,)> =
            sqlx::query_as("SELECT record FROM edge_states WHERE key = $1")
                .bind(&key)
                .fetch_optional(&mut *tx)
                .await
                .map_err(|e| self.error(e))?;
        sqlx::query(UPSERT)
            .bind(&key)
            .bind(value(&Kept::Cell(cell.clone())))
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        tx.commit().await.map_err(|e| self.error(e))?;
        Ok(match old.and_then(|(v,)| read(&key, v)) {
            Some(Kept::Cell(old)) => Some(old),
            _ => None,
        })
    }

    async fn put_run(&self, run: &StoredRun) -> Result<(), EdgeStoreError> {
        self.put(Kept::Run(run.clone())).await
    }

    fn target(&self) -> String {
        format!("{} (edge_states)", self.db.target)
    }
}
