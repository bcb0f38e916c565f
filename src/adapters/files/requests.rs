//! `JsonlRequestStore`: approval requests in one JSON Lines file (beside the audit file), one
//! line per entry: `{"request_id", "seq": 0, "event": "requested", "at", "request": {...}}`
//! for the request itself, then `{"request_id", "seq": n, "event": "approved", "by", "person",
//! "at"}` (`person`: the canonical key of who acted) and so on for each event, in the order
//! they happened.
//!
//! Creating and appending are compare-and-swap across processes as well as tasks: under this
//! process's mutex and an exclusive lock on the file (`flock`, released when the file is
//! closed), what was appended since the last read is read into the index
//! ([`super::requests_index`]: listing and acting cost what was written since, not the whole
//! history), the request's entries counted, and the new line written in one `write` and synced
//! to disk before `Ok` is returned. Reading takes no lock: a line being written (or torn by a
//! crash: never acknowledged) is an incomplete last line, not read yet.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::SecondsFormat;
use serde::Serialize;

use crate::domain::approval::{ApprovalRequest, RequestEvent, RequestLog};
use crate::domain::ids::{RequestId, UnreadableRequest};
use crate::domain::repository::RepoId;
use crate::ports::{RequestStore, RequestStoreError};

use super::requests_index::{Line, RequestIndex};

pub struct JsonlRequestStore {
    path: PathBuf,
    /// Serializes this process's writers (the file lock serializes processes).
    turn: tokio::sync::Mutex<()>,
    /// What the file holds, read as it grows.
    index: Arc<Mutex<RequestIndex>>,
}

/// One line as written.
#[derive(Serialize)]
struct Written<'a> {
    request_id: &'a RequestId,
    seq: usize,
    #[serde(flatten)]
    entry: Entry<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Entry<'a> {
    Request {
        /// Always "requested": every line says what it records.
        event: &'static str,
        at: String,
        request: &'a ApprovalRequest,
    },
    Event(&'a RequestEvent),
}

/// Why a write under the lock was not made.
enum Refused {
    Conflict,
    NoRequest(RequestId),
    Unreadable(UnreadableRequest),
    Io(std::io::Error),
}

impl From<std::io::Error> for Refused {
    fn from(error: std::io::Error) -> Self {
        Self::Io(error)
    }
}

impl JsonlRequestStore {
    /// Requests kept in `path` (created with its directory when first written).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let index = RequestIndex::of(path.display().to_string());
        Self {
            path,
            turn: tokio::sync::Mutex::new(()),
            index: Arc::new(Mutex::new(index)),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn unavailable(&self, reason: impl ToString) -> RequestStoreError {
        RequestStoreError::Unavailable {
            target: self.target(),
            reason: reason.to_string(),
        }
    }

    /// Runs `work` on the blocking pool.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(PathBuf) -> Result<T, Refused> + Send + 'static,
    ) -> Result<T, RequestStoreError> {
        let path = self.path.clone();
        match tokio::task::spawn_blocking(move || work(path)).await {
            Err(joined) => Err(self.unavailable(joined)),
            Ok(Ok(value)) => Ok(value),
            Ok(Err(Refused::Conflict)) => Err(RequestStoreError::Conflict),
            Ok(Err(Refused::NoRequest(id))) => Err(self.unavailable(format!("no request {id}"))),
            Ok(Err(Refused::Unreadable(u))) => Err(RequestStoreError::Unreadable(u)),
            Ok(Err(Refused::Io(error))) => Err(self.unavailable(error)),
        }
    }

    /// Runs `read` on the index brought up to date with the file (no lock: a line being
    /// written is not read yet). A missing file holds no request.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&RequestIndex) -> T + Send + 'static,
    ) -> Result<T, RequestStoreError> {
        let index = self.index.clone();
        self.blocking(move |path| {
            let mut index = index.lock().unwrap_or_else(|p| p.into_inner());
            match File::open(&path) {
                Ok(mut file) => index.refresh(&mut file)?,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    index.clear();
                }
                Err(error) => return Err(Refused::Io(error)),
            }
            Ok(read(&index))
        })
        .await
    }
}

/// The file opened for reading and appending (created with its directory when missing),
/// locked exclusively against the other processes.
pub(super) fn open_locked(path: &Path) -> std::io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    // A compaction (another process's) may have renamed a new file over the one opened:
    // locked, the file must still be the one the path names, else open it again.
    loop {
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        file.lock()?;
        if !same_file(&file, path)? {
            continue;
        }
        return Ok(file);
    }
}

/// Whether `path` still names the open `file`.
fn same_file(file: &File, path: &Path) -> std::io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let (open, named) = (file.metadata()?, fs::metadata(path)?);
    Ok(open.dev() == named.dev() && open.ino() == named.ino())
}

/// Rewrites the locked file (holding `before`) without the lines of requests `ids`. Answers
/// how many requests went.
fn rewrite_without(path: &Path, before: &[u8], ids: &[RequestId]) -> std::io::Result<usize> {
    let gone: std::collections::HashSet<&RequestId> = ids.iter().collect();
    let mut removed = std::collections::HashSet::new();
    rewrite_keeping(path, before, |raw| {
        let id = serde_json::from_slice::<Line>(raw)
            .ok()
            .map(|line| line.request_id);
        match id {
            Some(id) if gone.contains(&id) => {
                removed.insert(id);
                false
            }
            _ => true,
        }
    })?;
    Ok(removed.len())
}

