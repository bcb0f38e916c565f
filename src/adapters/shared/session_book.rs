//! The sessions and sign-ins under way of one process, as a map: the memory store is this
//! book alone; the file store is this book, folded from its file at start and kept in step
//! with each line it appends.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::ports::session_store::{PendingSignIn, StoredSession};

#[derive(Debug, Default)]
pub struct SessionBook {
    sessions: HashMap<String, StoredSession>,
    pending: HashMap<String, PendingSignIn>,
}

impl SessionBook {
    pub fn start(&mut self, session: StoredSession) {
        self.sessions.insert(session.key.clone(), session);
    }

    pub fn find(&self, key: &str) -> Option<StoredSession> {
        self.sessions.get(key).cloned()
    }

    /// Writes down a use; `false` when there is no such session.
    pub fn touch(&mut self, key: &str, at: DateTime<Utc>) -> bool {
        match self.sessions.get_mut(key) {
            Some(session) => {
                session.last_seen = session.last_seen.max(at);
                true
            }
            None => false,
        }
    }

    pub fn end(&mut self, key: &str) -> bool {
        self.sessions.remove(key).is_some()
    }

    pub fn begin_sign_in(&mut self, pending: PendingSignIn) {
        self.pending.insert(pending.key.clone(), pending);
    }

    pub fn take_sign_in(&mut self, key: &str) -> Option<PendingSignIn> {
        self.pending.remove(key)
    }

    /// Forgets stale sessions and sign-ins under way (see the port's `forget_stale`);
    /// answers how many.
    pub fn forget_stale(
        &mut self,
        seen_before: DateTime<Utc>,
        started_before: DateTime<Utc>,
        begun_before: DateTime<Utc>,
    ) -> usize {
        let before = self.sessions.len() + self.pending.len();
        self.sessions
            .retain(|_, s| s.last_seen >= seen_before && s.started >= started_before);
        self.pending.retain(|_, p| p.started >= begun_before);
        before - self.sessions.len() - self.pending.len()
    }

    /// Every session kept.
    pub fn sessions(&self) -> Vec<StoredSession> {
        self.sessions.values().cloned().collect()
    }

    /// How many sessions and sign-ins under way it holds.
    pub fn len(&self) -> (usize, usize) {
        (self.sessions.len(), self.pending.len())
    }
}
