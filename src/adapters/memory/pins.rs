//! `MemoryPinStore`: pin records kept in the process (tests, and the demo with
//! `audit.sink = "stdout"`, where nothing survives a restart anyway).

use std::sync::{Mutex, MutexGuard};

use async_trait::async_trait;

use crate::domain::pin::{standing, Pin, PinKey, PinRecord};
use crate::domain::repository::RepoId;
use crate::ports::{PinStore, PinStoreError};

#[derive(Default)]
pub struct MemoryPinStore {
    records: Mutex<Vec<PinRecord>>,
}

impl MemoryPinStore {
    fn records(&self) -> MutexGuard<'_, Vec<PinRecord>> {
        self.records.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[async_trait]
impl PinStore for MemoryPinStore {
    async fn append(&self, record: &PinRecord) -> Result<(), PinStoreError> {
        self.records().push(record.clone());
        Ok(())
    }

    async fn standing(&self, key: &PinKey) -> Result<Option<Pin>, PinStoreError> {
        Ok(standing(key, self.records().iter()))
    }

    async fn of_repository(&self, repo: &RepoId) -> Result<Vec<PinRecord>, PinStoreError> {
        let records = self.records();
        let of_repo = records.iter().filter(|r| r.key().repository == *repo);
        Ok(of_repo.cloned().collect())
    }

    fn target(&self) -> String {
        "memory (lost when the console stops)".to_owned()
    }
}
