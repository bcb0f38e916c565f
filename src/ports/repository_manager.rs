//! The repository manager port: what the console needs from Pulp.

use std::collections::HashMap;

use async_trait::async_trait;

pub use super::upstream_error::UpstreamError;
use crate::domain::deploy::WriteVerdict;
use crate::domain::repository::{
    Distribution, DistributionChange, DistributionHref, Publication, PublicationHref, RemoteHref,
    RepoId, RepoVersion, Repository, TaskHref, VersionHref, VersionNumber,
};
use crate::domain::sync::SyncState;

/// What upstream did with a change the console asked for. The adapter sends the request
/// and waits for upstream's work to end (retrying a failed look at it until the task
/// timeout), so that the answer is one of these and never a guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteOutcome<T> {
    /// Upstream carried the change out.
    Applied(T),
    /// Upstream never accepted the request (it answered 4xx, or no connection was made):
    /// nothing was changed.
    Refused(UpstreamError),
    /// Upstream accepted the request and its work ended without carrying it out (the task
    /// failed or was canceled).
    Failed {
        error: UpstreamError,
        task: TaskHref,
    },
    /// Upstream may have accepted the request and the console could not learn how it ended
    /// (the answer was lost, or the work had not ended in time): it may still land.
    Unknown {
        error: UpstreamError,
        /// Upstream's task, when it named one: what an operator checks.
        task: Option<TaskHref>,
    },
}

impl<T> WriteOutcome<T> {
    /// The outcome without its value, for the domain's rules.
    pub fn verdict(&self) -> WriteVerdict {
        match self {
            Self::Applied(_) => WriteVerdict::Applied,
            Self::Refused(_) => WriteVerdict::Refused,
            Self::Failed { .. } => WriteVerdict::Failed,
            Self::Unknown { .. } => WriteVerdict::Unknown,
        }
    }
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

/// The repository manager (Pulp 3 with pulp_rpm), in the console's terms. Reads cost a
/// number of upstream calls that does not grow with upstream, except
/// [`Self::list_distributions`] (the spec's rule for an unconfigured production needs them
/// all; adapters read them in few, concurrent calls). Changes wait for upstream's work to
/// end and answer a [`WriteOutcome`].
#[async_trait]
pub trait RepositoryManager: Send + Sync {
    /// One page of RPM repositories, in upstream's order (by name).
    async fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError>;

    /// One repository with its verification settings.
    async fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError>;

    /// The repository named `name`, if upstream has one. By default, [`Self::list_repos`]
    /// read in order until the name is passed; adapters that can filter by name do.
    async fn repo_named(&self, name: &str) -> Result<Option<Repository>, UpstreamError> {
        const SLICE: u64 = 100;
        let mut offset = 0;
        loop {
            let page = self
                .list_repos(PageRequest {
                    offset,
                    limit: SLICE,
                })
                .await?;
            for repo in &page.items {
                match repo.name.as_deref().map(|n| n.cmp(name)) {
                    Some(std::cmp::Ordering::Equal) => return Ok(Some(repo.clone())),
                    Some(std::cmp::Ordering::Greater) => return Ok(None),
                    _ => {}
                }
            }
            offset += SLICE;
            if page.items.is_empty() || offset >= page.total {
                return Ok(None);
            }
        }
    }

    /// One slice of a repository's versions, newest first (by number), with the number of
    /// versions in all: one upstream call, whatever the number of versions.
    async fn version_page(
        &self,
        id: &RepoId,
        page: PageRequest,
    ) -> Result<Page<RepoVersion>, UpstreamError>;

    /// The versions of a repository with these numbers (those that exist, each once, in any
    /// order; a number may be asked for twice), in a number of upstream calls bounded by the
    /// number of numbers, not of versions.
    async fn versions_numbered(
        &self,
        id: &RepoId,
        numbers: &[VersionNumber],
    ) -> Result<Vec<RepoVersion>, UpstreamError>;

    /// How many versions of a repository are newer than version `number` (its place in
    /// the newest-first list), in one upstream call.
    async fn versions_newer_than(
        &self,
        id: &RepoId,
        number: VersionNumber,
    ) -> Result<u64, UpstreamError>;

    /// Every RPM distribution, in upstream's order.
    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError>;

    /// The distributions with these names (those that exist), in a number of upstream calls
    /// bounded by the number of names, not by the number of distributions upstream.
    async fn distributions_named(
        &self,
        names: &[String],
    ) -> Result<Vec<Distribution>, UpstreamError>;

    /// One distribution, read fresh (where production points now).
    async fn get_distribution(
        &self,
        href: &DistributionHref,
    ) -> Result<Distribution, UpstreamError>;

    /// One publication.
    async fn get_publication(&self, href: &PublicationHref) -> Result<Publication, UpstreamError>;

    /// The publications with these hrefs (those upstream has; any order), in a bounded
    /// number of calls: a few hrefs per call, and none for publications already read.
    async fn publications(
        &self,
        hrefs: &[PublicationHref],
    ) -> Result<Vec<Publication>, UpstreamError>;

    /// The publications of `version` made with the settings repository `repo` publishes with
    /// now (its `repo_config` and checksum type), newest first: publications a promotion may
    /// serve again instead of publishing anew. Two upstream calls at once.
    async fn reusable_publications(
        &self,
        repo: &RepoId,
        version: &VersionHref,
    ) -> Result<Vec<PublicationHref>, UpstreamError>;

    /// Publishes a repository version and answers the new publication once it exists.
    /// Publishing serves nothing by itself. Upstream's record of the work carries the
    /// correlation id of the caller's [`super::correlation`] scope (the deploy it belongs to).
    async fn publish(&self, version: &VersionHref) -> WriteOutcome<PublicationHref>;

    /// Points a distribution at a publication; `Applied` once it serves it. Upstream's
    /// record of the change carries the correlation id of the caller's
    /// [`super::correlation`] scope, so that [`Self::distribution_changes`] tells the
    /// console's changes from others.
    async fn point_distribution(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> WriteOutcome<()>;

    /// Upstream's record of the newest changes of a distribution (whoever made them),
    /// newest first, at most `limit`, in one upstream call.
    async fn distribution_changes(
        &self,
        distribution: &DistributionHref,
        limit: u64,
    ) -> Result<Vec<DistributionChange>, UpstreamError>;

    /// Starts synchronizing a repository from a remote; answers its state just after.
    async fn start_sync(
        &self,
        id: &RepoId,
        remote: &RemoteHref,
    ) -> Result<SyncState, UpstreamError>;

    /// The state of the newest synchronization of each given repository (absent when it
    /// has none), in a bounded number of upstream calls whatever the number of repositories.
    async fn sync_states(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, SyncState>, UpstreamError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_authentication_failure_reads_as_sentences_without_a_double_period() {
        let shown = UpstreamError::Auth("Invalid username/password.".into()).detail();
        assert_eq!(
            shown,
            "Authentication with Pulp failed: Invalid username/password. \
             Check the console's Pulp username and password."
        );
        let bare = UpstreamError::Auth("no credentials".into()).detail();
        assert!(
            bare.starts_with("Authentication with Pulp failed: no credentials. Check"),
            "{bare}"
        );
    }
}
