//! The session store port: who is signed in (OIDC sign-in), the sign-ins under way (between
//! the redirect to the provider and its answer), and the audit of signing in and out. Kept
//! where the requests are (a file beside the audit file, or the database the replicas
//! share), so that every replica knows every session and may receive any provider's answer.
//!
//! Nothing here is a secret that opens anything by itself: sessions and sign-ins under way
//! are found by a key (the SHA-256 of the cookie's opaque value, made by the application),
//! never by the cookie's value; the audit lines hold no token.

use std::net::IpAddr;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

/// A signed-in session as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSession {
    /// The SHA-256 (hex) of the cookie's value.
    pub key: String,
    /// The operator's name as the provider sent it (the username claim).
    pub name: String,
    /// The groups the provider named (the groups claim), as sent.
    pub groups: Vec<String>,
    /// The provider's subject (`sub`) of the person.
    pub subject: String,
    pub started: DateTime<Utc>,
    /// The last request written down (at most once a minute).
    pub last_seen: DateTime<Utc>,
}

/// A sign-in under way: what the provider's answer must match, kept until it comes (once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingSignIn {
    /// The SHA-256 (hex) of the sign-in cookie's value, which binds it to one browser.
    pub key: String,
    /// The `state` sent to the provider.
    pub state: String,
    /// The `nonce` the ID token must carry.
    pub nonce: String,
    /// The PKCE code verifier sent with the code.
    pub pkce_verifier: String,
    /// The page to come back to.
    pub return_to: String,
    pub started: DateTime<Utc>,
}

/// One audit line of signing in and out: who, when, from where, what happened; never a
/// token, a code or a cookie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInLine {
    pub at: DateTime<Utc>,
    /// `signed_in`, `refused`, `signed_out` or `expired`.
    pub event: &'static str,
    /// The operator's name, when known (not on most refusals).
    pub operator: Option<String>,
    /// The groups the provider named, when signed in.
    pub groups: Vec<String>,
    /// The peer address of the browser's request.
    pub from: Option<IpAddr>,
    /// Why, for a refusal or an expiry, in the console's words.
    pub reason: Option<String>,
}

/// Why the store could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the session store ({target}) failed: {reason}")]
pub struct SessionStoreError {
    pub target: String,
    pub reason: String,
}

#[async_trait]
pub trait SessionStore: Send + Sync {
    /// Keeps a new session.
    async fn start(&self, session: &StoredSession) -> Result<(), SessionStoreError>;

    /// The session kept under `key`, if any (ended ones are not).
    async fn find(&self, key: &str) -> Result<Option<StoredSession>, SessionStoreError>;

    /// Writes down a use of the session at `at`.
    async fn touch(&self, key: &str, at: DateTime<Utc>) -> Result<(), SessionStoreError>;

    /// Ends the session; `true` when there was one to end.
    async fn end(&self, key: &str) -> Result<bool, SessionStoreError>;

    /// Keeps a sign-in under way.
    async fn begin_sign_in(&self, pending: &PendingSignIn) -> Result<(), SessionStoreError>;

    /// Takes the sign-in under way kept under `key`: answered once, then forgotten (a second
    /// take, here or on another replica, finds nothing).
    async fn take_sign_in(&self, key: &str) -> Result<Option<PendingSignIn>, SessionStoreError>;

    /// Forgets the sessions last seen before `seen_before` or started before
    /// `started_before` (past their lifetimes: no cookie opens them any more), and the
    /// sign-ins under way begun before `begun_before`; answers how many.
    async fn forget_stale(
        &self,
        seen_before: DateTime<Utc>,
        started_before: DateTime<Utc>,
        begun_before: DateTime<Utc>,
    ) -> Result<usize, SessionStoreError>;

    /// Appends an audit line.
    async fn audit(&self, line: &SignInLine) -> Result<(), SessionStoreError>;

    /// The audit lines, oldest first (for the tests and the operator's reading).
    async fn audit_lines(&self) -> Result<Vec<SignInLine>, SessionStoreError>;

    /// Where it is kept, in words, for logs.
    fn target(&self) -> String;
}
