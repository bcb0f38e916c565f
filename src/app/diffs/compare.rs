//! Use cases: what a deploy changes (packages and advisories, next to the preview), and the
//! comparison of any two versions of a repository.

use std::sync::Arc;

use crate::domain::content::kind::ContentType;
use crate::domain::deploy::DeployPlan;
use crate::domain::diff::{DiffEnd, VersionDiff};
use crate::domain::repository::{RepoId, Repository, VersionNumber};
use crate::ports::UpstreamError;

use crate::app::diffs::known::{known_diff, remember_diff};
use crate::app::diffs::read::read_difference;
use crate::app::state::AppState;

/// The net difference from `from` (none: an empty repository) to `to`, each with its
/// package count: a diff already known (in memory or in the diff store: versions never
/// change, so neither does their difference), or the cheapest exact reads upstream (see
/// [`read_difference`]), computed once however many ask at the same time.
#[tracing::instrument(skip_all, fields(from = ?from.map(|f| f.href.as_str()), to = %to.href))]
pub async fn version_diff(
    state: &AppState,
    content_type: ContentType,
    from: Option<DiffEnd<'_>>,
    to: DiffEnd<'_>,
) -> Result<Arc<VersionDiff>, UpstreamError> {
    let key = (from.map(|f| f.href.clone()), to.href.clone());
    if let Some(diff) = state.diffs().get(&key) {
        return Ok(diff);
    }
    let compute = || async {
        if let Some(diff) = known_diff(state, &key).await {
            return Ok(diff);
        }
        let difference = read_difference(state.content.as_ref(), content_type, from, to).await?;
        Ok(remember_diff(state, key.clone(), VersionDiff::new(difference)).await)
    };
    state.diff_flights().share(&key, compute).await
}

/// What deploying `plan` changes in production: from the version production serves (none:
/// everything is new) to the target.
pub async fn deploy_changes(
    state: &AppState,
    plan: &DeployPlan,
) -> Result<Arc<VersionDiff>, UpstreamError> {
    let from = plan.current.map(|n| plan.repo.version_href(n));
    // The preview's net change is the target's count minus production's.
    let current_count = u64::try_from(plan.target.package_count as i64 - plan.net_change).ok();
    let from = from.as_ref().map(|href| DiffEnd {
        href,
        count: current_count,
    });
    let to = DiffEnd {
        href: &plan.target.href,
        count: Some(plan.target.package_count),
    };
    version_diff(state, plan.repo.content_type(), from, to).await
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
    let count_of = |n: VersionNumber| {
        versions
            .iter()
            .find(|v| v.number() == Some(n))
            .map(|v| v.package_count)
            .ok_or(CompareError::UnknownVersion(n))
    };
    let (to_count, from_count) = (count_of(to)?, count_of(from)?);
    let (from_href, to_href) = (repo.version_href(from), repo.version_href(to));
    let ends = |href, count| DiffEnd {
        href,
        count: Some(count),
    };
    let diff = version_diff(
        state,
        repo.content_type(),
        Some(ends(&from_href, from_count)),
        ends(&to_href, to_count),
    )
    .await?;
    Ok(Comparison {
        repo,
        from,
        to,
        diff,
    })
}
