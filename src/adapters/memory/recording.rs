//! Test and demo helpers: an audit sink that keeps its records, and a pinned clock.

use std::sync::Mutex;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::audit_chain::seal::{next_after, seal};
use crate::domain::audit_chain::verify::verify_lines;
use crate::domain::deploy::{AuditOutcome, DeployId, DeployRecord};
use crate::domain::ids::ReleaseName;
use crate::domain::release::ReleaseRecord;
use crate::domain::repository::RepoId;
use crate::ports::audit_chain::{ChainAnchors, ChainReport};
use crate::ports::audit_sink::{AuditPosition, AuditSlice};
use crate::ports::{AuditError, AuditReadError, AuditSink, Clock};

/// Keeps every record in memory, and every line as the file sink would chain it (see
/// [`crate::domain::audit_chain`]); can be told to fail, to test what a failed write does.
#[derive(Default)]
pub struct RecordingAuditSink {
    records: Mutex<Vec<DeployRecord>>,
    releases: Mutex<Vec<ReleaseRecord>>,
    /// Every line, deploys' and releases', chained in the order written.
    lines: Mutex<Vec<String>>,
    /// After this many more records, every write fails with the reason.
    failure: Mutex<Option<(usize, String)>>,
}

impl RecordingAuditSink {
    pub fn records(&self) -> Vec<DeployRecord> {
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The release lines kept, oldest first.
    pub fn release_records(&self) -> Vec<ReleaseRecord> {
        self.releases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The chained lines, oldest first.
    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Replaces the chained lines (a test tampering with the log).
    pub fn set_lines(&self, lines: Vec<String>) {
        *self.lines.lock().unwrap_or_else(|p| p.into_inner()) = lines;
    }

    /// Seals `record` after the newest line.
    fn chain(&self, record: &impl serde::Serialize) -> Result<(), AuditError> {
        let mut lines = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        let newest: Vec<&[u8]> = lines.last().map(String::as_bytes).into_iter().collect();
        let next = next_after(&newest).ok_or_else(|| AuditError {
            target: "memory".into(),
            reason: "the newest line is not chained".into(),
        })?;
        let line = seal(record, &next).map_err(|e| AuditError {
            target: "memory".into(),
            reason: e.to_string(),
        })?;
        lines.push(line);
        Ok(())
    }

    /// Keeps `records` more records, then fails every write (and writability check) with `reason`.
    pub fn fail_after(&self, records: usize, reason: &str) {
        *self.failure.lock().unwrap_or_else(|p| p.into_inner()) =
            Some((records, reason.to_owned()));
    }

    /// The failure due now, if any; `counting` uses up one of the records still allowed.
    fn failure(&self, counting: bool) -> Result<(), AuditError> {
        let mut failure = self.failure.lock().unwrap_or_else(|p| p.into_inner());
        match failure.as_mut() {
            Some((0, reason)) => Err(AuditError {
                target: "memory".into(),
                reason: reason.clone(),
            }),
            Some((left, _)) if counting => {
                *left -= 1;
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

#[async_trait]
impl AuditSink for RecordingAuditSink {
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError> {
        self.failure(true)?;
        self.chain(record)?;
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(record.clone());
        Ok(())
    }

    async fn record_release(&self, record: &ReleaseRecord) -> Result<(), AuditError> {
        self.failure(true)?;
        self.chain(record)?;
        self.releases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(record.clone());
        Ok(())
    }

    async fn recent_releases(
        &self,
        name: &ReleaseName,
        limit: usize,
    ) -> Result<Vec<ReleaseRecord>, AuditReadError> {
        let releases = self.releases.lock().unwrap_or_else(|p| p.into_inner());
        let of_release = releases.iter().rev().filter(|r| &r.release.name == name);
        Ok(of_release.take(limit).cloned().collect())
    }

    async fn check_writable(&self) -> Result<(), AuditError> {
        self.failure(false)
    }

    async fn recent(
        &self,
        repo: &RepoId,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        let records = self.records.lock().unwrap_or_else(|p| p.into_inner());
        let of_repo = records.iter().rev();
        let of_repo = of_repo.filter(|r| r.repository_uuid == repo.as_str());
        Ok(of_repo.take(limit).cloned().collect())
    }

    async fn lines_of(&self, id: &DeployId) -> Result<Vec<DeployRecord>, AuditReadError> {
        let records = self.records.lock().unwrap_or_else(|p| p.into_inner());
        Ok(records
            .iter()
            .filter(|r| &r.deploy_id == id)
            .cloned()
            .collect())
    }

    async fn outcomes_since(
        &self,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        let records = self.records.lock().unwrap_or_else(|p| p.into_inner());
        let outcomes: Vec<DeployRecord> = records
            .iter()
            .filter(|r| r.timestamp >= since && r.outcome != AuditOutcome::Started)
            .cloned()
            .collect();
        Ok(outcomes[outcomes.len().saturating_sub(limit)..].to_vec())
    }

    /// The records after index `after`.
    async fn outcomes_after(
        &self,
        after: AuditPosition,
        limit: usize,
    ) -> Result<AuditSlice, AuditReadError> {
        let records = self.records.lock().unwrap_or_else(|p| p.into_inner());
        let start = usize::try_from(after.0)
            .unwrap_or(usize::MAX)
            .min(records.len());
        let mut next = start;
        let mut lines = Vec::new();
        for record in &records[start..] {
            if lines.len() == limit {
                break;
            }
            next += 1;
            if record.outcome != AuditOutcome::Started {
                lines.push(record.clone());
            }
        }
        Ok(AuditSlice {
            lines,
            next: AuditPosition(next as u64),
        })
    }

    async fn verify_chain(
        &self,
        anchors: &ChainAnchors,
    ) -> Result<Vec<ChainReport>, AuditReadError> {
        let lines = self.lines();
        let verdict = verify_lines(
            lines.iter().map(String::as_bytes),
            anchors.get("memory").cloned(),
        );
        Ok(vec![ChainReport {
            log: "memory".into(),
            verdict,
        }])
    }

    fn target(&self) -> String {
        "memory".into()
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

/// A clock that says what it is set to, for tests that let time pass (expiry).
pub struct ManualClock(Mutex<DateTime<Utc>>);

impl ManualClock {
    pub fn new(now: DateTime<Utc>) -> Self {
        Self(Mutex::new(now))
    }

    /// Moves the clock by `by` (negative: back).
    pub fn advance(&self, by: chrono::Duration) {
        let mut now = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *now += by;
    }
}

#[async_trait]
impl Clock for ManualClock {
    async fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}
