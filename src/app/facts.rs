//! Reading what upstream says about a repository, concurrently and in a bounded number of
//! calls, and turning it into the facts the rules work on.

use std::collections::HashMap;

use futures::future::join_all;

use crate::domain::{
    production_state, DeployFacts, Distribution, ProductionState, Publication, PublicationHref,
    RepoId, RepoVersion, Repository,
};
use crate::ports::{RepositoryManager, UpstreamError};

use super::state::AppState;

/// What upstream answered about one repository; each part may have failed on its own.
pub struct Snapshot {
    pub repo: Result<Repository, UpstreamError>,
    pub versions: Result<Vec<RepoVersion>, UpstreamError>,
    pub distributions: Result<Vec<Distribution>, UpstreamError>,
    pub publications: HashMap<PublicationHref, Publication>,
}

/// Four independent calls at once: the repository, its versions, the distributions and the
/// repository's publications (joined locally). When production distributions are
/// configured, only those are read (by name: the cost does not grow with Pulp); all of
/// them are listed only for a repository that has none configured (the spec's rule), after
/// its name is known. Only when the publication list fails are the distributions'
/// publications fetched one by one (a failed fetch then skips that distribution, as the
/// spec says).
pub async fn snapshot(
    manager: &dyn RepositoryManager,
    id: &RepoId,
    production: &HashMap<String, String>,
) -> Snapshot {
    let (repo, versions, distributions, publications) = futures::join!(
        manager.get_repo(id),
        manager.list_versions(id),
        production_candidates(manager, production),
        manager.list_publications(id),
    );
    let configured = |repo: &Repository| production.contains_key(repo.display_name());
    let distributions = match &repo {
        Ok(repo) if !production.is_empty() && !configured(repo) => {
            manager.list_distributions().await
        }
        _ => distributions,
    };
    let publications = match (publications, &distributions) {
        (Ok(list), _) => list.into_iter().map(|p| (p.href.clone(), p)).collect(),
        (Err(error), Ok(distributions)) => {
            tracing::warn!(%error, "listing publications failed; fetching them one by one");
            fetch_each(manager, distributions).await
        }
        (Err(_), Err(_)) => HashMap::new(),
    };
    Snapshot {
        repo,
        versions,
        distributions,
        publications,
    }
}

/// The configured production distributions, or every distribution when none is configured.
async fn production_candidates(
    manager: &dyn RepositoryManager,
    production: &HashMap<String, String>,
) -> Result<Vec<Distribution>, UpstreamError> {
    if production.is_empty() {
        return manager.list_distributions().await;
    }
    let mut names: Vec<String> = production.values().cloned().collect();
    names.sort();
    names.dedup();
    manager.distributions_named(&names).await
}

async fn fetch_each(
    manager: &dyn RepositoryManager,
    distributions: &[Distribution],
) -> HashMap<PublicationHref, Publication> {
    let hrefs = distributions.iter().filter_map(|d| d.publication.as_ref());
    let fetched = join_all(hrefs.map(|h| manager.get_publication(h))).await;
    fetched
        .into_iter()
        .flatten()
        .map(|p| (p.href.clone(), p))
        .collect()
}

impl Snapshot {
    /// Where production is and what it serves; an error when distributions could not be listed.
    pub fn production(
        &self,
        state: &AppState,
        repo: &Repository,
    ) -> Result<ProductionState, UpstreamError> {
        let distributions = self.distributions.as_ref().map_err(Clone::clone)?;
        let configured = state
            .production
            .get(repo.display_name())
            .map(String::as_str);
        Ok(production_state(
            &repo.id,
            configured,
            distributions,
            &self.publications,
        ))
    }
}

/// Pulp has no repository with this id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Pulp has no RPM repository {0} (it may have been deleted). Pick one on the dashboard.")]
pub struct UnknownRepository(pub RepoId);

/// Why the facts of a repository could not be read.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    UnknownRepository(#[from] UnknownRepository),
    #[error("Could not read the repository from Pulp: {0}")]
    Upstream(#[from] UpstreamError),
}

/// The repository as read, with a 404 from Pulp told apart from other failures.
pub fn known_repo(
    id: &RepoId,
    read: Result<Repository, UpstreamError>,
) -> Result<Repository, ReadError> {
    read.map_err(|error| match error {
        e if e.is_not_found() => ReadError::UnknownRepository(UnknownRepository(id.clone())),
        e => ReadError::Upstream(e),
    })
}

/// Everything a deploy needs to know, read through `upstream`; fails when any part could
/// not be read.
pub async fn deploy_facts(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    id: &RepoId,
) -> Result<DeployFacts, ReadError> {
    let snap = snapshot(upstream, id, &state.production).await;
    let repo = known_repo(id, snap.repo.clone())?;
    let production = snap.production(state, &repo)?;
    let versions = snap.versions?;
    Ok(DeployFacts {
        repo,
        versions,
        deployed: production.deployed,
        production: production.target,
    })
}
