//! Production for every row of a dashboard page, in a bounded number of upstream calls:
//! the distributions (by name when every row's production is configured, else the list of
//! all) and one read of their publications by href (a few hrefs per call, none for
//! publications already read), whatever the number of rows. Drift is
//! judged per row on the audit lines alone (no upstream call): production no longer
//! serves the publication the console's last change set. So is the previous production
//! version, for the `retain_repo_versions` warning.

use std::collections::HashMap;

use crate::domain::{
    detect_drift, production_state, retention_risk, DeployRecord, Distribution, Publication,
    PublicationHref, RepoId, Repository, RetentionRisk, VersionHref, VersionNumber,
};
use crate::ports::UpstreamError;

use super::production_lookup::{distributions_for, served_publications};
use super::production_record::AUDIT_LINES;
use super::state::AppState;

/// Production as one dashboard row shows it.
#[derive(Debug, Clone)]
pub struct RowProduction {
    /// The version production serves (`None`: nothing of this repository); `Err` when it
    /// could not be read.
    pub serving: Result<Option<VersionNumber>, String>,
    /// Production was changed outside the console.
    pub drift: bool,
    /// Pulp's `retain_repo_versions` will delete the live or the previous version soon.
    pub retention: Option<RetentionRisk>,
}

impl Default for RowProduction {
    fn default() -> Self {
        Self {
            serving: Err("production could not be read".into()),
            drift: false,
            retention: None,
        }
    }
}

/// Production of each repository of the page.
pub async fn production_of_rows(
    state: &AppState,
    repos: &[Repository],
) -> Result<HashMap<RepoId, RowProduction>, UpstreamError> {
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
            let production = row_production(state, repo, &distributions, &publications, records);
            (repo.id.clone(), production)
        })
        .collect())
}

/// The distributions the rows need: by name when every row's production is configured (the
/// cost does not grow with Pulp), else all of them (the spec's rule looks at every one).
async fn page_distributions(
    state: &AppState,
    repos: &[Repository],
) -> Result<Vec<Distribution>, UpstreamError> {
    let configured: Option<Vec<String>> = repos
        .iter()
        .map(|repo| state.configured_production(repo).map(str::to_owned))
        .collect();
    distributions_for(state.reads.as_ref(), configured).await
}

/// One row: what production serves; drift and the retention risk from the audit lines.
fn row_production(
    state: &AppState,
    repo: &Repository,
    distributions: &[Distribution],
    publications: &HashMap<PublicationHref, Publication>,
    records: &[DeployRecord],
) -> RowProduction {
    let configured = state.configured_production(repo);
    let production = production_state(&repo.id, configured, distributions, publications);
    let serving = production.deployed.as_ref().map(|d| d.number);
    let Ok(target) = production.target else {
        return RowProduction {
            serving: Ok(serving),
            drift: false,
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
    RowProduction {
        serving: Ok(serving),
        drift: !records.is_empty() && detect_drift(records, &[], serves).is_some(),
        retention: retention_risk(repo.retain_versions, latest, serving, previous),
    }
}
