//! Use case: the versions page of one repository.

use serde::Serialize;

use crate::domain::{
    build_version_views, Drift, ProductionTarget, RepoId, RepoVerification, VersionNumber,
    VersionView,
};
use crate::ports::UpstreamError;

use super::facts::{known_repo, snapshot, ReadError, UnknownRepository};
use super::production_record::ProductionRecord;
use super::state::AppState;

/// Everything the versions page shows (the spec's page content).
#[derive(Debug, Clone, Serialize)]
pub struct VersionsPage {
    pub repo_name: String,
    pub uuid: RepoId,
    /// Newest first.
    pub versions: Vec<VersionView>,
    pub verification: Option<RepoVerification>,
    /// The version production serves; `None` when none or unknown.
    pub deployed: Option<VersionNumber>,
    /// Set when the deployed version could not be determined (distributions not listed).
    pub deployed_unknown: Option<String>,
    /// Set when the repository or its versions could not be read: the page then lists no version.
    pub error: Option<String>,
    /// Production was changed outside the console (see [`crate::domain::detect_drift`]).
    #[serde(skip)]
    pub drift: Option<Drift>,
}

impl VersionsPage {
    /// The page when the repository or its versions could not be read: no version listed.
    fn unreadable(id: &RepoId, error: &UpstreamError) -> Self {
        Self {
            repo_name: id.to_string(),
            uuid: id.clone(),
            versions: Vec::new(),
            verification: None,
            deployed: None,
            deployed_unknown: None,
            error: Some(error.to_string()),
            drift: None,
        }
    }
}

/// Reads the repository, its versions and production concurrently and builds the page.
/// An upstream failure never fails the page: it is rendered with the error text. Only a
/// repository Pulp does not have is an error.
#[tracing::instrument(skip_all, fields(repo = %id))]
pub async fn versions_page(
    state: &AppState,
    id: &RepoId,
) -> Result<VersionsPage, UnknownRepository> {
    let snap = snapshot(state.reads.as_ref(), id, &state.production).await;
    let read = known_repo(id, snap.repo.clone()).and_then(|repo| match &snap.versions {
        Ok(versions) => Ok((repo, versions)),
        Err(error) => Err(ReadError::Upstream(error.clone())),
    });
    let (repo, versions) = match read {
        Ok(found) => found,
        Err(ReadError::UnknownRepository(unknown)) => return Err(unknown),
        Err(ReadError::Upstream(error)) => {
            tracing::warn!(%error, "versions page rendered without versions");
            return Ok(VersionsPage::unreadable(id, &error));
        }
    };
    let production = snap.production(state, &repo);
    let deployed = production
        .as_ref()
        .ok()
        .and_then(|p| p.deployed.as_ref())
        .map(|d| d.number);
    let distribution = production
        .as_ref()
        .ok()
        .and_then(|p| p.target.as_ref().ok());
    let drift = match distribution.map(ProductionTarget::distribution) {
        Some(dist) => ProductionRecord::read(state, id, Some(dist))
            .await
            .drift(dist),
        None => None,
    };
    Ok(VersionsPage {
        repo_name: repo.display_name().to_owned(),
        uuid: id.clone(),
        versions: build_version_views(versions, repo.verification.badge(), deployed),
        verification: Some(repo.verification.clone()),
        deployed,
        deployed_unknown: production.err().map(|e| e.to_string()),
        error: None,
        drift,
    })
}
