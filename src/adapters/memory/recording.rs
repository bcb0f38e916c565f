//! Test and demo helpers: an audit sink that keeps its records, and a pinned clock.

use std::sync::Mutex;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::DeployRecord;
use crate::ports::{AuditError, AuditSink, Clock};

/// Keeps every record in memory; can be told to fail, to test what a failed write does.
#[derive(Default)]
pub struct RecordingAuditSink {
    records: Mutex<Vec<DeployRecord>>,
    failure: Mutex<Option<String>>,
}

impl RecordingAuditSink {
    pub fn records(&self) -> Vec<DeployRecord> {
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// From now on every write fails with `reason` (`None` heals it).
    pub fn fail_with(&self, reason: Option<&str>) {
        *self.failure.lock().unwrap_or_else(|p| p.into_inner()) = reason.map(str::to_owned);
    }

    fn failure(&self) -> Result<(), AuditError> {
        match self
            .failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
        {
            Some(reason) => Err(AuditError {
                target: "memory".into(),
                reason,
            }),
            None => Ok(()),
        }
    }
}

#[async_trait]
impl AuditSink for RecordingAuditSink {
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError> {
        self.failure()?;
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(record.clone());
        Ok(())
    }

    async fn check_writable(&self) -> Result<(), AuditError> {
        self.failure()
    }
}

/// A clock that always answers the same instant.
pub struct FixedClock(pub DateTime<Utc>);

#[async_trait]
impl Clock for FixedClock {
    async fn now(&self) -> DateTime<Utc> {
        self.0
    }
}
