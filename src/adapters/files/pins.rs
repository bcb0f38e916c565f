//! `JsonlPinStore`: pin records in one JSON Lines file beside the audit file (`pins.jsonl`),
//! one line per fact in the order they happened (the encoding is
//! [`crate::adapters::shared::pin_codec`]). Lines are never rewritten: the file is the pins'
//! history.
//!
//! Writes are made under this process's mutex and an exclusive lock on the file (`flock`), in
//! one `write`, synced before `Ok`. Reads take no lock and read the whole file (a pin is set by
//! a rollback: a file of thousands of lines is still small): a last line being written (or
//! torn by a crash, never acknowledged) is not read; once a later line ends it, it is an
//! unreadable line, and the pin it names (every pin, when it names none) reads as
//! unreadable until an operator mends or removes it.

use std::path::{Path, PathBuf};

use async_trait::async_trait;

use crate::adapters::shared::pin_codec::{decode, encode, may_concern, may_concern_repository};
use crate::domain::pin::{standing, Pin, PinKey, PinRecord, UnreadablePin};
use crate::domain::repository::RepoId;
use crate::ports::{PinStore, PinStoreError};

use super::appending::{append_line, ends_torn};

pub struct JsonlPinStore {
    path: PathBuf,
    /// Serializes this process's writers (the file lock serializes processes).
    turn: tokio::sync::Mutex<()>,
}

impl JsonlPinStore {
    /// Pins kept in `path` (created with its directory when first written).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            turn: tokio::sync::Mutex::new(()),
        }
    }

    fn unavailable(&self, reason: impl ToString) -> PinStoreError {
        PinStoreError::Unavailable {
            target: self.target(),
            reason: reason.to_string(),
        }
    }

    /// Every whole line's record, or what cannot be read of it, in the order kept.
    async fn read(&self) -> Result<Vec<Result<PinRecord, UnreadablePin>>, PinStoreError> {
        let path = self.path.clone();
        let read = tokio::task::spawn_blocking(move || match std::fs::read(&path) {
            Ok(bytes) => Ok(records(&bytes, &path)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(error) => Err(error),
        });
        match read.await {
            Err(joined) => Err(self.unavailable(joined)),
            Ok(Err(error)) => Err(self.unavailable(error)),
            Ok(Ok(records)) => Ok(records),
        }
    }
}

/// The records of the file's whole lines (a last line without its newline is not whole).
fn records(bytes: &[u8], path: &Path) -> Vec<Result<PinRecord, UnreadablePin>> {
    bytes
        .split_inclusive(|b| *b == b'\n')
        .enumerate()
        .filter(|(_, raw)| raw.ends_with(b"\n") && !raw.trim_ascii().is_empty())
        .map(|(i, raw)| {
            decode(raw.trim_ascii_end(), || {
                format!("{} line {}", path.display(), i + 1)
            })
        })
        .collect()
}

/// Appends `bytes` as one line to the file at `path` (created with its directory), locked,
/// in one write, synced; a torn last line is ended first, so that it stays one unreadable line.
fn append(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = super::requests::open_locked(path)?;
    let torn = ends_torn(&mut file)?;
    append_line(&mut file, torn, bytes)
}

#[async_trait]
impl PinStore for JsonlPinStore {
    async fn append(&self, record: &PinRecord) -> Result<(), PinStoreError> {
        let bytes = encode(record).map_err(|e| self.unavailable(e))?;
        let _turn = self.turn.lock().await;
        let path = self.path.clone();
        match tokio::task::spawn_blocking(move || append(&path, &bytes)).await {
            Err(joined) => Err(self.unavailable(joined)),
            Ok(Err(error)) => Err(self.unavailable(error)),
            Ok(Ok(())) => Ok(()),
        }
    }

    async fn standing(&self, key: &PinKey) -> Result<Option<Pin>, PinStoreError> {
        let mut readable = Vec::new();
        for record in self.read().await? {
            match record {
                Ok(record) => readable.push(record),
                Err(unreadable) if may_concern(&unreadable, key) => {
                    return Err(PinStoreError::Unreadable(unreadable))
                }
                Err(_) => {}
            }
        }
        Ok(standing(key, &readable))
    }

    async fn of_repository(&self, repo: &RepoId) -> Result<Vec<PinRecord>, PinStoreError> {
        let mut of_repo = Vec::new();
        for record in self.read().await? {
            match record {
                Ok(record) if record.key().repository == *repo => of_repo.push(record),
                Ok(_) => {}
                Err(unreadable) if may_concern_repository(&unreadable, repo) => {
                    return Err(PinStoreError::Unreadable(unreadable))
                }
                Err(_) => {}
            }
        }
        Ok(of_repo)
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
