//! `JsonlScheduleStore`: scheduled deploys in one JSON Lines file beside the audit file
//! (`schedules.jsonl`), one line per revision of a schedule (the whole schedule, with its
//! `revision`); the last line of an id is the schedule as it is now.
//!
//! Creating and replacing are compare-and-swap across processes as well as tasks: under this
//! process's mutex and an exclusive lock on the file (`flock`, released when the file is
//! closed), the file is read, the schedule's last revision compared, and the new line written
//! in one `write` and synced to disk before `Ok` is returned. Reading takes no lock: a line
//! being written (or torn by a crash: never acknowledged) is an incomplete last line, not read;
//! once a later line follows it, it is a line that does not parse, and is skipped.
//! A team schedules a handful of deploys a month: the file is read whole each time.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use async_trait::async_trait;

use crate::domain::{RepoId, Schedule, ScheduleId};
use crate::ports::{ScheduleStore, ScheduleStoreError};

use super::requests::{open_locked, sync_directory};

pub struct JsonlScheduleStore {
    path: PathBuf,
    /// Serializes this process's writers (the file lock serializes processes).
    turn: tokio::sync::Mutex<()>,
}

/// The file's schedules as they are now, in the order they were first written.
#[derive(Default)]
struct Kept {
    order: Vec<ScheduleId>,
    latest: HashMap<ScheduleId, Schedule>,
    /// The file does not end with a newline (a torn last line).
    torn: bool,
}

impl Kept {
    fn read(bytes: &[u8]) -> std::io::Result<Self> {
        let mut kept = Self::default();
        let complete = match bytes.iter().rposition(|b| *b == b'\n') {
            Some(end) => &bytes[..=end],
            None => &[][..],
        };
        kept.torn = complete.len() != bytes.len();
        for line in complete.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            // A line torn by a crash (never acknowledged), ended by the next writer's newline.
            let Ok(schedule) = serde_json::from_slice::<Schedule>(line) else {
                tracing::warn!(line = %String::from_utf8_lossy(line), "a torn schedule line is skipped");
                continue;
            };
            if !kept.latest.contains_key(&schedule.id) {
                kept.order.push(schedule.id.clone());
            }
            kept.latest.insert(schedule.id.clone(), schedule);
        }
        Ok(kept)
    }

    fn all(&self) -> impl Iterator<Item = &Schedule> {
        self.order.iter().filter_map(|id| self.latest.get(id))
    }
}

/// Why a write under the lock was not made.
enum Refused {
    Conflict,
    Missing(ScheduleId),
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

    /// Runs `work` on the blocking pool.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(PathBuf) -> Result<T, Refused> + Send + 'static,
    ) -> Result<T, ScheduleStoreError> {
        let path = self.path.clone();
        match tokio::task::spawn_blocking(move || work(path)).await {
            Err(joined) => Err(self.unavailable(joined)),
            Ok(Ok(value)) => Ok(value),
            Ok(Err(Refused::Conflict)) => Err(ScheduleStoreError::Conflict),
            Ok(Err(Refused::Missing(id))) => Err(ScheduleStoreError::Missing(id)),
            Ok(Err(Refused::Io(error))) => Err(self.unavailable(error)),
        }
    }

    /// What the file holds now (no lock); a missing file holds nothing.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(Kept) -> T + Send + 'static,
    ) -> Result<T, ScheduleStoreError> {
        self.blocking(move |path| match std::fs::read(&path) {
            Ok(bytes) => Ok(read(Kept::read(&bytes)?)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(read(Kept::default())),
            Err(error) => Err(Refused::Io(error)),
        })
        .await
    }

    /// Writes `schedule` as a new line under the lock when `fits` what the file holds.
    async fn write(
        &self,
        schedule: &Schedule,
        fits: fn(&Kept, &Schedule) -> Result<(), Refused>,
    ) -> Result<(), ScheduleStoreError> {
        let mut line = serde_json::to_vec(schedule).map_err(|e| self.unavailable(e))?;
        line.push(b'\n');
        let schedule = schedule.clone();
        let _turn = self.turn.lock().await;
        self.blocking(move |path| {
            let mut file = open_locked(&path)?;
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)?;
            let kept = Kept::read(&bytes)?;
            fits(&kept, &schedule)?;
            append(&mut file, &path, &kept, bytes.is_empty(), &line)?;
            Ok(())
        })
        .await
    }
}

/// Appends `line` to the locked `file` in one write (after a newline ending a torn last
/// line), synced before it returns.
fn append(
    file: &mut File,
    path: &Path,
    kept: &Kept,
    empty: bool,
    line: &[u8],
) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(line.len() + 1);
    if kept.torn {
        out.push(b'\n');
    }
    out.extend_from_slice(line);
    file.write_all(&out)?;
    file.sync_data()?;
    if empty {
        sync_directory(path);
    }
    Ok(())
}

fn new_id(kept: &Kept, schedule: &Schedule) -> Result<(), Refused> {
    if kept.latest.contains_key(&schedule.id) {
        return Err(Refused::Conflict);
    }
    Ok(())
}

fn next_revision(kept: &Kept, next: &Schedule) -> Result<(), Refused> {
    match kept.latest.get(&next.id) {
        None => Err(Refused::Missing(next.id.clone())),
        Some(current) if current.revision + 1 == next.revision => Ok(()),
        Some(_) => Err(Refused::Conflict),
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
        self.read(move |mut kept| kept.latest.remove(&id)).await
    }

    async fn open(&self) -> Result<Vec<Schedule>, ScheduleStoreError> {
        self.read(|kept| {
            let mut open: Vec<Schedule> =
                kept.all().filter(|s| s.state.is_open()).cloned().collect();
            open.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)));
            open
        })
        .await
    }

    async fn recent(
        &self,
        repo: Option<&RepoId>,
        limit: usize,
    ) -> Result<Vec<Schedule>, ScheduleStoreError> {
        let repo = repo.map(|r| r.as_str().to_owned());
        self.read(move |kept| {
            let mut chosen: Vec<Schedule> = kept
                .all()
                .filter(|s| repo.as_deref().is_none_or(|r| s.repository_uuid == r))
                .cloned()
                .collect();
            chosen.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| b.id.cmp(&a.id)));
            chosen.truncate(limit);
            chosen
        })
        .await
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
