//! `PgSessionStore`: the signed-in sessions (`console_sessions`), the sign-ins under way
//! (`pending_sign_ins`, each taken once by `DELETE ... RETURNING`, whichever replica the
//! provider's answer reaches) and the audit of signing in and out (`sign_in_audit`), in
//! the database the replicas share.

use std::net::IpAddr;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::ports::session_store::{
    PendingSignIn, SessionStore, SessionStoreError, SignInLine, StoredSession,
};

use super::Database;

/// The audit events, by their written word.
const EVENTS: [&str; 4] = ["signed_in", "refused", "signed_out", "expired"];

pub struct PgSessionStore {
    db: Database,
}

type SessionRow = (
    String,
    String,
    serde_json::Value,
    String,
    DateTime<Utc>,
    DateTime<Utc>,
);

impl PgSessionStore {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn error(&self, reason: impl ToString) -> SessionStoreError {
        SessionStoreError {
            target: self.target(),
            reason: reason.to_string(),
        }
    }
}

fn texts(value: serde_json::Value) -> Vec<String> {
    serde_json::from_value(value).unwrap_or_default()
}

#[async_trait]
impl SessionStore for PgSessionStore {
    async fn start(&self, session: &StoredSession) -> Result<(), SessionStoreError> {
        sqlx::query(
            "INSERT INTO console_sessions (key, name, groups, subject, started, last_seen) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&session.key)
        .bind(&session.name)
        .bind(serde_json::json!(session.groups))
        .bind(&session.subject)
        .bind(session.started)
        .bind(session.last_seen)
        .execute(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        Ok(())
    }

    async fn find(&self, key: &str) -> Result<Option<StoredSession>, SessionStoreError> {
        let row: Option<SessionRow> = sqlx::query_as(
            "SELECT key, name, groups, subject, started, last_seen FROM console_sessions \
             WHERE key = $1",
        )
        .bind(key)
        .fetch_optional(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        Ok(row.map(
            |(key, name, groups, subject, started, last_seen)| StoredSession {
                key,
                name,
                groups: texts(groups),
                subject,
                started,
                last_seen,
            },
        ))
    }

    async fn touch(&self, key: &str, at: DateTime<Utc>) -> Result<(), SessionStoreError> {
        sqlx::query(
            "UPDATE console_sessions SET last_seen = GREATEST(last_seen, $2) WHERE key = $1",
        )
        .bind(key)
        .bind(at)
        .execute(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        Ok(())
    }

    async fn end(&self, key: &str) -> Result<bool, SessionStoreError> {
        let done = sqlx::query("DELETE FROM console_sessions WHERE key = $1")
            .bind(key)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        Ok(done.rows_affected() > 0)
    }

    async fn begin_sign_in(&self, pending: &PendingSignIn) -> Result<(), SessionStoreError> {
        sqlx::query(
            "INSERT INTO pending_sign_ins (key, state, nonce, pkce_verifier, return_to, started) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&pending.key)
        .bind(&pending.state)
        .bind(&pending.nonce)
        .bind(&pending.pkce_verifier)
        .bind(&pending.return_to)
        .bind(pending.started)
        .execute(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        Ok(())
    }

    async fn take_sign_in(&self, key: &str) -> Result<Option<PendingSignIn>, SessionStoreError> {
        type Row = (String, String, String, String, String, DateTime<Utc>);
        let row: Option<Row> = sqlx::query_as(
            "DELETE FROM pending_sign_ins WHERE key = $1 \
             RETURNING key, state, nonce, pkce_verifier, return_to, started",
        )
        .bind(key)
        .fetch_optional(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        Ok(row.map(
            |(key, state, nonce, pkce_verifier, return_to, started)| PendingSignIn {
                key,
                state,
                nonce,
                pkce_verifier,
                return_to,
                started,
            },
        ))
    }

    async fn forget_stale(
        &self,
        seen_before: DateTime<Utc>,
        started_before: DateTime<Utc>,
        begun_before: DateTime<Utc>,
    ) -> Result<usize, SessionStoreError> {
        let sessions =
            sqlx::query("DELETE FROM console_sessions WHERE last_seen < $1 OR started < $2")
                .bind(seen_before)
                .bind(started_before)
                .execute(&self.db.pool)
                .await
                .map_err(|e| self.error(e))?;
        let pending = sqlx::query("DELETE FROM pending_sign_ins WHERE started < $1")
            .bind(begun_before)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        Ok((sessions.rows_affected() + pending.rows_affected()) as usize)
    }

    async fn audit(&self, line: &SignInLine) -> Result<(), SessionStoreError> {
        sqlx::query(
            "INSERT INTO sign_in_audit (at, event, operator, groups, from_address, reason) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(line.at)
        .bind(line.event)
        .bind(&line.operator)
        .bind(serde_json::json!(line.groups))
        .bind(line.from.map(|a| a.to_string()))
        .bind(&line.reason)
        .execute(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        Ok(())
    }

    async fn audit_lines(&self) -> Result<Vec<SignInLine>, SessionStoreError> {
        type Row = (
            DateTime<Utc>,
            String,
            Option<String>,
            serde_json::Value,
            Option<String>,
            Option<String>,
        );
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT at, event, operator, groups, from_address, reason FROM sign_in_audit \
             ORDER BY id",
        )
        .fetch_all(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        Ok(rows
            .into_iter()
            .filter_map(|(at, event, operator, groups, from, reason)| {
                let event = EVENTS.into_iter().find(|e| *e == event)?;
                Some(SignInLine {
                    at,
                    event,
                    operator,
                    groups: texts(groups),
                    from: from.and_then(|a| a.parse::<IpAddr>().ok()),
                    reason,
                })
            })
            .collect())
    }

    fn target(&self) -> String {
        format!("{} (console_sessions)", self.db.target)
    }
}
