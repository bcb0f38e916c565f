//! Use cases: what a deploy changes (packages and advisories, next to the preview), and the
//! comparison of any two versions of a repository.

use std::sync::Arc;

use crate::domain::{
    ContentDifference, DeployPlan, RepoId, Repository, VersionDiff, VersionHref, VersionNumber,
};
use crate::ports::UpstreamError;

use super::state::AppState;

/// The net difference from `from` (none: an empty repository) to `to`: four concurrent
/// filtered lists upstream (packages and advisories, each way), or the cached answer
/// (versions never change, so neither does their difference).
#[tracing::instrument(skip_all, fields(from = ?from.map(VersionHref::as_str), to = %to))]
pub async fn version_diff(
    state: &AppState,
    from: Option<&VersionHref>,
    to: &VersionHref,
) -> Result<Arc<VersionDiff>, UpstreamError> {
    let key = (from.cloned(), to.clone());
    if let Some(diff) = state.diffs.get(&key) {
        return Ok(diff);
    }
    let catalog = state.content.as_ref();
    let (packages_only_new, packages_only_old, advisories_only_new, advisories_only_old) = futures::try_join!(
        catalog.packages_not_in(to, from),
        async {
            match from {
                Some(from) => catalog.packages_not_in(from, Some(to)).await,
                None => Ok(Vec::new()),
            }
        },
        catalog.advisories_not_in(to, from),
        async {
            match from {
                Some(from) => catalog.advisories_not_in(from, Some(to)).await,
                None => Ok(Vec::new()),
            }
        },
    )?;
    let diff = Arc::new(VersionDiff::new(ContentDifference {
        packages_only_new,
        packages_only_old,
        advisories_only_new,
        advisories_only_old,
    }));
    state.diffs.insert(key, diff.clone());
    Ok(diff)
}

/// What deploying `plan` changes in production: from the version production serves (none:
/// everything is new) to the target.
pub async fn deploy_changes(
    state: &AppState,
    plan: &DeployPlan,
) -> Result<Arc<VersionDiff>, UpstreamError> {
    let from = plan.current.map(|n| plan.repo.version_href(n));
    version_diff(state, from.as_ref(), &plan.target.href).await
}

/// The comparison of two versions of one repository.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub repo: Repository,
    pub from: VersionNumber,
    pub to: VersionNumber,
    pub diff: Arc<VersionDiff>,
}

/// Why a comparison cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("Version v{0} does not exist in this repository (it may have been deleted).")]
    UnknownVersion(VersionNumber),
    #[error("Could not read the versions from Pulp: {0}")]
    Upstream(#[from] UpstreamError),
}

/// Compares version `from` with version `to` of repository `id`, after checking both exist.
#[tracing::instrument(skip_all, fields(repo = %id, from = %from, to = %to))]
pub async fn compare(
    state: &AppState,
    id: &RepoId,
    from: VersionNumber,
    to: VersionNumber,
) -> Result<Comparison, CompareError> {
    let numbers = [from, to];
    let (repo, versions) = futures::try_join!(
        state.reads.get_repo(id),
        state.reads.versions_numbered(id, &numbers)
    )?;
    for n in [to, from] {
        if !versions.iter().any(|v| v.number() == Some(n)) {
            return Err(CompareError::UnknownVersion(n));
        }
    }
    let (from_href, to_href) = (repo.version_href(from), repo.version_href(to));
    let diff = version_diff(state, Some(&from_href), &to_href).await?;
    Ok(Comparison {
        repo,
        from,
        to,
        diff,
    })
}
