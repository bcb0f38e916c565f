//! Production for every row of a dashboard page, in a bounded number of upstream calls:
//! one list of the distributions and one read of their publications by href (a few hrefs
//! per call, none for publications already read), whatever the number of rows. Drift is
//! judged per row on the audit lines alone (no upstream call): production no longer
//! serves the publication the console's last change set.

use std::collections::HashMap;

use futures::future::join_all;

use crate::domain::{
    detect_drift, production_state, Publication, PublicationHref, RepoId, Repository, VersionNumber,
};
use crate::ports::UpstreamError;

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
}

impl Default for RowProduction {
    fn default() -> Self {
        Self {
            serving: Err("production could not be read".into()),
            drift: false,
        }
    }
}

/// Production of each repository of the page.
pub async fn production_of_rows(
    state: &AppState,
    repos: &[Repository],
) -> Result<HashMap<RepoId, RowProduction>, UpstreamError> {
    let distributions = state.reads.list_distributions().await?;
    let hrefs: Vec<PublicationHref> = distributions
        .iter()
        .filter_map(|d| d.publication.clone())
        .collect();
    let publications: HashMap<PublicationHref, Publication> = state
        .reads
        .publications(&hrefs)
        .await?
        .into_iter()
        .map(|p| (p.href.clone(), p))
        .collect();
    let rows = repos.iter().map(|repo| async {
        let configured = state
            .production
            .get(repo.display_name())
            .map(String::as_str);
        let production = production_state(&repo.id, configured, &distributions, &publications);
        let serving = production.deployed.as_ref().map(|d| d.number);
        let drift = match production.target {
            Ok(target) => {
                let records = state.audit.recent(&repo.id, AUDIT_LINES).await;
                let serves = target.distribution().publication.as_ref();
                records.is_ok_and(|records| detect_drift(&records, &[], serves).is_some())
            }
            Err(_) => false,
        };
        let serving = Ok(serving);
        (repo.id.clone(), RowProduction { serving, drift })
    });
    Ok(join_all(rows).await.into_iter().collect())
}
