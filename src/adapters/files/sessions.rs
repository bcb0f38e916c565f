//! `JsonlSessionStore`: the signed-in sessions and the sign-ins under way in one JSON Lines
//! file beside the audit file (`sessions.jsonl`), and the audit of signing in and out in
//! another (`sign-ins.jsonl`). For one console process (the `jsonl` sink is a single
//! replica's; replicas keep their sessions in PostgreSQL).
//!
//! Each change is one line appended and synced to disk before it is acknowledged: `started`
//! (the whole session), `seen` (a use), `ended`, `pending` (a sign-in under way) and `taken`
//! (its answer came). The file is read once, at the first use, into a
//! [`SessionBook`](crate::adapters::shared::session_book::SessionBook) kept in step with
//! each line written; at that first read, and when stale sessions are forgotten, the file is
//! rewritten (beside it, then renamed over it) holding only the sessions kept, so that it does
//! not grow without end. Keys are
//! the SHA-256 of the cookies' values: the file opens no session by itself.

use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::adapters::shared::session_book::SessionBook;
use crate::ports::session_store::{
    PendingSignIn, SessionStore, SessionStoreError, SignInLine, StoredSession,
};

pub struct JsonlSessionStore {
    path: PathBuf,
    audit_path: PathBuf,
    /// The book, read from the file at the first use (`None` before).
    book: tokio::sync::Mutex<Option<SessionBook>>,
}

/// One line of `sessions.jsonl`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "line", rename_all = "snake_case")]
enum Line {
    Started {
        key: String,
        name: String,
        groups: Vec<String>,
        subject: String,
        started: DateTime<Utc>,
        last_seen: DateTime<Utc>,
    },
    Seen {
        key: String,
        at: DateTime<Utc>,
    },
    Ended {
        key: String,
    },
    Pending {
        key: String,
        state: String,
        nonce: String,
        pkce_verifier: String,
        return_to: String,
        started: DateTime<Utc>,
    },
    Taken {
        key: String,
    },
}

/// One line of `sign-ins.jsonl`.
#[derive(Debug, Serialize, Deserialize)]
struct AuditLine {
    at: DateTime<Utc>,
    event: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    operator: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    groups: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<IpAddr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// The audit events, by their written word (a line naming another is not read back).
const EVENTS: [&str; 4] = ["signed_in", "refused", "signed_out", "expired"];

impl JsonlSessionStore {
    /// Sessions in `sessions.jsonl` and their audit in `sign-ins.jsonl`, beside the audit
    /// file `audit_path`.
    pub fn beside(audit_path: &Path) -> Self {
        let dir = audit_path.parent().unwrap_or(Path::new(""));
        Self {
            path: dir.join("sessions.jsonl"),
            audit_path: dir.join("sign-ins.jsonl"),
            book: tokio::sync::Mutex::new(None),
        }
    }

    fn error(&self, path: &Path, reason: impl ToString) -> SessionStoreError {
        SessionStoreError {
            target: path.display().to_string(),
            reason: reason.to_string(),
        }
    }

    /// Runs `change` on the book (read first if need be) and appends `line`.
    async fn write<T>(
        &self,
        line: Line,
        change: impl FnOnce(&mut SessionBook) -> T,
    ) -> Result<T, SessionStoreError> {
        let mut guard = self.book.lock().await;
        let book = self.read_once(&mut guard)?;
        append(&self.path, &line).map_err(|e| self.error(&self.path, e))?;
        Ok(change(book))
    }

    fn read_once<'a>(
        &self,
        guard: &'a mut Option<SessionBook>,
    ) -> Result<&'a mut SessionBook, SessionStoreError> {
        if guard.is_none() {
            let book = fold(&self.path).map_err(|e| self.error(&self.path, e))?;
            compact(&self.path, &book.1).map_err(|e| self.error(&self.path, e))?;
            *guard = Some(book.0);
        }
        Ok(guard.as_mut().expect("read above"))
    }
}

/// The book the file holds, and the live sessions' lines to rewrite it with.
fn fold(path: &Path) -> std::io::Result<(SessionBook, Vec<StoredSession>)> {
    let mut book = SessionBook::default();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    for (number, text) in text.lines().enumerate() {
        let line: Line = match serde_json::from_str(text) {
            Ok(line) => line,
            Err(error) => {
                tracing::warn!(path = %path.display(), line = number + 1, %error, "a session line cannot be read; skipped (that session, if any, must sign in again)");
                continue;
            }
        };
        match line {
            Line::Started {
                key,
                name,
                groups,
                subject,
                started,
                last_seen,
            } => book.start(StoredSession {
                key,
                name,
                groups,
                subject,
                started,
                last_seen,
            }),
            Line::Seen { key, at } => {
                book.touch(&key, at);
            }
            Line::Ended { key } => {
                book.end(&key);
            }
            // A sign-in under way does not outlive the process that began it (the browser
            // starts again): its lines are read for their order only.
            Line::Pending { .. } | Line::Taken { .. } => {}
        }
    }
    let live = book.sessions();
    Ok((book, live))
}