/// Rewrites the locked file (holding `before`) with only the lines `keep` keeps (given each
/// line without its newline): a new file beside it, synced, renamed over it (atomic; a
/// crash leaves the old file whole), the directory synced. Every line kept stays as it was.
/// Nothing is written when every line is kept. Answers how many lines went.
pub(super) fn rewrite_keeping(
    path: &Path,
    before: &[u8],
    mut keep: impl FnMut(&[u8]) -> bool,
) -> std::io::Result<usize> {
    let mut kept = Vec::with_capacity(before.len());
    let mut removed = 0;
    for raw in before.split_inclusive(|b| *b == b'\n') {
        if keep(raw.trim_ascii_end()) {
            kept.extend_from_slice(raw);
        } else {
            removed += 1;
        }
    }
    if removed == 0 {
        return Ok(0);
    }
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".compacting");
    let temporary = path.with_file_name(name);
    let mut out = File::create(&temporary)?;
    out.write_all(&kept)?;
    out.sync_all()?;
    fs::rename(&temporary, path)?;
    sync_directory(path);
    Ok(removed)
}

/// Appends `line` (one JSON object) to the locked `file`, as `index` read it, in one write,
/// and syncs it. A torn last line (a write that never returned) is ended first, so that it
/// stays one unreadable line rather than swallowing this one.
fn append_line(
    path: &Path,
    file: &mut File,
    index: &RequestIndex,
    line: &[u8],
) -> std::io::Result<()> {
    super::appending::append_line(file, index.ends_torn(), line)?;
    if index.is_empty_file() {
        sync_directory(path);
    }
    Ok(())
}

/// Makes a newly created file's name durable (best effort: not every platform can).
pub(super) fn sync_directory(path: &Path) {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

fn encode(written: &Written<'_>) -> std::io::Result<Vec<u8>> {
    serde_json::to_vec(written).map_err(std::io::Error::other)
}

#[async_trait]
impl RequestStore for JsonlRequestStore {
    async fn create(&self, request: &ApprovalRequest) -> Result<(), RequestStoreError> {
        let line = encode(&Written {
            request_id: &request.id,
            seq: 0,
            entry: Entry::Request {
                event: "requested",
                at: request.created.to_rfc3339_opts(SecondsFormat::Millis, true),
                request,
            },
        })
        .map_err(|e| self.unavailable(e))?;
        let id = request.id.clone();
        let _turn = self.turn.lock().await;
        let index = self.index.clone();
        self.blocking(move |path| {
            let mut file = open_locked(&path)?;
            let mut index = index.lock().unwrap_or_else(|p| p.into_inner());
            index.refresh(&mut file)?;
            if index.knows(&id) {
                return Err(Refused::Conflict);
            }
            append_line(&path, &mut file, &index, &line)?;
            Ok(())
        })
        .await
    }

    async fn append(
        &self,
        id: &RequestId,
        seen: usize,
        event: &RequestEvent,
    ) -> Result<(), RequestStoreError> {
        let line = encode(&Written {
            request_id: id,
            seq: seen + 1,
            entry: Entry::Event(event),
        })
        .map_err(|e| self.unavailable(e))?;
        let id = id.clone();
        let _turn = self.turn.lock().await;
        let index = self.index.clone();
        self.blocking(move |path| {
            let mut file = open_locked(&path)?;
            let mut index = index.lock().unwrap_or_else(|p| p.into_inner());
            index.refresh(&mut file)?;
            let log = index
                .get(&id)
                .map_err(|u| Refused::Unreadable(u.clone()))?
                .ok_or_else(|| Refused::NoRequest(id.clone()))?;
            if log.events.len() != seen {
                return Err(Refused::Conflict);
            }
            append_line(&path, &mut file, &index, &line)?;
            Ok(())
        })
        .await
    }

    async fn get(&self, id: &RequestId) -> Result<Option<RequestLog>, RequestStoreError> {
        let id = id.clone();
        self.read(move |index| {
            index
                .get(&id)
                .map(Option::<&RequestLog>::cloned)
                .map_err(Clone::clone)
        })
        .await?
        .map_err(RequestStoreError::Unreadable)
    }

    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<RequestLog>, RequestStoreError> {
        let repo = repo.cloned();
        self.read(move |index| {
            index
                .newest_first()
                .filter(|log| {
                    repo.as_ref()
                        .is_none_or(|r| log.request.repository_uuid == r.as_str())
                })
                .take(limit)
                .cloned()
                .collect()
        })
        .await
    }

    /// Under the file lock (so no other process appends meanwhile; each re-opens the file
    /// once it has the lock, see `open_locked`) and this process's turn.
    async fn remove(&self, ids: &[RequestId]) -> Result<usize, RequestStoreError> {
        if ids.is_empty() {
            return Ok(0);
        }
        let ids = ids.to_vec();
        let _turn = self.turn.lock().await;
        self.blocking(move |path| {
            let mut locked = open_locked(&path)?;
            let mut before = Vec::new();
            locked.seek(std::io::SeekFrom::Start(0))?;
            locked.read_to_end(&mut before)?;
            Ok(rewrite_without(&path, &before, &ids)?)
        })
        .await
    }

    async fn unreadable(&self) -> Result<Vec<UnreadableRequest>, RequestStoreError> {
        self.read(RequestIndex::unreadable).await
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}

#[cfg(test)]
#[path = "requests_properties.rs"]
mod properties;
