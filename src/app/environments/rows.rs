//! Every environment for every row of a dashboard page, in a bounded number of upstream
//! calls: the distributions (by name when every row's environments name theirs, else the
//! list of all) and one read of their publications by href (a few hrefs per call, none for
//! publications already read), whatever the number of rows or environments. Drift is judged
//! per row and environment on the audit lines alone (no upstream call): the environment no
//! longer serves the publication the console's last change set. So is the previous version
//! an environment served, for the `retain_repo_versions` warning.

use std::collections::HashMap;

use crate::domain::{
    detect_drift, drift_baseline, retention_risk, DeployRecord, Distribution, Environment,
    EnvironmentName, Publication, PublicationHref, RepoId, Repository, RetentionRisk, VersionHref,
    VersionNumber,
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
    let ids: Vec<RepoId> = repos.iter().map(|r| r.id.clone()).collect();
    // The audit log is read once for the whole page, while the distributions are read.
    let (distributions, audit) = futures::join!(
        page_distributions(state, repos),
        state.audit.recent_of(&ids, AUDIT_LINES)
    );
    let distributions = distributions?;
    let audit = audit.unwrap_or_default();
    let publications = served_publications(state.reads.as_ref(), &distributions).await;
    Ok(repos
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
                        &distributions,
                        &publications,
                        &records,
                    )
                })
                .collect();
            (repo.id.clone(), environments)
        })
        .collect())
}

/// The distributions the rows need: by name when every row's production is configured (the
/// cost does not grow with Pulp), else all of them (the spec's rule looks at every one).
async fn page_distributions(
    state: &AppState,
    repos: &[Repository],
) -> Result<Vec<Distribution>, UpstreamError> {
    let mut names = Vec::new();
    for repo in repos {
        for environment in state.environments.iter() {
            match naming(&state.environments, environment, repo) {
                Naming::Named(name) => names.push(name),
                Naming::Detect => return distributions_for(state.reads.as_ref(), None).await,
                Naming::Unnamed => {}
            }
        }
    }
    if names.is_empty() {
        return Ok(Vec::new());
    }
    distributions_for(state.reads.as_ref(), Some(names)).await
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
