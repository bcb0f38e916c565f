//! `JsonlAuditSink`: appends one JSON object per line to a file, durably.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use async_trait::async_trait;

use crate::domain::{DeployRecord, RepoId};
use crate::ports::{AuditError, AuditReadError, AuditSink};

use super::audit_tail::newest_lines;

/// Each record is serialized to one line and appended with a single `write` on a file
/// opened in append mode (so lines from several processes never interleave), then synced
/// to disk before `record` returns. The file and its directory are created when missing.
pub struct JsonlAuditSink {
    path: PathBuf,
    /// Serializes this process's writers (one line at a time, in order).
    turn: tokio::sync::Mutex<()>,
}

impl JsonlAuditSink {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            turn: tokio::sync::Mutex::new(()),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, reason: impl ToString) -> AuditError {
        AuditError {
            target: self.path.display().to_string(),
            reason: reason.to_string(),
        }
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(PathBuf) -> std::io::Result<T> + Send + 'static,
    ) -> Result<T, AuditError> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || work(path))
            .await
            .map_err(|e| self.error(e))?
            .map_err(|e| self.error(e))
    }
}

/// Opens the file for appending, creating it and its directory when missing.
fn open_for_append(path: &Path) -> std::io::Result<fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    OpenOptions::new().create(true).append(true).open(path)
}

#[async_trait]
impl AuditSink for JsonlAuditSink {
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError> {
        let mut line = serde_json::to_vec(record).map_err(|e| self.error(e))?;
        line.push(b'\n');
        let _turn = self.turn.lock().await;
        self.blocking(move |path| {
            let mut file = open_for_append(&path)?;
            file.write_all(&line)?;
            file.sync_data()
        })
        .await
    }

    async fn check_writable(&self) -> Result<(), AuditError> {
        self.blocking(|path| open_for_append(&path).map(drop)).await
    }

    /// Reads the file backwards from its end (see [`super::audit_tail`]); lines that do not
    /// parse as records are skipped.
    async fn recent(
        &self,
        repo: &RepoId,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        let repo = repo.as_str().to_owned();
        let path = self.path.clone();
        let read = tokio::task::spawn_blocking(move || {
            newest_lines(&path, limit, |line| {
                let record: DeployRecord = serde_json::from_slice(line).ok()?;
                (record.repository_uuid == repo).then_some(record)
            })
        })
        .await;
        let failed = |reason: String| AuditReadError::Failed {
            target: self.target(),
            reason,
        };
        read.map_err(|e| failed(e.to_string()))?
            .map_err(|e| failed(e.to_string()))
    }

    /// One backward read of the file for all of them: each repository keeps its newest
    /// `limit` records (the same as [`Self::recent`] of each), the scan stops once every one
    /// has them.
    async fn recent_of(
        &self,
        repos: &[RepoId],
        limit: usize,
    ) -> Result<HashMap<RepoId, Vec<DeployRecord>>, AuditReadError> {
        let wanted: HashMap<String, RepoId> = repos
            .iter()
            .map(|r| (r.as_str().to_owned(), r.clone()))
            .collect();
        let path = self.path.clone();
        let total = limit.saturating_mul(wanted.len());
        let read = tokio::task::spawn_blocking(move || {
            let kept: std::cell::RefCell<HashMap<RepoId, usize>> = Default::default();
            newest_lines(&path, total, |line| {
                let record: DeployRecord = serde_json::from_slice(line).ok()?;
                let repo = wanted.get(&record.repository_uuid)?;
                let mut kept = kept.borrow_mut();
                let count = kept.entry(repo.clone()).or_default();
                (*count < limit).then(|| {
                    *count += 1;
                    (repo.clone(), record)
                })
            })
        })
        .await;
        let failed = |reason: String| AuditReadError::Failed {
            target: self.target(),
            reason,
        };
        let lines = read
            .map_err(|e| failed(e.to_string()))?
            .map_err(|e| failed(e.to_string()))?;
        let mut by_repo: HashMap<RepoId, Vec<DeployRecord>> =
            repos.iter().map(|r| (r.clone(), Vec::new())).collect();
        for (repo, record) in lines {
            by_repo.entry(repo).or_default().push(record);
        }
        Ok(by_repo)
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
