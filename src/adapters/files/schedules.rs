//! `JsonlScheduleStore`: scheduled deploys in one JSON Lines file beside the audit file
//! (`schedules.jsonl`), one line per revision of a schedule (the whole schedule, with its
//! `revision`, written and read by [`crate::domain::schedule::record`]); the last line of an
//! id is the schedule as it is now.
//!
//! Creating and replacing are compare-and-swap across processes as well as tasks: under this
//! process's mutex and an exclusive lock on the file (`flock`, released when the file is
//! closed), what was appended since the last read is read into the index
//! ([`super::schedules_index`]: a look at the due schedules costs what was written since, not
//! the whole file), the schedule's last revision compared, and the new line written in one
//! `write` and synced to disk before `Ok` is returned. Reading takes no lock: a line being
//! written (or torn by a crash: never acknowledged) is an incomplete last line, not read yet;
//! once a later line follows it, it is a line that cannot be read, and the schedule it names
//! is unreadable (never run) until the line is mended or removed. Ended schedules past their
//! retention are removed by rewriting the file beside it and renaming it over (atomic).

use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::domain::ids::ScheduleId;
use crate::domain::repository::RepoId;
use crate::domain::schedule::record::{self, UnreadableSchedule};
use crate::domain::schedule::Schedule;
use crate::ports::{ScheduleStore, ScheduleStoreError};

use super::requests::{open_locked, rewrite_keeping, sync_directory};
use super::schedules_index::ScheduleIndex;
use super::tail::LineIndex;

pub struct JsonlScheduleStore {
    path: PathBuf,
    /// Serializes this process's writers (the file lock serializes processes).
    turn: tokio::sync::Mutex<()>,
    /// What the file holds, read as it grows.
    index: Arc<Mutex<ScheduleIndex>>,
}

/// Why a write under the lock was not made.
enum Refused {
    Conflict,
    Missing(ScheduleId),
    Unreadable(UnreadableSchedule),
    Io(std::io::Error),
}

impl From<std::io::Error> for Refused {
    fn from(error: std::io::Error) -> Self {
        Self::Io(error)
    }
}

impl JsonlScheduleStore {
    /// Schedules kept in `path` (created with its directory when first written).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            turn: tokio::sync::Mutex::new(()),
            index: Arc::default(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn unavailable(&self, reason: impl ToString) -> ScheduleStoreError {
        ScheduleStoreError::Unavailable {
            target: self.target(),
            reason: reason.to_string(),
        }
    }

    /// Runs `work` on the blocking pool, with the index.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Path, &str, &mut ScheduleIndex) -> Result<T, Refused> + Send + 'static,
    ) -> Result<T, ScheduleStoreError> {
        let path = self.path.clone();
        let target = self.target();
        let index = self.index.clone();
        let done = tokio::task::spawn_blocking(move || {
            let mut index = index.lock().unwrap_or_else(|p| p.into_inner());
            work(&path, &target, &mut index)
        })
        .await;
        match done {
            Err(joined) => Err(self.unavailable(joined)),
            Ok(Ok(value)) => Ok(value),
            Ok(Err(Refused::Conflict)) => Err(ScheduleStoreError::Conflict),
            Ok(Err(Refused::Missing(id))) => Err(ScheduleStoreError::Missing(id)),
            Ok(Err(Refused::Unreadable(u))) => Err(ScheduleStoreError::Unreadable(u)),
            Ok(Err(Refused::Io(error))) => Err(self.unavailable(error)),
        }
    }

    /// Runs `read` on the index brought up to date with the file (no lock: a line being
    /// written is not read yet). A missing file holds nothing.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&ScheduleIndex) -> Result<T, Refused> + Send + 'static,
    ) -> Result<T, ScheduleStoreError> {
        self.blocking(move |path, target, index| {
            match File::open(path) {
                Ok(mut file) => index.refresh(&mut file, target)?,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => index.clear(),
                Err(error) => return Err(Refused::Io(error)),
            }
            read(index)
        })
        .await
    }

    /// Writes `schedule` as a new line under the lock when `fits` what the file holds.
    async fn write(
        &self,
        schedule: &Schedule,
        fits: fn(&ScheduleIndex, &Schedule) -> Result<(), Refused>,
    ) -> Result<(), ScheduleStoreError> {
        let mut line = record::write(schedule).map_err(|e| self.unavailable(e))?;
        line.push(b'\n');
        let schedule = schedule.clone();
        let _turn = self.turn.lock().await;
        self.blocking(move |path, target, index| {
            let mut file = open_locked(path)?;
            index.refresh(&mut file, target)?;
            fits(index, &schedule)?;
            append(&mut file, path, index, &line)?;
            Ok(())
        })
        .await
    }
}

