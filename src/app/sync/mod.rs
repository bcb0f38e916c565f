//! Use cases: start a synchronization, and read its state.

use crate::domain::identity::Operator;
use crate::domain::policy::Denied;
use crate::domain::repository::{RepoId, Repository, VersionHref, VersionNumber};
use crate::domain::sync::SyncState;
use crate::ports::{RepositoryManager, UpstreamError};

use super::events;
use super::facts::{known_repo, ReadError, UnknownRepository};
use super::state::AppState;
use crate::app::diffs::ahead::newest_against_production;

/// Why a synchronization was not started.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(
        "This repository has no remote to synchronize from. Set one on the repository in Pulp."
    )]
    NoRemote,
    #[error("A synchronization of this repository is already running.")]
    AlreadyRunning,
    #[error(transparent)]
    UnknownRepository(#[from] UnknownRepository),
    #[error("Could not reach Pulp for the synchronization: {0}")]
    Upstream(#[from] UpstreamError),
    #[error(transparent)]
    NotAllowed(#[from] Denied),
}

impl From<ReadError> for SyncError {
    fn from(error: ReadError) -> Self {
        match error {
            ReadError::UnknownRepository(unknown) => Self::UnknownRepository(unknown),
            ReadError::Upstream(error) => Self::Upstream(error),
        }
    }
}

/// Starts a synchronization from the repository's remote, unless one is running, on
/// behalf of `operator` (named in the log).
#[tracing::instrument(skip_all, fields(repo = %id, %operator))]
pub async fn start_sync(
    state: &AppState,
    id: &RepoId,
    operator: &Operator,
) -> Result<SyncCell, SyncError> {
    let result = match state.policy.may_sync(operator) {
        Ok(()) => try_start(state, id).await,
        Err(denied) => Err(denied.into()),
    };
    if let Err(error) = &result {
        tracing::warn!(%error, "synchronization not started");
    }
    result
}

/// Why `viewer` may not synchronize by the policy, as the dashboard says it; `None` when
/// they may, or are not identified (a synchronization asks for an identity first).
pub fn sync_denial(state: &AppState, viewer: Option<&Operator>) -> Option<String> {
    let denied = state.policy.may_sync(viewer?).err()?;
    Some(denied.to_string())
}

async fn try_start(state: &AppState, id: &RepoId) -> Result<SyncCell, SyncError> {
    let (repo, now) = repo_and_sync(state.manager.as_ref(), id).await?;
    let remote = repo.remote.clone().ok_or(SyncError::NoRemote)?;
    if matches!(now, SyncState::Running(_)) {
        return Err(SyncError::AlreadyRunning);
    }
    let started = state.manager.start_sync(id, &remote).await?;
    events::sync_seen(state, &repo, &started).await;
    Ok(SyncCell::of(&repo, started))
}

/// What the dashboard's sync cell of one repository shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncCell {
    pub state: SyncState,
    pub has_remote: bool,
    /// The repository's latest version (shown when a finished sync made none).
    pub latest: Option<VersionNumber>,
}

impl SyncCell {
    /// The cell of `repo` with its synchronization in `state`, both read at once: the
    /// repository may have been read just before the synchronization finished, so the
    /// latest version is at least the one it made.
    pub fn of(repo: &Repository, state: SyncState) -> Self {
        let read = repo.latest_version.as_ref().and_then(VersionHref::number);
        Self {
            latest: read.max(state.made()),
            has_remote: repo.remote.is_some(),
            state,
        }
    }
}

/// The current synchronization state of one repository (from upstream's tasks).
#[tracing::instrument(skip_all, fields(repo = %id))]
pub async fn current_sync(state: &AppState, id: &RepoId) -> Result<SyncCell, SyncError> {
    let read = repo_and_sync(state.reads.as_ref(), id).await;
    if let Err(error) = &read {
        tracing::warn!(%error, "synchronization state not read");
    }
    let (repo, now) = read?;
    events::sync_seen(state, &repo, &now).await;
    if let Some(made) = now.made() {
        // A finished sync made a version: against production as last seen.
        let production = &state.environments.last().name;
        let serving = state
            .seen()
            .get(id, production)
            .and_then(|seen| seen.serving);
        newest_against_production(state, &repo, Some(made), serving, |_| None);
    }
    Ok(SyncCell::of(&repo, now))
}

/// The repository and the state of its newest synchronization, read at once.
async fn repo_and_sync(
    upstream: &dyn RepositoryManager,
    id: &RepoId,
) -> Result<(Repository, SyncState), SyncError> {
    let (repo, states) = futures::join!(
        upstream.get_repo(id),
        upstream.sync_states(std::slice::from_ref(id))
    );
    let repo = known_repo(id, repo)?;
    let now = states?.remove(id).unwrap_or(SyncState::Idle);
    Ok((repo, now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::repository::RepoVerification;
    use crate::domain::sync::SyncFailure;

    fn repo_at(latest: u64) -> Repository {
        let id = RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap();
        Repository {
            href: format!("/pulp/api/v3/repositories/rpm/rpm/{id}/"),
            name: Some("base-os".into()),
            verification: RepoVerification::default(),
            latest_version: Some(VersionHref::new(format!(
                "/pulp/api/v3/repositories/rpm/rpm/{id}/versions/{latest}/"
            ))),
            remote: None,
            retain_versions: None,
            id,
        }
    }

    #[test]
    fn the_latest_version_is_at_least_the_one_a_finished_sync_made() {
        let read_before_the_end =
            SyncCell::of(&repo_at(4), SyncState::Done(Some(VersionNumber::new(5))));
        assert_eq!(read_before_the_end.latest, Some(VersionNumber::new(5)));
        let nothing_new = SyncCell::of(&repo_at(4), SyncState::Done(None));
        assert_eq!(nothing_new.latest, Some(VersionNumber::new(4)));
        let failed = SyncCell::of(
            &repo_at(4),
            SyncState::Failed(SyncFailure::new("unreachable")),
        );
        assert_eq!(failed.latest, Some(VersionNumber::new(4)));
    }
}
