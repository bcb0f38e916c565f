//! Every environment for every row of a dashboard page, in a bounded number of upstream
//! calls: the distributions (by name when every row's environments name theirs, else the
//! list of all) and one read of their publications by href (a few hrefs per call, none for
//! publications already read), whatever the number of rows or environments. Drift is judged
//! per row and environment on the audit lines alone (no upstream call): the environment no
//! longer serves the publication the console's last change set. So is the previous version
//! an environment served, for the `retain_repo_versions` warning.

use std::collections::{BTreeSet, HashMap};

use crate::domain::deploy::DeployRecord;
use crate::domain::environment::{Environment, EnvironmentName};
use crate::domain::history::{detect_drift, drift_baseline};
use crate::domain::repository::{
    retention_risk, Distribution, Publication, PublicationHref, RepoId, Repository, RetentionRisk,
    VersionHref, VersionNumber,
};
use crate::ports::UpstreamError;

use super::lookup::{distributions_for, has_no_distribution, naming, served_publications, Naming};
use super::record::AUDIT_LINES;
use crate::app::state::AppState;

/// One environment as one dashboard row shows it.
#[derive(Debug, Clone)]
pub struct RowProduction {
    /// Which environment.
    pub environment: EnvironmentName,
    /// The environment has no distribution for this repository.
    pub no_distribution: bool,
    /// The version production serves (`None`: nothing of this repository); `Err` when it
    /// could not be read.
    pub serving: Result<Option<VersionNumber>, String>,
    /// Production was changed outside the console.
    pub drift: bool,
    /// Set exactly when `drift` is: the console's last change and the distribution as read.
    pub drift_seen: Option<DriftSeen>,
    /// Pulp's `retain_repo_versions` will delete the live or the previous version soon.
    pub retention: Option<RetentionRisk>,
}

/// What drift was judged on: the console's last change of the environment (the newest
/// audit line whose deploy changed it) and its distribution as read now.
#[derive(Debug, Clone)]
pub struct DriftSeen {
    pub baseline: DeployRecord,
    pub distribution: Distribution,
}

impl RowProduction {
    /// The environment could not be read.
    pub fn unknown(environment: &EnvironmentName) -> Self {
        Self {
            environment: environment.clone(),
            no_distribution: false,
            serving: Err(format!("{environment} could not be read")),
            drift: false,
            drift_seen: None,
            retention: None,
        }
    }
}

/// Every environment of each repository of the page, in path order.
pub async fn environments_of_rows(
    state: &AppState,
    repos: &[Repository],
) -> Result<HashMap<RepoId, Vec<RowProduction>>, UpstreamError> {
    let distributions = read_needed(state, &needed_distributions(state, repos)).await?;
    Ok(environments_given(state, repos, &distributions).await)
}

/// Which distributions rows need: those named, or every one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NeededDistributions {
    /// Some environment of some row names none: the spec's rule looks at every one.
    Every,
    /// Each environment of each row names its distribution (possibly none at all).
    Named(BTreeSet<String>),
}

impl NeededDistributions {
    /// Whether distributions read for `self` answer for `other` too.
    pub fn covers(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Every, _) => true,
            (Self::Named(_), Self::Every) => false,
            (Self::Named(held), Self::Named(asked)) => asked.is_subset(held),
        }
    }
}

/// The distributions these rows need: by name when every row's environments name theirs (the
/// cost does not grow with Pulp), else all of them.
pub fn needed_distributions(state: &AppState, repos: &[Repository]) -> NeededDistributions {
    let mut names = BTreeSet::new();
    for repo in repos {
        for environment in state.environments.iter() {
            match naming(&state.environments, environment, repo) {
                Naming::Named(name) => {
                    names.insert(name);
                }
                Naming::Detect => return NeededDistributions::Every,
                Naming::Unnamed => {}
            }
        }
    }
    NeededDistributions::Named(names)
}

/// The distributions `needed` names (none named: no request).
pub async fn read_needed(
    state: &AppState,
    needed: &NeededDistributions,
) -> Result<Vec<Distribution>, UpstreamError> {
    match needed {
        NeededDistributions::Every => distributions_for(state.reads.as_ref(), None).await,
        NeededDistributions::Named(names) if names.is_empty() => Ok(Vec::new()),
        NeededDistributions::Named(names) => {
            let names = names.iter().cloned().collect();
            distributions_for(state.reads.as_ref(), Some(names)).await
        }
    }
}

/// Every environment of each repository, from `distributions` already read (at least those
/// the rows need): the publications they serve (one read, or none when already read) and the
/// audit lines, read at once.
pub async fn environments_given(
    state: &AppState,
    repos: &[Repository],
    distributions: &[Distribution],
) -> HashMap<RepoId, Vec<RowProduction>> {
    let ids: Vec<RepoId> = repos.iter().map(|r| r.id.clone()).collect();
    let (publications, audit) = futures::join!(
        served_publications(state.reads.as_ref(), distributions),
        state.audit.recent_of(&ids, AUDIT_LINES)
    );
    let audit = audit.unwrap_or_default();
    repos
        .iter()
        .map(|repo| {
            let records = audit.get(&repo.id).map(Vec::as_slice).unwrap_or_default();
            let environments = state
                .environments
                .iter()
                .map(|environment| {
                    let records: Vec<DeployRecord> = records
                        .iter()
                        .filter(|r| r.environment == environment.name)
                        .cloned()
                        .collect();
                    row_environment(
                        state,
                        environment,
                        repo,
                        distributions,
                        &publications,
                        &records,
                    )
                })
                .collect();
            (repo.id.clone(), environments)
        })
        .collect()
}

/// One environment of one row: what it serves; drift and the retention risk from the
/// audit lines of that environment.
fn row_environment(
    state: &AppState,
    environment: &Environment,
    repo: &Repository,
    distributions: &[Distribution],
    publications: &HashMap<PublicationHref, Publication>,
    records: &[DeployRecord],
) -> RowProduction {
    let production = naming(&state.environments, environment, repo).state(
        &environment.name,
        &repo.id,
        distributions,
        publications,
    );
    let serving = production.deployed.as_ref().map(|d| d.number);
    let no_distribution = has_no_distribution(&production);
    let Ok(target) = production.target else {
        return RowProduction {
            environment: environment.name.clone(),
            no_distribution,
            serving: Ok(serving),
            drift: false,
            drift_seen: None,
            retention: None,
        };
    };
    let serves = target.distribution().publication.as_ref();
    let previous = records
        .iter()
        .find(|r| Some(r.target_version) == serving.map(VersionNumber::get))
        .and_then(|r| r.previous_version)
        .map(VersionNumber::new);
    let latest = repo.latest_version.as_ref().and_then(VersionHref::number);
    let drift_seen = detect_drift(records, &[], serves)
        .and_then(|_| drift_baseline(records))
        .map(|baseline| DriftSeen {
            baseline: baseline.clone(),
            distribution: target.distribution().clone(),
        });
    RowProduction {
        environment: environment.name.clone(),
        no_distribution: false,
        serving: Ok(serving),
        drift: drift_seen.is_some(),
        drift_seen,
        retention: retention_risk(repo.retain_versions, latest, serving, previous),
    }
}
