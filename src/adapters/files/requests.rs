//! `JsonlRequestStore`: approval requests in one JSON Lines file (beside the audit file), one
//! line per entry: `{"request_id", "seq": 0, "event": "requested", "at", "request": {...}}`
//! for the request itself, then `{"request_id", "seq": n, "event": "approved", "by", "person",
//! "at"}` (`person`: the canonical key of who acted) and so on for each event, in the order
//! they happened.
//!
//! Creating and appending are compare-and-swap across processes as well as tasks: under this
//! process's mutex and an exclusive lock on the file (`flock`, released when the file is
//! closed), the file is read, the request's entries counted, and the new line written in one
//! `write` and synced to disk before `Ok` is returned. Reading takes no lock: a line being
//! written (or torn by a crash: never acknowledged) is an incomplete last line, skipped.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use chrono::SecondsFormat;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::{ApprovalRequest, RepoId, RequestEvent, RequestId, RequestLog};
use crate::ports::{RequestStore, RequestStoreError};

pub struct JsonlRequestStore {
    path: PathBuf,
    /// Serializes this process's writers (the file lock serializes processes).
    turn: tokio::sync::Mutex<()>,
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

/// One line as read: the entry's fields are read by `seq` (0: the request, else an event).
#[derive(Deserialize)]
struct Line {
    request_id: RequestId,
    seq: usize,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

/// Why a write under the lock was not made.
enum Refused {
    Conflict,
    NoRequest(RequestId),
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
        Self {
            path: path.into(),
            turn: tokio::sync::Mutex::new(()),
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
            Ok(Err(Refused::Io(error))) => Err(self.unavailable(error)),
        }
    }

    /// Every request in the file, in the order they were made.
    async fn read_all(&self) -> Result<Vec<RequestLog>, RequestStoreError> {
        self.blocking(|path| match fs::read(&path) {
            Ok(bytes) => Ok(parse(&bytes)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(error) => Err(Refused::Io(error)),
        })
        .await
    }
}

/// The file opened for reading and appending (created with its directory when missing),
/// locked exclusively against the other processes, and what it holds.
fn open_locked(path: &Path) -> std::io::Result<(File, Vec<u8>)> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    // A compaction (another process's) may have renamed a new file over the one opened:
    // locked, the file must still be the one the path names, else open it again.
    loop {
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        file.lock()?;
        if !same_file(&file, path)? {
            continue;
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        return Ok((file, bytes));
    }
}

/// Whether `path` still names the open `file`.
fn same_file(file: &File, path: &Path) -> std::io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let (open, named) = (file.metadata()?, fs::metadata(path)?);
    Ok(open.dev() == named.dev() && open.ino() == named.ino())
}

/// Rewrites the locked file (holding `before`) without the lines of requests `ids`: a new
/// file beside it, synced, renamed over it (atomic; a crash leaves the old file whole), the
/// directory synced. Every other line is kept as it was. Answers how many requests went.
fn rewrite_without(path: &Path, before: &[u8], ids: &[RequestId]) -> std::io::Result<usize> {
    let gone: std::collections::HashSet<&RequestId> = ids.iter().collect();
    let mut removed = std::collections::HashSet::new();
    let mut kept = Vec::with_capacity(before.len());
    for raw in before.split_inclusive(|b| *b == b'\n') {
        let id = serde_json::from_slice::<Line>(raw.trim_ascii_end())
            .ok()
            .map(|line| line.request_id);
        match id {
            Some(id) if gone.contains(&id) => {
                removed.insert(id);
            }
            _ => kept.extend_from_slice(raw),
        }
    }
    if removed.is_empty() {
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
    Ok(removed.len())
}

/// Appends `line` (one JSON object) to the locked `file` holding `before`, in one write, and
/// syncs it. A torn last line (a write that never returned) is ended first, so that it stays
/// one unreadable line rather than swallowing this one.
fn append_line(path: &Path, file: &mut File, before: &[u8], line: &[u8]) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(line.len() + 2);
    if !before.is_empty() && !before.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.extend_from_slice(line);
    out.push(b'\n');
    file.write_all(&out)?;
    file.sync_data()?;
    if before.is_empty() {
        sync_directory(path);
    }
    Ok(())
}

/// Makes a newly created file's name durable (best effort: not every platform can).
fn sync_directory(path: &Path) {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// The requests the file holds, in the order they were made, each with its events in order.
/// Lines that cannot be read are skipped: a torn last line (a write interrupted by a crash,
/// never acknowledged), or anything else that is not an entry.
fn parse(bytes: &[u8]) -> Vec<RequestLog> {
    let mut logs: Vec<RequestLog> = Vec::new();
    let mut index: HashMap<RequestId, usize> = HashMap::new();
    let mut skipped = 0usize;
    for raw in bytes.split(|b| *b == b'\n') {
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Ok(line) = serde_json::from_slice::<Line>(raw) else {
            skipped += 1;
            continue;
        };
        let Line {
            request_id,
            seq,
            mut rest,
        } = line;
        if seq == 0 {
            let request = rest
                .remove("request")
                .and_then(|value| serde_json::from_value::<ApprovalRequest>(value).ok())
                .filter(|request| request.id == request_id);
            match request {
                Some(request) if !index.contains_key(&request_id) => {
                    index.insert(request_id, logs.len());
                    logs.push(RequestLog {
                        request,
                        events: Vec::new(),
                    });
                }
                _ => skipped += 1,
            }
            continue;
        }
        let event = serde_json::from_value::<RequestEvent>(Value::Object(rest));
        match (index.get(&request_id), event) {
            (Some(&i), Ok(event)) => logs[i].events.push(event),
            _ => skipped += 1,
        }
    }
    if skipped > 0 {
        tracing::debug!(skipped, "request store lines skipped (torn or not entries)");
    }
    logs
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
        self.blocking(move |path| {
            let (mut file, before) = open_locked(&path)?;
            if parse(&before).iter().any(|log| log.request.id == id) {
                return Err(Refused::Conflict);
            }
            append_line(&path, &mut file, &before, &line)?;
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
        self.blocking(move |path| {
            let (mut file, before) = open_locked(&path)?;
            let logs = parse(&before);
            let log = logs
                .iter()
                .find(|log| log.request.id == id)
                .ok_or_else(|| Refused::NoRequest(id.clone()))?;
            if log.events.len() != seen {
                return Err(Refused::Conflict);
            }
            append_line(&path, &mut file, &before, &line)?;
            Ok(())
        })
        .await
    }

    async fn get(&self, id: &RequestId) -> Result<Option<RequestLog>, RequestStoreError> {
        Ok(self
            .read_all()
            .await?
            .into_iter()
            .find(|log| &log.request.id == id))
    }

    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<RequestLog>, RequestStoreError> {
        Ok(self
            .read_all()
            .await?
            .into_iter()
            .rev()
            .filter(|log| repo.is_none_or(|r| log.request.repository_uuid == r.as_str()))
            .take(limit)
            .collect())
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
            let (_locked, before) = open_locked(&path)?;
            Ok(rewrite_without(&path, &before, &ids)?)
        })
        .await
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
