//! Reading what upstream says about a repository and its production, concurrently and in a
//! number of calls that does not grow with Pulp, and turning it into the facts the rules
//! work on.

use chrono::{DateTime, Utc};

use crate::domain::deploy::{
    versions_served, DeployFacts, DeployRecord, PreviousServing, ProductionState, Refusal,
};
use crate::domain::environment::{promotion_check, EnvironmentName, PromotionCheck};
use crate::domain::policy::served_since;
use crate::domain::repository::{RepoId, RepoVersion, Repository, UnsignedMetadata, VersionNumber};
use crate::ports::{RepositoryManager, UpstreamError};

use super::environments::{
    candidates, some_environments_of, Candidates, EnvironmentState, AUDIT_LINES,
};
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

/// The environment `environment` of `repo` (its distribution, what it serves), from the
/// candidates read with the repository (see [`candidates`]).
pub async fn environment_of(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    repo: &Repository,
    environment: &EnvironmentName,
    candidates: Result<Candidates, UpstreamError>,
) -> Result<ProductionState, UpstreamError> {
    let mut states =
        some_environments_of(state, upstream, repo, &[environment], candidates).await?;
    Ok(states
        .pop()
        .map_or_else(unknown_environment(environment), |e| e.state))
}

/// An environment not on the path has no distribution (callers check the name first).
fn unknown_environment(environment: &EnvironmentName) -> impl FnOnce() -> ProductionState + '_ {
    move || ProductionState {
        target: Err(Refusal::UnknownEnvironment(environment.to_string())),
        deployed: None,
    }
}

/// The distributions the environments may be, read at once with the repository (by the
/// repository's name as last seen, for the environments' patterns).
pub async fn candidates_for(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    id: &RepoId,
) -> Result<Candidates, UpstreamError> {
    candidates(
        upstream,
        &state.environments,
        state.seen().name(id).as_deref(),
    )
    .await
}

/// The repository and its environment `environment`, read through `upstream` (three calls
/// at once, then the publications the environment serves, which are usually known already).
pub async fn environment_facts(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    id: &RepoId,
    environment: &EnvironmentName,
) -> Result<(Repository, ProductionState), ReadError> {
    let (repo, candidates) =
        futures::join!(upstream.get_repo(id), candidates_for(state, upstream, id));
    let repo = known_repo(id, repo)?;
    let production = environment_of(state, upstream, &repo, environment, candidates).await?;
    Ok((repo, production))
}

/// Everything a deploy of version `target` to `environment` needs to know, read through
/// `upstream`: the repository, the environment and the one before it on the path (what it
/// served decides whether the target keeps the path's order, with the audit lines), and the
/// two versions the plan compares. Both versions are read in one call with the repository:
/// the target, and the version the environment served when last seen (a hint); when it
/// turns out to serve another, that one is read once the environment is known. Versions
/// never change, so the hint costs nothing in freshness; the environment as read is
/// remembered for the next. A constant number of calls, whatever the number of versions.
/// Fails when any part could not be read.
pub async fn deploy_facts(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    id: &RepoId,
    environment: &EnvironmentName,
    target: VersionNumber,
) -> Result<DeployFacts, ReadError> {
    let path = &state.environments;
    let previous = path.previous(environment).map(|e| e.name.clone());
    let expected_live = state
        .seen()
        .get(id, environment)
        .and_then(|seen| seen.serving);
    let numbers: Vec<VersionNumber> = std::iter::once(target)
        .chain(expected_live.filter(|n| *n != target))
        .collect();
    let (repo, candidates, read, audit) = futures::join!(
        upstream.get_repo(id),
        candidates_for(state, upstream, id),
        upstream.versions_numbered(id, &numbers),
        async {
            match &previous {
                Some(_) => state.audit.recent(id, AUDIT_LINES).await.ok(),
                None => None,
            }
        }
    );
    let repo = known_repo(id, repo)?;
    let names: Vec<&EnvironmentName> = std::iter::once(environment)
        .chain(previous.as_ref())
        .collect();
    let mut states = some_environments_of(state, upstream, &repo, &names, candidates).await?;
    let before = (states.len() > 1).then(|| states.remove(1));
    let production = states
        .pop()
        .map_or_else(unknown_environment(environment), |e| e.state);
    let current = production.deployed.as_ref().map(|d| d.number);
    let mut versions = read?;
    versions.retain(|v| v.number() == Some(target) || v.number() == current);
    let known = |n: VersionNumber| versions.iter().any(|v| v.number() == Some(n));
    if let Some(current) = current.filter(|n| *n != target && !known(*n)) {
        versions.extend(upstream.versions_numbered(id, &[current]).await?);
    }
    let distribution = production.target.as_ref().ok().map(|t| t.distribution());
    state.seen().saw(id, environment, distribution, current);
    let records = audit.as_deref().unwrap_or_default();
    let previous = before
        .as_ref()
        .map(|before| previous_serving(records, before));
    let served_before = before.map(|before| {
        versions_served(
            audit.as_deref().unwrap_or_default(),
            before.name(),
            before.serving(),
        )
    });
    let order = promotion_check(
        path,
        environment,
        target,
        &served_before.unwrap_or_default(),
    )
    .unwrap_or(PromotionCheck::FirstEnvironment);
    Ok(DeployFacts {
        repo,
        versions,
        environment: environment.clone(),
        deployed: production.deployed,
        production: production.target,
        order,
        previous,
        unsigned_metadata: state.policy.metadata().at(environment),
    })
}

/// What the environment before serves, and since when: by the audit's record of it, or
/// (changed outside the console) upstream's time of its distribution's last write.
fn previous_serving(records: &[DeployRecord], before: &EnvironmentState) -> PreviousServing {
    let last_updated = before
        .distribution()
        .and_then(|d| d.revision.as_ref())
        .and_then(|r| DateTime::parse_from_rfc3339(r.as_str()).ok())
        .map(|t| t.with_timezone(&Utc));
    PreviousServing {
        environment: before.name().clone(),
        serving: before.serving(),
        since: served_since(records, before.name(), before.serving(), last_updated),
    }
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

/// The policy on unsigned metadata a repository's badge is computed under: the strictest of
/// the path's environments, so that "Verified" means a deploy passes verification everywhere
/// (each deploy is held to its own environment's, see [`deploy_facts`]).
pub fn badge_policy(state: &AppState) -> UnsignedMetadata {
    state
        .policy
        .metadata()
        .everywhere(state.environments.iter().map(|e| &e.name))
}