/// Appends `line` to the locked `file` in one write (after a newline ending a torn last
/// line), synced before it returns.
fn append(file: &mut File, path: &Path, index: &ScheduleIndex, line: &[u8]) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(line.len() + 1);
    if index.ends_torn() {
        out.push(b'\n');
    }
    out.extend_from_slice(line);
    file.write_all(&out)?;
    file.sync_data()?;
    if index.is_empty_file() {
        sync_directory(path);
    }
    Ok(())
}

fn new_id(index: &ScheduleIndex, schedule: &Schedule) -> Result<(), Refused> {
    if index.knows(&schedule.id) {
        return Err(Refused::Conflict);
    }
    Ok(())
}

fn next_revision(index: &ScheduleIndex, next: &Schedule) -> Result<(), Refused> {
    match index.get(&next.id) {
        Err(unreadable) => Err(Refused::Unreadable(unreadable.clone())),
        Ok(None) => Err(Refused::Missing(next.id.clone())),
        Ok(Some(current)) if current.revision + 1 == next.revision => Ok(()),
        Ok(Some(_)) => Err(Refused::Conflict),
    }
}

#[async_trait]
impl ScheduleStore for JsonlScheduleStore {
    async fn create(&self, schedule: &Schedule) -> Result<(), ScheduleStoreError> {
        self.write(schedule, new_id).await
    }

    async fn replace(&self, next: &Schedule) -> Result<(), ScheduleStoreError> {
        self.write(next, next_revision).await
    }

    async fn get(&self, id: &ScheduleId) -> Result<Option<Schedule>, ScheduleStoreError> {
        let id = id.clone();
        self.read(move |index| match index.get(&id) {
            Ok(schedule) => Ok(schedule.cloned()),
            Err(unreadable) => Err(Refused::Unreadable(unreadable.clone())),
        })
        .await
    }

    async fn open(&self) -> Result<Vec<Schedule>, ScheduleStoreError> {
        self.read(|index| {
            let mut open: Vec<Schedule> = index
                .readable()
                .filter(|s| s.state.is_open())
                .cloned()
                .collect();
            open.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)));
            Ok(open)
        })
        .await
    }

    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<Schedule>, ScheduleStoreError> {
        let repo = repo.map(|r| r.as_str().to_owned());
        self.read(move |index| {
            let mut chosen: Vec<Schedule> = index
                .readable()
                .filter(|s| repo.as_deref().is_none_or(|r| s.repository_uuid == r))
                .cloned()
                .collect();
            chosen.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| b.id.cmp(&a.id)));
            chosen.truncate(limit);
            Ok(chosen)
        })
        .await
    }

    async fn unreadable(&self) -> Result<Vec<UnreadableSchedule>, ScheduleStoreError> {
        self.read(|index| Ok(index.unreadable())).await
    }

    /// Under the file lock (so no other process appends meanwhile; each re-opens the file
    /// once it has the lock, see `open_locked`) and this process's turn: only the lines of
    /// schedules that ended (as the file says now) go; every other line is kept as it was.
    async fn remove_ended(&self, ids: &[ScheduleId]) -> Result<usize, ScheduleStoreError> {
        if ids.is_empty() {
            return Ok(0);
        }
        let ids = ids.to_vec();
        let _turn = self.turn.lock().await;
        self.blocking(move |path, target, index| {
            let mut locked = open_locked(path)?;
            index.refresh(&mut locked, target)?;
            let gone: HashSet<ScheduleId> = ids
                .into_iter()
                .filter(|id| matches!(index.get(id), Ok(Some(s)) if !s.state.is_open()))
                .collect();
            if gone.is_empty() {
                return Ok(0);
            }
            let mut before = Vec::new();
            locked.seek(std::io::SeekFrom::Start(0))?;
            locked.read_to_end(&mut before)?;
            rewrite_keeping(path, &before, |line| {
                record::id_of(line).is_none_or(|id| !gone.contains(&id))
            })?;
            index.clear();
            Ok(gone.len())
        })
        .await
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