/// Rewrites the file with the live sessions only (beside it, then renamed over it).
fn compact(path: &Path, live: &[StoredSession]) -> std::io::Result<()> {
    if !path.exists() {
        return Ok(());
    }
    let beside = path.with_extension("jsonl.compacting");
    {
        let mut file = std::fs::File::create(&beside)?;
        for session in live {
            let line = started_line(session);
            let mut text = serde_json::to_string(&line).map_err(std::io::Error::other)?;
            text.push('\n');
            file.write_all(text.as_bytes())?;
        }
        file.sync_all()?;
    }
    std::fs::rename(&beside, path)
}

fn started_line(session: &StoredSession) -> Line {
    Line::Started {
        key: session.key.clone(),
        name: session.name.clone(),
        groups: session.groups.clone(),
        subject: session.subject.clone(),
        started: session.started,
        last_seen: session.last_seen,
    }
}

/// Appends one JSON line to `path` (created with its directory) and syncs it.
fn append(path: &Path, line: &impl Serialize) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = serde_json::to_string(line).map_err(std::io::Error::other)?;
    text.push('\n');
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_data()
}

#[async_trait]
impl SessionStore for JsonlSessionStore {
    async fn start(&self, session: &StoredSession) -> Result<(), SessionStoreError> {
        let kept = session.clone();
        self.write(started_line(session), |book| book.start(kept))
            .await
    }

    async fn find(&self, key: &str) -> Result<Option<StoredSession>, SessionStoreError> {
        let mut guard = self.book.lock().await;
        Ok(self.read_once(&mut guard)?.find(key))
    }

    async fn touch(&self, key: &str, at: DateTime<Utc>) -> Result<(), SessionStoreError> {
        let line = Line::Seen {
            key: key.to_owned(),
            at,
        };
        self.write(line, |book| {
            book.touch(key, at);
        })
        .await
    }

    async fn end(&self, key: &str) -> Result<bool, SessionStoreError> {
        let line = Line::Ended {
            key: key.to_owned(),
        };
        self.write(line, |book| book.end(key)).await
    }

    async fn begin_sign_in(&self, pending: &PendingSignIn) -> Result<(), SessionStoreError> {
        let line = Line::Pending {
            key: pending.key.clone(),
            state: pending.state.clone(),
            nonce: pending.nonce.clone(),
            pkce_verifier: pending.pkce_verifier.clone(),
            return_to: pending.return_to.clone(),
            started: pending.started,
        };
        let kept = pending.clone();
        self.write(line, |book| book.begin_sign_in(kept)).await
    }

    async fn take_sign_in(&self, key: &str) -> Result<Option<PendingSignIn>, SessionStoreError> {
        let line = Line::Taken {
            key: key.to_owned(),
        };
        self.write(line, |book| book.take_sign_in(key)).await
    }

    /// Also rewrites the file with the sessions left (beside it, then renamed over it).
    async fn forget_stale(
        &self,
        seen_before: DateTime<Utc>,
        started_before: DateTime<Utc>,
        begun_before: DateTime<Utc>,
    ) -> Result<usize, SessionStoreError> {
        let mut guard = self.book.lock().await;
        let book = self.read_once(&mut guard)?;
        let forgotten = book.forget_stale(seen_before, started_before, begun_before);
        if forgotten > 0 {
            compact(&self.path, &book.sessions()).map_err(|e| self.error(&self.path, e))?;
        }
        Ok(forgotten)
    }

    async fn audit(&self, line: &SignInLine) -> Result<(), SessionStoreError> {
        let line = AuditLine {
            at: line.at,
            event: line.event.to_owned(),
            operator: line.operator.clone(),
            groups: line.groups.clone(),
            from: line.from,
            reason: line.reason.clone(),
        };
        let _turn = self.book.lock().await;
        append(&self.audit_path, &line).map_err(|e| self.error(&self.audit_path, e))
    }

    async fn audit_lines(&self) -> Result<Vec<SignInLine>, SessionStoreError> {
        let text = match std::fs::read_to_string(&self.audit_path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(self.error(&self.audit_path, e)),
        };
        Ok(text
            .lines()
            .filter_map(|text| serde_json::from_str::<AuditLine>(text).ok())
            .filter_map(|line| {
                let event = EVENTS.into_iter().find(|e| *e == line.event)?;
                Some(SignInLine {
                    at: line.at,
                    event,
                    operator: line.operator,
                    groups: line.groups,
                    from: line.from,
                    reason: line.reason,
                })
            })
            .collect())
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
