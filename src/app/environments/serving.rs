//! What each environment of a repository serves, and how sure the console is: the one call
//! the use cases make. The distributions come from the candidates read with the repository
//! (completed by at most one more call when a name was not asked for), and the publications
//! they serve from one more call (usually answered from what was read before).

use crate::domain::deploy::ProductionState;
use crate::domain::environment::{Environment, EnvironmentName};
use crate::domain::repository::{Distribution, Repository, VersionNumber};
use crate::ports::{RepositoryManager, UpstreamError};

use super::lookup::{complete, naming, served_publications, Candidates, Naming};
use crate::app::state::AppState;

/// One environment of a repository as read: where its distribution is and what it serves.
#[derive(Debug, Clone)]
pub struct EnvironmentState {
    pub environment: Environment,
    pub state: ProductionState,
}

impl EnvironmentState {
    pub fn name(&self) -> &EnvironmentName {
        &self.environment.name
    }

    /// The version of the repository it serves.
    pub fn serving(&self) -> Option<VersionNumber> {
        self.state.deployed.as_ref().map(|d| d.number)
    }

    /// Its distribution, when it has one.
    pub fn distribution(&self) -> Option<&Distribution> {
        self.state.target.as_ref().ok().map(|t| t.distribution())
    }
}

/// Every environment of `repo`, in path order (see the module's doc for the calls).
pub async fn environments_of(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    repo: &Repository,
    candidates: Result<Candidates, UpstreamError>,
) -> Result<Vec<EnvironmentState>, UpstreamError> {
    let environments: Vec<&Environment> = state.environments.iter().collect();
    states_of(state, upstream, repo, &environments, candidates).await
}

/// The environments named `names` (each on the path) of `repo`, in that order.
pub async fn some_environments_of(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    repo: &Repository,
    names: &[&EnvironmentName],
    candidates: Result<Candidates, UpstreamError>,
) -> Result<Vec<EnvironmentState>, UpstreamError> {
    let environments: Vec<&Environment> = names
        .iter()
        .filter_map(|name| state.environments.get(name))
        .collect();
    states_of(state, upstream, repo, &environments, candidates).await
}

async fn states_of(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    repo: &Repository,
    environments: &[&Environment],
    candidates: Result<Candidates, UpstreamError>,
) -> Result<Vec<EnvironmentState>, UpstreamError> {
    state.seen().saw_name(&repo.id, repo.display_name());
    let namings: Vec<Naming> = environments
        .iter()
        .map(|environment| naming(&state.environments, environment, repo))
        .collect();
    let candidates = complete(upstream, candidates?, &namings).await?;
    let publications = served_publications(upstream, &candidates.distributions).await;
    Ok(environments
        .iter()
        .zip(namings)
        .map(|(environment, naming)| {
            let state = naming.state(
                &environment.name,
                &repo.id,
                &candidates.distributions,
                &publications,
            );
            EnvironmentState {
                environment: (*environment).clone(),
                state,
            }
        })
        .collect())
}
