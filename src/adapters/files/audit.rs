//! `JsonlAuditSink`: appends one JSON object per line to a file, durably.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use aho_corasick::AhoCorasick;
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::domain::deploy::{AuditOutcome, DeployId, DeployRecord};
use crate::domain::ids::ReleaseName;
use crate::domain::release::ReleaseRecord;
use crate::domain::repository::RepoId;
use crate::ports::audit_sink::{AuditPosition, AuditSlice};
use crate::ports::{AuditError, AuditReadError, AuditSink};

use crate::adapters::files::audit_chain::{next_link, verify_file};
use crate::adapters::files::audit_tail::newest_lines;
use crate::domain::audit_chain::seal::seal_text;
use crate::ports::audit_chain::{ChainAnchors, ChainReport};

/// Each record is sealed into one chained line (its hash and the previous line's, read from
/// the file's end under the lock: see [`crate::domain::audit_chain`]) and appended with a single `write` on a file
/// opened in append mode, under an exclusive lock on the file (so lines from several
/// processes never interleave), then synced to disk before `record` returns. A last line torn
/// by a crash is ended first, so that it stays one unreadable line that readers skip. The
/// file and its directory are created when missing.
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

    /// The newest `limit` records `keep` accepts (one backward read of the file, bounded as
    /// [`newest_lines`]), oldest first.
    async fn oldest_first(
        &self,
        limit: usize,
        keep: impl FnMut(&[u8]) -> Option<DeployRecord> + Send + 'static,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        let path = self.path.clone();
        let read = tokio::task::spawn_blocking(move || newest_lines(&path, limit, keep)).await;
        let failed = |reason: String| AuditReadError::Failed {
            target: self.target(),
            reason,
        };
        let mut lines = read
            .map_err(|e| failed(e.to_string()))?
            .map_err(|e| failed(e.to_string()))?;
        lines.reverse();
        Ok(lines)
    }

    fn error(&self, reason: impl ToString) -> AuditError {
        AuditError {
            target: self.path.display().to_string(),
            reason: reason.to_string(),
        }
    }

    /// Appends one record as one chained line (see the type's doc).
    async fn append(&self, record: String) -> Result<(), AuditError> {
        let _turn = self.turn.lock().await;
        self.blocking(move |path| {
            let mut file = open_for_append(&path)?;
            // Writers of every process take turns, so that a line being written by another
            // is never mistaken for a torn one, and no two lines follow the same line.
            file.lock()?;
            let next = next_link(&path)?;
            let mut line = seal_text(&record, &next)
                .map_err(std::io::Error::other)?
                .into_bytes();
            line.push(b'\n');
            if ends_torn(&path)? {
                line.insert(0, b'\n');
            }
            file.write_all(&line)?;
            file.sync_data()
        })
        .await
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

/// Finds the lines about some repositories without building the records of the others:
/// most lines of a long log are other repositories', and every versions page reads the log
/// back. A line is parsed only when it holds one of their ids, then only for its
/// `repository_uuid`.
struct LinesAbout {
    ids: AhoCorasick,
    repos: HashMap<String, RepoId>,
}

impl LinesAbout {
    fn new(repos: &[RepoId]) -> Self {
        let repos: HashMap<String, RepoId> = repos
            .iter()
            .map(|r| (r.as_str().to_owned(), r.clone()))
            .collect();
        let ids = AhoCorasick::new(repos.keys()).expect("ids are short literal patterns");
        Self { ids, repos }
    }

    /// The repository (one of those asked for) this line is about.
    fn repository(&self, line: &[u8]) -> Option<RepoId> {
        #[derive(Deserialize)]
        struct Key<'a> {
            #[serde(borrow)]
            repository_uuid: Cow<'a, str>,
        }
        if !self.ids.is_match(line) {
            return None;
        }
        let key: Key = serde_json::from_slice(line).ok()?;
        self.repos.get(key.repository_uuid.as_ref()).cloned()
    }
}

/// Opens the file for appending, creating it and its directory when missing.
fn open_for_append(path: &Path) -> std::io::Result<fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    OpenOptions::new().create(true).append(true).open(path)
}

/// Whether the file's last line is torn (a write cut by a crash, never acknowledged): the
/// next line then starts on a line of its own, so the torn one stays one unreadable line
/// (skipped by readers) instead of swallowing the next record.
fn ends_torn(path: &Path) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = fs::File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// The outcome lines after byte `after` of the file at `path` (see
/// [`JsonlAuditSink::outcomes_after`]); a missing file has none yet. A file shorter than
/// `after` is not the one read before (an audit log only grows): it is read from its start.
fn outcomes_from(path: &Path, after: AuditPosition, limit: usize) -> std::io::Result<AuditSlice> {
    use std::io::{BufRead, BufReader, Seek, SeekFrom};
    const STARTED: &[u8] = b"\"outcome\":\"started\"";
    let file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(AuditSlice {
                lines: Vec::new(),
                next: after,
            })
        }
        Err(e) => return Err(e),
    };
    let start = match after.0 <= file.metadata()?.len() {
        true => after.0,
        false => 0,
    };
    let mut reader = BufReader::with_capacity(1 << 16, file);
    reader.seek(SeekFrom::Start(start))?;
    let started = memchr::memmem::Finder::new(STARTED);
    let mut position = start;
    let mut lines = Vec::new();
    let mut line = Vec::new();
    while lines.len() < limit {
        line.clear();
        let read = reader.read_until(b'\n', &mut line)?;
        if read == 0 || line.last() != Some(&b'\n') {
            break;
        }
        position += read as u64;
        if started.find(&line).is_some() {
            continue;
        }
        if let Ok(record) = serde_json::from_slice::<DeployRecord>(&line) {
            if record.outcome != AuditOutcome::Started {
                lines.push(record);
            }
        }
    }
    Ok(AuditSlice {
        lines,
        next: AuditPosition(position),
    })
}

