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
//! acknowledged) is not read. The file is read whole at each read, and only its lines that
//! may matter (of the repository asked, or claims) are parsed: its size grows with the number
//! of reports (see the book's performance page).

use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::check::report::{latest_of, CheckReport, PromotionKey};
use crate::domain::check::retention::prunable;
use crate::domain::RepoId;
use crate::ports::{CheckStore, CheckStoreError};

use super::requests::rewrite_keeping;

pub struct JsonlCheckStore {
    path: PathBuf,
    /// Serializes this process's writers (the file lock serializes processes).
    turn: tokio::sync::Mutex<()>,
}

/// One line of the file.
#[derive(Serialize, Deserialize)]
#[serde(tag = "line", rename_all = "snake_case")]
enum Line {
    Report(CheckReport),
    Claimed(PromotionKey),
    Released(PromotionKey),
}

impl JsonlCheckStore {
    /// Checks kept in `path` (created with its directory when first written).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            turn: tokio::sync::Mutex::new(()),
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
        work: impl FnOnce(&Path) -> std::io::Result<T> + Send + 'static,
    ) -> Result<T, CheckStoreError> {
        let _turn = self.turn.lock().await;
        let path = self.path.clone();
        match tokio::task::spawn_blocking(move || work(&path)).await {
            Err(joined) => Err(self.unavailable(joined)),
            Ok(Err(error)) => Err(self.unavailable(error)),
            Ok(Ok(value)) => Ok(value),
        }
    }
}

/// Every whole line of `bytes` holding `needle` (as this store writes its lines: compact JSON)
/// that parses; a torn last line is left out. Only the lines that may matter are parsed.
fn lines_with(bytes: &[u8], needle: &[u8]) -> Vec<Line> {
    let finder = memchr::memmem::Finder::new(needle);
    bytes
        .split(|b| *b == b'\n')
        .filter(|raw| finder.find(raw).is_some())
        .filter_map(|raw| serde_json::from_slice(raw).ok())
        .collect()
}

/// The lines of claims and their releases (`"line":"claimed"`, `"line":"released"`).
fn claim_lines(bytes: &[u8]) -> Vec<Line> {
    let claimed = memchr::memmem::Finder::new(b"\"line\":\"claimed\"");
    let released = memchr::memmem::Finder::new(b"\"line\":\"released\"");
    bytes
        .split(|b| *b == b'\n')
        .filter(|raw| claimed.find(raw).is_some() || released.find(raw).is_some())
        .filter_map(|raw| serde_json::from_slice(raw).ok())
        .collect()
}

/// The file's bytes; none when it does not exist yet.
fn read_all(path: &Path) -> std::io::Result<Vec<u8>> {
    match fs::read(path) {
        Ok(bytes) => Ok(bytes),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(error) => Err(error),
    }
}

/// The file opened to read and append (created with its directory), locked exclusively.
/// The file locked exclusively, re-opened when a pruning renamed a new file over it.
fn open_locked(path: &Path) -> std::io::Result<File> {
    super::requests::open_locked(path)
}

fn locked_bytes(file: &mut File) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Whether the locked `file` ends with a torn line (its last byte is not a newline): only
/// that byte is read.
fn ends_torn(file: &mut File) -> std::io::Result<bool> {
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1))?;
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// Appends `line` to the locked `file` in one write, and syncs it; a torn last line (`torn`)
/// is ended first, so that it stays one unreadable line.
fn append(file: &mut File, torn: bool, line: &Line) -> std::io::Result<()> {
    let mut out = Vec::new();
    if torn {
        out.push(b'\n');
    }
    serde_json::to_writer(&mut out, line).map_err(std::io::Error::other)?;
    out.push(b'\n');
    file.write_all(&out)?;
    file.sync_data()
}

/// The promotions claimed and not released, by the lines in order.
fn claimed(lines: &[Line]) -> BTreeSet<&PromotionKey> {
    let mut claimed = BTreeSet::new();
    for line in lines {
        match line {
            Line::Claimed(key) => {
                claimed.insert(key);
            }
            Line::Released(key) => {
                claimed.remove(key);
            }
            Line::Report(_) => {}
        }
    }
    claimed
}

#[async_trait]
impl CheckStore for JsonlCheckStore {
    async fn record(&self, report: &CheckReport) -> Result<(), CheckStoreError> {
        let line = Line::Report(report.clone());
        self.blocking(move |path| {
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
        let path = self.path.clone();
        let repo = repo.as_str().to_owned();
        let read = tokio::task::spawn_blocking(move || read_all(&path))
            .await
            .map_err(|e| self.unavailable(e))?
            .map_err(|e| self.unavailable(e))?;
        let needle = format!("\"repository_uuid\":\"{repo}\"");
        let reports =
            lines_with(&read, needle.as_bytes())
                .into_iter()
                .filter_map(|line| match line {
                    Line::Report(report)
                        if report.key.repository_uuid == repo
                            && version.is_none_or(|v| report.key.version == v) =>
                    {
                        Some(report)
                    }
                    _ => None,
                });
        Ok(latest_of(reports))
    }

    async fn claim_promotion(&self, key: &PromotionKey) -> Result<bool, CheckStoreError> {
        let key = key.clone();
        self.blocking(move |path| {
            let mut file = open_locked(path)?;
            let before = locked_bytes(&mut file)?;
            if claimed(&claim_lines(&before)).contains(&key) {
                return Ok(false);
            }
            let torn = before.last().is_some_and(|b| *b != b'\n');
            append(&mut file, torn, &Line::Claimed(key))?;
            Ok(true)
        })
        .await
    }

    async fn release_promotion(&self, key: &PromotionKey) -> Result<(), CheckStoreError> {
        let line = Line::Released(key.clone());
        self.blocking(move |path| {
            let mut file = open_locked(path)?;
            let torn = ends_torn(&mut file)?;
            append(&mut file, torn, &line)
        })
        .await
    }

    /// Under the file lock: the reports the retention names go (the file rewritten beside it
    /// and renamed over it); every other line stays as it was.
    async fn prune(&self, kept_from: DateTime<Utc>) -> Result<usize, CheckStoreError> {
        self.blocking(move |path| {
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
            rewrite_keeping(path, &before, |_| {
                line += 1;
                !gone.contains(&(line - 1))
            })
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
