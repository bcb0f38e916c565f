//! Reading what upstream says about a repository and its production, concurrently and in a
//! number of calls that does not grow with Pulp, and turning it into the facts the rules
//! work on.

use crate::domain::{
    production_state, DeployFacts, Distribution, ProductionState, RepoId, RepoVersion, Repository,
    VersionNumber,
};
use crate::ports::{RepositoryManager, UpstreamError};

use super::production_lookup::{production_candidates, served_publications};
use super::state::AppState;

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

/// Where production is and what it serves, from the candidate distributions read with the
/// repository (see [`production_candidates`]): the configured distribution when one is
/// named, else the spec's rule (all distributions: read now, after the repository's name
/// showed it has none configured, when the candidates were only the configured ones).
pub async fn production_of(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    repo: &Repository,
    candidates: Result<Vec<Distribution>, UpstreamError>,
) -> Result<ProductionState, UpstreamError> {
    let configured = state.configured_production(repo);
    let distributions = match configured {
        None if !state.production.is_empty() => upstream.list_distributions().await?,
        _ => candidates?,
    };
    let publications = served_publications(upstream, &distributions).await;
    Ok(production_state(
        &repo.id,
        configured,
        &distributions,
        &publications,
    ))
}

/// The repository and its production, read through `upstream` (three calls at once, then
/// the publications production serves, which are usually known already).
pub async fn production_facts(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    id: &RepoId,
) -> Result<(Repository, ProductionState), ReadError> {
    let (repo, candidates) = futures::join!(
        upstream.get_repo(id),
        production_candidates(upstream, &state.production)
    );
    let repo = known_repo(id, repo)?;
    let production = production_of(state, upstream, &repo, candidates).await?;
    Ok((repo, production))
}

/// Everything a deploy to version `target` needs to know, read through `upstream`: the
/// repository, production, and the two versions the plan compares. Both versions are read
/// in one call with the repository: the target, and the version production served when last
/// seen (a hint); when production turns out to serve another, that one is read once
/// production is known. Versions never change, so the hint costs nothing in freshness;
/// production as read is remembered for the next. A constant number of calls, whatever the
/// number of versions. Fails when any part could not be read.
pub async fn deploy_facts(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    id: &RepoId,
    target: VersionNumber,
) -> Result<DeployFacts, ReadError> {
    let expected_live = state.seen_production.get(id).and_then(|seen| seen.serving);
    let numbers: Vec<VersionNumber> = std::iter::once(target)
        .chain(expected_live.filter(|n| *n != target))
        .collect();
    let (facts, read) = futures::join!(
        production_facts(state, upstream, id),
        upstream.versions_numbered(id, &numbers)
    );
    let (repo, production) = facts?;
    let current = production.deployed.as_ref().map(|d| d.number);
    let mut versions = read?;
    versions.retain(|v| v.number() == Some(target) || v.number() == current);
    let known = |n: VersionNumber| versions.iter().any(|v| v.number() == Some(n));
    if let Some(current) = current.filter(|n| *n != target && !known(*n)) {
        versions.extend(upstream.versions_numbered(id, &[current]).await?);
    }
    let distribution = production.target.as_ref().ok().map(|t| t.distribution());
    state.seen_production.saw(id, distribution, current);
    Ok(DeployFacts {
        repo,
        versions,
        deployed: production.deployed,
        production: production.target,
    })
}

/// The versions with these numbers that Pulp still has.
pub async fn existing_versions(
    upstream: &dyn RepositoryManager,
    id: &RepoId,
    numbers: &[VersionNumber],
) -> Result<Vec<RepoVersion>, UpstreamError> {
    if numbers.is_empty() {
        return Ok(Vec::new());
    }
    upstream.versions_numbered(id, numbers).await
}
