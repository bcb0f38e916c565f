//! The repository manager port: what the console needs from Pulp.

use std::collections::HashMap;

use async_trait::async_trait;

use crate::domain::{
    Distribution, DistributionHref, Publication, PublicationHref, RemoteHref, RepoId, RepoVersion,
    Repository, TaskHref, VersionHref,
};

/// Why an upstream call failed. Adapter-neutral: the message is for operators.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpstreamError {
    /// Upstream answered with an error status; `message` carries its explanation.
    #[error("Pulp answered HTTP {status}: {message}")]
    Http { status: u16, message: String },
    /// Upstream refused the credentials.
    #[error(
        "Authentication with Pulp failed: {}. Check the console's Pulp username and password.",
        .0.trim_end_matches('.')
    )]
    Auth(String),
    /// No answer in time. The request may or may not have been carried out.
    #[error("Pulp did not answer in time ({0})")]
    Timeout(String),
    /// No connection could be made (refused, DNS, TLS handshake).
    #[error("Pulp is unreachable: {0}")]
    Unreachable(String),
    /// The connection broke while the request was under way (reset, closed early): it may
    /// or may not have been carried out.
    #[error("the connection to Pulp broke during the request ({0}); it may or may not have been carried out")]
    Interrupted(String),
    /// Upstream answered something the console cannot read.
    #[error("Pulp sent a response the console cannot read: {0}")]
    BadResponse(String),
    /// The upstream task ended in failure; the text is upstream's description.
    #[error("the Pulp task failed: {0}")]
    TaskFailed(String),
    /// The upstream task was canceled.
    #[error("the Pulp task was canceled: {0}")]
    TaskCanceled(String),
}

impl UpstreamError {
    /// True when upstream certainly did not carry the request out: it said no (4xx),
    /// or no connection was ever made. Anything else leaves the outcome unknown.
    pub fn certainly_not_applied(&self) -> bool {
        match self {
            Self::Http { status, .. } => (400..500).contains(status),
            Self::Auth(_) | Self::Unreachable(_) | Self::TaskFailed(_) | Self::TaskCanceled(_) => {
                true
            }
            Self::Timeout(_) | Self::Interrupted(_) | Self::BadResponse(_) => false,
        }
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Http { status: 404, .. })
    }
}

/// The state of an upstream task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    Waiting,
    Running,
    Canceling,
    Completed,
    Failed,
    Canceled,
}

impl TaskState {
    pub fn is_final(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Canceled)
    }
}

/// One progress report of a task (e.g. "Downloading Artifacts" 3 of 12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressReport {
    pub code: String,
    pub message: String,
    pub done: u64,
    pub total: Option<u64>,
}

/// A snapshot of an upstream task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskReport {
    pub href: TaskHref,
    pub state: TaskState,
    pub progress: Vec<ProgressReport>,
    /// Upstream's description of the failure, when it failed.
    pub error: Option<String>,
    /// Addresses of what the task created (a version, a publication…).
    pub created_resources: Vec<String>,
}

/// A task that completed successfully.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedTask {
    pub href: TaskHref,
    pub created_resources: Vec<String>,
}

/// Which slice of a long list to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub offset: u64,
    pub limit: u64,
}

/// One slice of a long list and the size of the whole list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: u64,
}

/// The repository manager (Pulp 3 with pulp_rpm). Every list operation returns the whole
/// list (adapters follow pagination) unless it takes a [`PageRequest`].
#[async_trait]
pub trait RepositoryManager: Send + Sync {
    /// One page of RPM repositories, in upstream's order (by name).
    async fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError>;

    /// One repository with its verification settings.
    async fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError>;

    /// Every version of a repository with its package counts (any order).
    async fn list_versions(&self, id: &RepoId) -> Result<Vec<RepoVersion>, UpstreamError>;

    /// Every RPM distribution, in upstream's order.
    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError>;

    /// One distribution (to re-read where production points).
    async fn get_distribution(
        &self,
        href: &DistributionHref,
    ) -> Result<Distribution, UpstreamError>;

    /// One publication.
    async fn get_publication(&self, href: &PublicationHref) -> Result<Publication, UpstreamError>;

    /// Every publication of any version of a repository.
    async fn list_publications(&self, id: &RepoId) -> Result<Vec<Publication>, UpstreamError>;

    /// Starts publishing a repository version; answers the task to wait for.
    async fn create_publication(&self, version: &VersionHref) -> Result<TaskHref, UpstreamError>;

    /// Starts pointing a distribution at a publication; answers the task to wait for.
    async fn update_distribution(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> Result<TaskHref, UpstreamError>;

    /// Waits until the task ends. `Ok` only when it completed; `TaskFailed`/`TaskCanceled`
    /// when it ended otherwise; `Timeout` when it had not ended in the allowed time
    /// (its outcome is then unknown).
    async fn wait_for_task(&self, task: &TaskHref) -> Result<FinishedTask, UpstreamError>;

    /// A snapshot of one task.
    async fn get_task(&self, task: &TaskHref) -> Result<TaskReport, UpstreamError>;

    /// Starts synchronizing a repository from a remote; answers the task.
    async fn sync(&self, id: &RepoId, remote: &RemoteHref) -> Result<TaskHref, UpstreamError>;

    /// The newest synchronization task of each given repository (absent when it has none),
    /// in a bounded number of upstream calls whatever the number of repositories.
    async fn latest_sync_tasks(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, TaskReport>, UpstreamError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_authentication_failure_reads_as_sentences_without_a_double_period() {
        let shown = UpstreamError::Auth("Invalid username/password.".into()).to_string();
        assert_eq!(
            shown,
            "Authentication with Pulp failed: Invalid username/password. \
             Check the console's Pulp username and password."
        );
        let bare = UpstreamError::Auth("no credentials".into()).to_string();
        assert!(
            bare.starts_with("Authentication with Pulp failed: no credentials. Check"),
            "{bare}"
        );
    }
}
