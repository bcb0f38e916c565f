//! `MemoryEdgeStates`: the edge state store in this process only (the fast tests, the demo,
//! and `audit.sink = "stdout"`, where a restart observes the edges again from nothing).

use std::sync::Mutex;

use async_trait::async_trait;

use crate::adapters::shared::edge_record::{EdgeBook, Kept};
use crate::ports::edge_state_store::{
    EdgeRecords, EdgeStateStore, EdgeStoreError, StoredCell, StoredMark, StoredRun,
};

#[derive(Default)]
pub struct MemoryEdgeStates(Mutex<EdgeBook>);

impl MemoryEdgeStates {
    fn book(&self) -> std::sync::MutexGuard<'_, EdgeBook> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl EdgeStateStore for MemoryEdgeStates {
    async fn load(&self) -> Result<EdgeRecords, EdgeStoreError> {
        Ok(self.book().records())
    }

    async fn put_mark(&self, mark: &StoredMark) -> Result<(), EdgeStoreError> {
        self.book().keep(Kept::Mark(mark.clone()));
        Ok(())
    }

    async fn swap_cell(&self, cell: &StoredCell) -> Result<Option<StoredCell>, EdgeStoreError> {
        Ok(match self.book().keep(Kept::Cell(cell.clone())) {
            Some(Kept::Cell(old)) => Some(old),
            _ => None,
        })
    }

    async fn put_run(&self, run: &StoredRun) -> Result<(), EdgeStoreError> {
        self.book().keep(Kept::Run(run.clone()));
        Ok(())
    }

    fn target(&self) -> String {
        "memory (the edges are observed again after a restart)".to_owned()
    }
}