#[async_trait]
impl AuditSink for JsonlAuditSink {
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError> {
        let text = serde_json::to_string(record).map_err(|e| self.error(e))?;
        self.append(text).await
    }

    async fn record_release(&self, record: &ReleaseRecord) -> Result<(), AuditError> {
        let text = serde_json::to_string(record).map_err(|e| self.error(e))?;
        self.append(text).await
    }

    /// One backward read from the file's end (bounded as [`Self::recent_of`]); a line is
    /// parsed only when it holds the release's tag and name.
    async fn recent_releases(
        &self,
        name: &ReleaseName,
        limit: usize,
    ) -> Result<Vec<ReleaseRecord>, AuditReadError> {
        let needle = format!(
            "\"record\":\"release\",\"release\":{{\"name\":{}",
            serde_json::Value::from(name.as_str())
        );
        let finder = memchr::memmem::Finder::new(needle.as_bytes()).into_owned();
        let name = name.clone();
        let path = self.path.clone();
        let read = tokio::task::spawn_blocking(move || {
            newest_lines(&path, limit, |line| {
                finder.find(line)?;
                let record: ReleaseRecord = serde_json::from_slice(line).ok()?;
                (record.release.name == name).then_some(record)
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

    async fn check_writable(&self) -> Result<(), AuditError> {
        self.blocking(|path| open_for_append(&path).map(drop)).await
    }

    /// [`Self::recent_of`] this one repository.
    async fn recent(
        &self,
        repo: &RepoId,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        let mut of = self.recent_of(std::slice::from_ref(repo), limit).await?;
        Ok(of.remove(repo).unwrap_or_default())
    }

    /// One backward read of the file from its end (see [`crate::adapters::files::audit_tail`]) for all of
    /// them: each repository keeps its newest `limit` records, the scan stops once every one
    /// has them. Lines that do not parse as records are skipped.
    async fn recent_of(
        &self,
        repos: &[RepoId],
        limit: usize,
    ) -> Result<HashMap<RepoId, Vec<DeployRecord>>, AuditReadError> {
        let about = LinesAbout::new(repos);
        let path = self.path.clone();
        let total = limit.saturating_mul(repos.len());
        let read = tokio::task::spawn_blocking(move || {
            let mut kept: HashMap<RepoId, usize> = HashMap::new();
            newest_lines(&path, total, |line| {
                let repo = about.repository(line)?;
                let record: DeployRecord = serde_json::from_slice(line).ok()?;
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

    /// One backward read from the file's end, stopping at the deploy's first line found after
    /// its outcome (a deploy has two lines; an old one costs a longer read).
    async fn lines_of(&self, id: &DeployId) -> Result<Vec<DeployRecord>, AuditReadError> {
        let needle = format!("\"deploy_id\":{}", serde_json::Value::from(id.as_str()));
        let id = id.clone();
        let finder = memchr::memmem::Finder::new(needle.as_bytes()).into_owned();
        self.oldest_first(2, move |line| {
            finder.find(line)?;
            let record: DeployRecord = serde_json::from_slice(line).ok()?;
            (record.deploy_id == id).then_some(record)
        })
        .await
    }

    /// One backward read from the file's end (bounded as [`Self::recent_of`]); lines are in
    /// the order they were written, so the read keeps those at or after `since`.
    async fn outcomes_since(
        &self,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        self.oldest_first(limit, move |line| {
            let record: DeployRecord = serde_json::from_slice(line).ok()?;
            (record.timestamp >= since && record.outcome != AuditOutcome::Started).then_some(record)
        })
        .await
    }

    /// One forward read from byte `after` to the last whole line (a line still without its
    /// newline is read once it has one), parsing the lines that are not `started` ones.
    async fn outcomes_after(
        &self,
        after: AuditPosition,
        limit: usize,
    ) -> Result<AuditSlice, AuditReadError> {
        let path = self.path.clone();
        let read = tokio::task::spawn_blocking(move || outcomes_from(&path, after, limit)).await;
        let failed = |reason: String| AuditReadError::Failed {
            target: self.target(),
            reason,
        };
        read.map_err(|e| failed(e.to_string()))?
            .map_err(|e| failed(e.to_string()))
    }

    /// The whole file, read from its first line (one report, named by the file's path).
    async fn verify_chain(
        &self,
        anchors: &ChainAnchors,
    ) -> Result<Vec<ChainReport>, AuditReadError> {
        let log = self.target();
        let anchor = anchors.get(&log).cloned();
        let path = self.path.clone();
        let read = tokio::task::spawn_blocking(move || verify_file(&path, anchor)).await;
        let failed = |reason: String| AuditReadError::Failed {
            target: self.target(),
            reason,
        };
        let verdict = read
            .map_err(|e| failed(e.to_string()))?
            .map_err(|e| failed(e.to_string()))?;
        Ok(vec![ChainReport { log, verdict }])
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}

#[cfg(test)]
#[path = "audit_properties.rs"]
mod properties;
