//! `JsonlEdgeStates`: the edge state store in one JSON Lines file beside the audit file
//! (`edges.jsonl`), for one console process (replicas keep it in PostgreSQL).
//!
//! Each record written is one line appended and synced before it is acknowledged; the last
//! line under a key wins. The file is read once, at the first use, into an
//! [`EdgeBook`](crate::adapters::shared::edge_record::EdgeBook) kept in step with each line
//! written, and rewritten then (beside it, then renamed over it) with one line per key, so
//! that it does not grow without end. A line that does not read back as a record is skipped
//! with a warning naming it: the record before it under its key stands, so a damaged line
//! never changes a state.

use std::io::Write;
use std::path::{Path, PathBuf};

use async_trait::async_trait;

use crate::adapters::shared::edge_record::{EdgeBook, Kept};
use crate::ports::edge_state_store::{
    EdgeRecords, EdgeStateStore, EdgeStoreError, StoredCell, StoredMark, StoredRun,
};

use super::appending::{append_line, ends_torn};

pub struct JsonlEdgeStates {
    path: PathBuf,
    /// The book, read from the file at the first use (`None` before).
    book: tokio::sync::Mutex<Option<EdgeBook>>,
}

impl JsonlEdgeStates {
    /// The records in `edges.jsonl`, beside the audit file `audit_path`.
    pub fn beside(audit_path: &Path) -> Self {
        let dir = audit_path.parent().unwrap_or(Path::new(""));
        Self {
            path: dir.join("edges.jsonl"),
            book: tokio::sync::Mutex::new(None),
        }
    }

    fn error(&self, reason: impl ToString) -> EdgeStoreError {
        EdgeStoreError {
            target: self.target(),
            reason: reason.to_string(),
        }
    }

    /// Keeps `record` (the book read first if need be), its line appended; answers the
    /// record it replaced.
    async fn keep(&self, record: Kept) -> Result<Option<Kept>, EdgeStoreError> {
        let mut guard = self.book.lock().await;
        if guard.is_none() {
            *guard = Some(self.read()?);
        }
        append(&self.path, &record.line()).map_err(|e| self.error(e))?;
        Ok(guard.as_mut().expect("read above").keep(record))
    }

    /// Reads the file into a book, and rewrites it with one line per key.
    fn read(&self) -> Result<EdgeBook, EdgeStoreError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(EdgeBook::default()),
            Err(e) => return Err(self.error(e)),
        };
        let mut book = EdgeBook::default();
        for (number, line) in text.lines().enumerate() {
            match Kept::parse(line) {
                Ok(record) => {
                    book.keep(record);
                }
                Err(error) => {
                    tracing::warn!(path = %self.path.display(), line = number + 1, %error, "an edge state line cannot be read; skipped (the record before it stands, and the edge is judged again)");
                }
            }
        }
        compact(&self.path, &book).map_err(|e| self.error(e))?;
        Ok(book)
    }
}

/// Rewrites the file with the book's records, one line each (beside it, then renamed over
/// it).
fn compact(path: &Path, book: &EdgeBook) -> std::io::Result<()> {
    let beside = path.with_extension("jsonl.compacting");
    {
        let mut file = std::fs::File::create(&beside)?;
        for record in book.all() {
            let mut text = record.line();
            text.push('\n');
            file.write_all(text.as_bytes())?;
        }
        file.sync_all()?;
    }
    std::fs::rename(&beside, path)
}

/// Appends one line to `path` (created with its directory; see [`append_line`]).
fn append(path: &Path, line: &str) -> std::io::Result<()> {
    let mut file = super::requests::open_locked(path)?;
    let torn = ends_torn(&mut file)?;
    append_line(&mut file, torn, line.as_bytes())
}

#[async_trait]
impl EdgeStateStore for JsonlEdgeStates {
    async fn load(&self) -> Result<EdgeRecords, EdgeStoreError> {
        let mut guard = self.book.lock().await;
        if guard.is_none() {
            *guard = Some(self.read()?);
        }
        Ok(guard.as_ref().expect("read above").records())
    }

    async fn put_mark(&self, mark: &StoredMark) -> Result<(), EdgeStoreError> {
        self.keep(Kept::Mark(mark.clone())).await.map(|_| ())
    }

    async fn swap_cell(&self, cell: &StoredCell) -> Result<Option<StoredCell>, EdgeStoreError> {
        Ok(match self.keep(Kept::Cell(cell.clone())).await? {
            Some(Kept::Cell(old)) => Some(old),
            _ => None,
        })
    }

    async fn put_run(&self, run: &StoredRun) -> Result<(), EdgeStoreError> {
        self.keep(Kept::Run(run.clone())).await.map(|_| ())
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
