//! `JsonlCheckStore`: check reports and promotion claims in one JSON Lines file beside the
//! audit file (`checks.jsonl`), one line per fact, in the order they happened:
//! `{"line": "report", "repository_uuid", "environment", "version", "name", "passed", "url",
//! "reporter", "at", ...}`, `{"line": "claimed", "repository_uuid", "environment", "version"}`
//! and `{"line": "released", ...}`. Every report is kept (the checks' audit); the latest of a
//! check counts.
//!
//! Writes are made under this process's mutex and an exclusive lock on the file (`flock`,
//! released when the file is closed), in one `write`, synced before `Ok`: a claim reads the
//! file under that lock, so of two processes claiming the same promotion one finds the
//! other's line. Reads take no lock: a line being written (or torn by a crash, never
//! acknowledged) is not read. Reads and claims go through an index ([`super::checks_index`]):
//! only the lines appended since the last read are read, and a file a pruning renamed over it
//! is read again whole (see the book's performance page).

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::check::retention::prunable;
use crate::domain::check::{CheckReport, PromotionKey};
use crate::domain::repository::RepoId;
use crate::ports::{CheckStore, CheckStoreError};

use super::appending::{append_line, ends_torn};
use super::checks_index::CheckIndex;
use super::checks_line::Line;
use super::requests::rewrite_keeping;
use super::tail::LineIndex;

pub struct JsonlCheckStore {
    path: PathBuf,
    /// Serializes this process's writers (the file lock serializes processes).
    turn: tokio::sync::Mutex<()>,
    /// What the file holds, read as it grows.
    index: Arc<Mutex<CheckIndex>>,
}

impl JsonlCheckStore {
    /// Checks kept in `path` (created with its directory when first written).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            turn: tokio::sync::Mutex::new(()),
            index: Arc::default(),
        }
    }

    fn unavailable(&self, reason: impl ToString) -> CheckStoreError {
        CheckStoreError {
            target: self.target(),
            reason: reason.to_string(),
        }
    }

    /// Runs `work` on the blocking pool, under this process's turn.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Path, &str, &mut CheckIndex) -> std::io::Result<T> + Send + 'static,
    ) -> Result<T, CheckStoreError> {
        let _turn = self.turn.lock().await;
        self.with_index(work).await
    }

    /// Runs `work` on the blocking pool, with the index (and no turn: reads take none).
    async fn with_index<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Path, &str, &mut CheckIndex) -> std::io::Result<T> + Send + 'static,
    ) -> Result<T, CheckStoreError> {
        let path = self.path.clone();
        let target = self.target();
        let index = self.index.clone();
        let done = tokio::task::spawn_blocking(move || {
            let mut index = index.lock().unwrap_or_else(|p| p.into_inner());
            work(&path, &target, &mut index)
        });
        match done.await {
            Err(joined) => Err(self.unavailable(joined)),
            Ok(Err(error)) => Err(self.unavailable(error)),
            Ok(Ok(value)) => Ok(value),
        }
    }
}

/// The file opened to read and append (created with its directory), locked exclusively,
/// re-opened when a pruning renamed a new file over it.
fn open_locked(path: &Path) -> std::io::Result<File> {
    super::requests::open_locked(path)
}

fn locked_bytes(file: &mut File) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Appends `line` to the locked `file` (see [`append_line`]).
fn append(file: &mut File, torn: bool, line: &Line) -> std::io::Result<()> {
    let bytes = serde_json::to_vec(line).map_err(std::io::Error::other)?;
    append_line(file, torn, &bytes)
}

#[async_trait]
impl CheckStore for JsonlCheckStore {
    async fn record(&self, report: &CheckReport) -> Result<(), CheckStoreError> {
        let line = Line::Report(report.clone());
        self.blocking(move |path, _, _| {
            let mut file = open_locked(path)?;
            let torn = ends_torn(&mut file)?;
            append(&mut file, torn, &line)
        })
        .await
    }

    async fn latest(
        &self,
        repo: &RepoId,
        version: Option<u64>,
    ) -> Result<Vec<CheckReport>, CheckStoreError> {
        let repo = repo.as_str().to_owned();
        self.with_index(move |path, target, index| {
            match File::open(path) {
                Ok(mut file) => index.refresh(&mut file, target)?,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => index.clear(),
                Err(error) => return Err(error),
            }
            Ok(index.latest(&repo, version))
        })
        .await
    }

    async fn reported_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<CheckReport>, CheckStoreError> {
        self.with_index(move |path, target, index| {
            match File::open(path) {
                Ok(mut file) => index.refresh(&mut file, target)?,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => index.clear(),
                Err(error) => return Err(error),
            }
            Ok(index.reported_between(from, to))
        })
        .await
    }

    async fn claim_promotion(&self, key: &PromotionKey) -> Result<bool, CheckStoreError> {
        let key = key.clone();
        self.blocking(move |path, target, index| {
            let mut file = open_locked(path)?;
            index.refresh(&mut file, target)?;
            if index.is_claimed(&key) {
                return Ok(false);
            }
            append(&mut file, index.ends_torn(), &Line::Claimed(key))?;
            Ok(true)
        })
        .await
    }

    async fn release_promotion(&self, key: &PromotionKey) -> Result<(), CheckStoreError> {
        let line = Line::Released(key.clone());
        self.blocking(move |path, _, _| {
            let mut file = open_locked(path)?;
            let torn = ends_torn(&mut file)?;
            append(&mut file, torn, &line)
        })
        .await
    }

    /// Under the file lock: the reports the retention names go (the file rewritten beside it
    /// and renamed over it); every other line stays as it was.
    async fn prune(&self, kept_from: DateTime<Utc>) -> Result<usize, CheckStoreError> {
        self.blocking(move |path, _, index| {
            let mut file = open_locked(path)?;
            let before = locked_bytes(&mut file)?;
            let lines: Vec<Option<Line>> = before
                .split_inclusive(|b| *b == b'\n')
                .map(|raw| serde_json::from_slice(raw.trim_ascii_end()).ok())
                .collect();
            let (at, reports): (Vec<usize>, Vec<CheckReport>) = lines
                .iter()
                .enumerate()
                .filter_map(|(i, line)| match line {
                    Some(Line::Report(report)) => Some((i, report.clone())),
                    _ => None,
                })
                .unzip();
            let gone: BTreeSet<usize> = prunable(&reports, kept_from)
                .into_iter()
                .map(|r| at[r])
                .collect();
            if gone.is_empty() {
                return Ok(0);
            }
            let mut line = 0;
            let removed = rewrite_keeping(path, &before, |_| {
                line += 1;
                !gone.contains(&(line - 1))
            })?;
            index.clear();
            Ok(removed)
        })
        .await
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}

#[cfg(test)]
#[path = "checks_properties.rs"]
mod properties;
