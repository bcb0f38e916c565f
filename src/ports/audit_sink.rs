//! The audit sink port: where deployment records go.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::deploy::{DeployId, DeployRecord};
use crate::domain::ids::ReleaseName;
use crate::domain::release::ReleaseRecord;
use crate::domain::repository::RepoId;
use crate::ports::audit_chain::{ChainAnchors, ChainReport};

/// Why an audit record could not be kept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the audit log could not be written ({target}): {reason}")]
pub struct AuditError {
    /// Where the sink writes (a path, "standard output").
    pub target: String,
    pub reason: String,
}

/// Why the audit log could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditReadError {
    /// The sink only writes (standard output goes to a log collector).
    #[error("the console cannot read its audit log back: it is written to {target}; look there for the console's deploys")]
    NotReadable { target: String },
    /// The sink can be read but reading failed.
    #[error("the audit log could not be read ({target}): {reason}")]
    Failed { target: String, reason: String },
}

/// Where a reader of the whole log stands: the position after the last line it read (a byte
/// offset in a file, a row's id in a database, an index in memory). Only the sink that gave it
/// knows what it means; zero is the log's start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct AuditPosition(pub u64);

/// Outcome lines read forward from a position, and where the next read starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditSlice {
    /// Oldest first.
    pub lines: Vec<DeployRecord>,
    /// After the last line read (equal to the position asked for when nothing was new).
    pub next: AuditPosition,
}

#[async_trait]
pub trait AuditSink: Send + Sync {
    /// Appends one record durably: when this returns `Ok`, the record is stored.
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError>;

    /// Appends a release promotion's own line durably (its members' lines are deploy
    /// records, written by [`Self::record`]).
    async fn record_release(&self, record: &ReleaseRecord) -> Result<(), AuditError>;

    /// The newest release lines of release `name`, newest first, at most `limit` of them;
    /// bounded work as [`Self::recent`].
    async fn recent_releases(
        &self,
        name: &ReleaseName,
        limit: usize,
    ) -> Result<Vec<ReleaseRecord>, AuditReadError>;

    /// Checks, without writing a record, that a record could be written now.
    async fn check_writable(&self) -> Result<(), AuditError>;

    /// The newest records of repository `repo`, newest first, at most `limit` of them. The
    /// work is bounded whatever the length of the log (a sink may search only its newest part).
    async fn recent(
        &self,
        repo: &RepoId,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError>;

    /// [`Self::recent`] of several repositories (a dashboard page), each with at most
    /// `limit` records. A sink that can read all of them in one pass overrides this.
    async fn recent_of(
        &self,
        repos: &[RepoId],
        limit: usize,
    ) -> Result<HashMap<RepoId, Vec<DeployRecord>>, AuditReadError> {
        let reads = repos.iter().map(|repo| async move {
            Ok::<_, AuditReadError>((repo.clone(), self.recent(repo, limit).await?))
        });
        Ok(futures::future::try_join_all(reads)
            .await?
            .into_iter()
            .collect())
    }

    /// The lines of deploy `id` (its `started` line, then its outcome), oldest first; empty
    /// when the log has none.
    async fn lines_of(&self, id: &DeployId) -> Result<Vec<DeployRecord>, AuditReadError>;

    /// The outcome lines (not `started`) written at or after `since`, oldest first, at most
    /// `limit` of the newest: what the console tells its webhooks about (see
    /// [`crate::app::events::catch_up`]). Bounded work, as [`Self::recent`].
    async fn outcomes_since(
        &self,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError>;

    /// The outcome lines (not `started`) written after position `after`, oldest first, at most
    /// `limit` of them, with the position to read from next: what the insights fold (see
    /// [`crate::app::insights`]), so that a reader never reads a line twice. The work is that
    /// of the lines read. A sink that cannot be read back says so.
    async fn outcomes_after(
        &self,
        after: AuditPosition,
        limit: usize,
    ) -> Result<AuditSlice, AuditReadError> {
        let _ = (after, limit);
        Err(AuditReadError::NotReadable {
            target: self.target(),
        })
    }

    /// Reads every line of the log from the first and checks its hash chain (see
    /// [`crate::domain::audit_chain`]): one report per log the sink keeps. A sink that cannot
    /// be read back says so ([`AuditReadError::NotReadable`]).
    async fn verify_chain(
        &self,
        anchors: &ChainAnchors,
    ) -> Result<Vec<ChainReport>, AuditReadError> {
        let _ = anchors;
        Err(AuditReadError::NotReadable {
            target: self.target(),
        })
    }

    /// Where the records go, in words (a path, "standard output"), for logs and messages.
    fn target(&self) -> String;
}
