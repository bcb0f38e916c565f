//! `MemoryScheduleStore`: schedules kept in the process (tests, and `audit.sink = "stdout"`,
//! where nothing survives a restart anyway). The reference behaviour of the contract.

use std::sync::Mutex;

use async_trait::async_trait;

use crate::domain::ids::ScheduleId;
use crate::domain::repository::RepoId;
use crate::domain::schedule::record::UnreadableSchedule;
use crate::domain::schedule::Schedule;
use crate::ports::{ScheduleStore, ScheduleStoreError};

/// Schedules in the order they were made.
#[derive(Default)]
pub struct MemoryScheduleStore {
    kept: Mutex<Vec<Schedule>>,
}

impl MemoryScheduleStore {
    fn kept(&self) -> std::sync::MutexGuard<'_, Vec<Schedule>> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[async_trait]
impl ScheduleStore for MemoryScheduleStore {
    async fn create(&self, schedule: &Schedule) -> Result<(), ScheduleStoreError> {
        let mut kept = self.kept();
        if kept.iter().any(|s| s.id == schedule.id) {
            return Err(ScheduleStoreError::Conflict);
        }
        kept.push(schedule.clone());
        Ok(())
    }

    async fn replace(&self, next: &Schedule) -> Result<(), ScheduleStoreError> {
        let mut kept = self.kept();
        let Some(current) = kept.iter_mut().find(|s| s.id == next.id) else {
            return Err(ScheduleStoreError::Missing(next.id.clone()));
        };
        if current.revision + 1 != next.revision {
            return Err(ScheduleStoreError::Conflict);
        }
        *current = next.clone();
        Ok(())
    }

    async fn get(&self, id: &ScheduleId) -> Result<Option<Schedule>, ScheduleStoreError> {
        Ok(self.kept().iter().find(|s| &s.id == id).cloned())
    }

    async fn open(&self) -> Result<Vec<Schedule>, ScheduleStoreError> {
        let mut open: Vec<Schedule> = self
            .kept()
            .iter()
            .filter(|s| s.state.is_open())
            .cloned()
            .collect();
        open.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)));
        Ok(open)
    }

    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<Schedule>, ScheduleStoreError> {
        let mut chosen: Vec<Schedule> = self
            .kept()
            .iter()
            .filter(|s| repo.is_none_or(|r| s.repository_uuid == r.as_str()))
            .cloned()
            .collect();
        chosen.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| b.id.cmp(&a.id)));
        chosen.truncate(limit);
        Ok(chosen)
    }

    /// Kept as values, never as records: nothing is unreadable.
    async fn unreadable(&self) -> Result<Vec<UnreadableSchedule>, ScheduleStoreError> {
        Ok(Vec::new())
    }

    async fn remove_ended(&self, ids: &[ScheduleId]) -> Result<usize, ScheduleStoreError> {
        let mut kept = self.kept();
        let before = kept.len();
        kept.retain(|s| s.state.is_open() || !ids.contains(&s.id));
        Ok(before - kept.len())
    }

    fn target(&self) -> String {
        "memory (lost when the console stops)".into()
    }
}
