//! `MemorySessionStore`: sessions, sign-ins under way and the sign-in audit in this process
//! only (the fast tests, and `audit.sink = "stdout"`, where a restart signs everyone out).

use std::sync::Mutex;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::adapters::shared::session_book::SessionBook;
use crate::ports::session_store::{
    PendingSignIn, SessionStore, SessionStoreError, SignInLine, StoredSession,
};

#[derive(Default)]
pub struct MemorySessionStore {
    book: Mutex<SessionBook>,
    audit: Mutex<Vec<SignInLine>>,
}

impl MemorySessionStore {
    fn book(&self) -> std::sync::MutexGuard<'_, SessionBook> {
        self.book
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl SessionStore for MemorySessionStore {
    async fn start(&self, session: &StoredSession) -> Result<(), SessionStoreError> {
        self.book().start(session.clone());
        Ok(())
    }

    async fn find(&self, key: &str) -> Result<Option<StoredSession>, SessionStoreError> {
        Ok(self.book().find(key))
    }

    async fn touch(&self, key: &str, at: DateTime<Utc>) -> Result<(), SessionStoreError> {
        self.book().touch(key, at);
        Ok(())
    }

    async fn end(&self, key: &str) -> Result<bool, SessionStoreError> {
        Ok(self.book().end(key))
    }

    async fn begin_sign_in(&self, pending: &PendingSignIn) -> Result<(), SessionStoreError> {
        self.book().begin_sign_in(pending.clone());
        Ok(())
    }

    async fn take_sign_in(&self, key: &str) -> Result<Option<PendingSignIn>, SessionStoreError> {
        Ok(self.book().take_sign_in(key))
    }

    async fn forget_stale(
        &self,
        seen_before: DateTime<Utc>,
        started_before: DateTime<Utc>,
        begun_before: DateTime<Utc>,
    ) -> Result<usize, SessionStoreError> {
        Ok(self
            .book()
            .forget_stale(seen_before, started_before, begun_before))
    }

    async fn audit(&self, line: &SignInLine) -> Result<(), SessionStoreError> {
        self.audit
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(line.clone());
        Ok(())
    }

    async fn audit_lines(&self) -> Result<Vec<SignInLine>, SessionStoreError> {
        Ok(self
            .audit
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone())
    }

    fn target(&self) -> String {
        "memory (sessions end with the process)".to_owned()
    }
}
