//! `MemoryCheckStore`: check reports and promotion claims kept in the process (tests, and the
//! demo with `audit.sink = "stdout"`, where nothing survives a restart anyway).

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard};

use async_trait::async_trait;

use crate::domain::check::{latest_of, CheckReport, PromotionKey};
use crate::domain::repository::RepoId;
use crate::ports::{CheckStore, CheckStoreError};

#[derive(Default)]
pub struct MemoryCheckStore {
    reports: Mutex<Vec<CheckReport>>,
    claims: Mutex<BTreeSet<PromotionKey>>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[async_trait]
impl CheckStore for MemoryCheckStore {
    async fn record(&self, report: &CheckReport) -> Result<(), CheckStoreError> {
        locked(&self.reports).push(report.clone());
        Ok(())
    }

    async fn latest(
        &self,
        repo: &RepoId,
        version: Option<u64>,
    ) -> Result<Vec<CheckReport>, CheckStoreError> {
        let reports = locked(&self.reports);
        Ok(latest_of(
            reports
                .iter()
                .filter(|r| r.key.repository_uuid == repo.as_str())
                .filter(|r| version.is_none_or(|v| r.key.version == v))
                .cloned(),
        ))
    }

    async fn reported_between(
        &self,
        from: chrono::DateTime<chrono::Utc>,
        to: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<CheckReport>, CheckStoreError> {
        let mut made: Vec<CheckReport> = locked(&self.reports)
            .iter()
            .filter(|r| r.at >= from && r.at < to)
            .cloned()
            .collect();
        made.sort_by_key(|r| r.at);
        Ok(made)
    }

    async fn claim_promotion(&self, key: &PromotionKey) -> Result<bool, CheckStoreError> {
        Ok(locked(&self.claims).insert(key.clone()))
    }

    async fn release_promotion(&self, key: &PromotionKey) -> Result<(), CheckStoreError> {
        locked(&self.claims).remove(key);
        Ok(())
    }

    async fn prune(
        &self,
        kept_from: chrono::DateTime<chrono::Utc>,
    ) -> Result<usize, CheckStoreError> {
        let mut reports = locked(&self.reports);
        let gone = crate::domain::check::retention::prunable(&reports, kept_from);
        let mut i = 0;
        reports.retain(|_| {
            i += 1;
            !gone.contains(&(i - 1))
        });
        Ok(gone.len())
    }

    fn target(&self) -> String {
        "memory (lost when the console stops)".to_owned()
    }
}
