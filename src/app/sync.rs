//! Use cases: start a synchronization, and read its state.

use crate::domain::{RepoId, SyncProgress, SyncState, VersionHref, VersionNumber};
use crate::ports::{ProgressReport, TaskReport, TaskState, UpstreamError};

use super::state::AppState;

/// Why a synchronization was not started.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(
        "This repository has no remote to synchronize from. Set one on the repository in Pulp."
    )]
    NoRemote,
    #[error("A synchronization of this repository is already running.")]
    AlreadyRunning,
    #[error("Could not start the synchronization: {0}")]
    Upstream(#[from] UpstreamError),
}

/// Starts a synchronization from the repository's remote, unless one is running.
#[tracing::instrument(skip_all, fields(repo = %id))]
pub async fn start_sync(state: &AppState, id: &RepoId) -> Result<SyncCell, SyncError> {
    let manager = state.manager.as_ref();
    let (repo, tasks) = futures::join!(
        manager.get_repo(id),
        manager.latest_sync_tasks(std::slice::from_ref(id))
    );
    let repo = repo?;
    let remote = repo.remote.ok_or(SyncError::NoRemote)?;
    if tasks?.get(id).is_some_and(|t| !t.state.is_final()) {
        return Err(SyncError::AlreadyRunning);
    }
    let task = manager.sync(id, &remote).await?;
    Ok(SyncCell {
        state: sync_state(&manager.get_task(&task).await?),
        has_remote: true,
        latest: repo.latest_version.as_ref().and_then(VersionHref::number),
    })
}

/// What the dashboard's sync cell of one repository shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncCell {
    pub state: SyncState,
    pub has_remote: bool,
    /// The repository's latest version (shown when a finished sync made none).
    pub latest: Option<VersionNumber>,
}

/// The current synchronization state of one repository (from upstream's tasks).
pub async fn current_sync(state: &AppState, id: &RepoId) -> Result<SyncCell, UpstreamError> {
    let manager = state.manager.as_ref();
    let (repo, tasks) = futures::join!(
        manager.get_repo(id),
        manager.latest_sync_tasks(std::slice::from_ref(id))
    );
    let repo = repo?;
    Ok(SyncCell {
        state: tasks?.get(id).map_or(SyncState::Idle, sync_state),
        has_remote: repo.remote.is_some(),
        latest: repo.latest_version.as_ref().and_then(VersionHref::number),
    })
}

/// What a sync task means for the dashboard.
pub fn sync_state(task: &TaskReport) -> SyncState {
    match task.state {
        TaskState::Waiting | TaskState::Running | TaskState::Canceling => {
            SyncState::Running(best_progress(&task.progress))
        }
        TaskState::Completed => SyncState::Done(
            task.created_resources
                .iter()
                .map(VersionHref::new)
                .find_map(|v| v.number()),
        ),
        TaskState::Failed => SyncState::Failed(
            task.error
                .clone()
                .unwrap_or_else(|| "the task failed without a reason".into()),
        ),
        TaskState::Canceled => SyncState::Failed("the synchronization was canceled".into()),
    }
}

/// The report that best shows progress: the one with the largest known total (the artifact
/// downloads); when no total is known yet, the one that has done the most.
fn best_progress(reports: &[ProgressReport]) -> SyncProgress {
    let with_total = reports
        .iter()
        .filter(|r| r.total.is_some_and(|t| t > 0))
        .max_by_key(|r| r.total);
    let best = with_total.or_else(|| reports.iter().max_by_key(|r| r.done));
    best.map_or(
        SyncProgress {
            done: 0,
            total: None,
        },
        |r| SyncProgress {
            done: r.done,
            total: r.total,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{TaskHref, VersionNumber};

    fn report(code: &str, done: u64, total: Option<u64>) -> ProgressReport {
        ProgressReport {
            code: code.into(),
            message: code.into(),
            done,
            total,
        }
    }

    fn task(state: TaskState, progress: Vec<ProgressReport>) -> TaskReport {
        TaskReport {
            href: TaskHref::new("/t/"),
            state,
            progress,
            error: None,
            created_resources: Vec::new(),
        }
    }

    #[test]
    fn running_sync_shows_the_report_with_the_largest_total() {
        let t = task(
            TaskState::Running,
            vec![
                report("meta", 3, None),
                report("artifacts", 5, Some(20)),
                report("assoc", 1, Some(2)),
            ],
        );
        assert_eq!(
            sync_state(&t),
            SyncState::Running(SyncProgress {
                done: 5,
                total: Some(20)
            })
        );
    }

    #[test]
    fn running_sync_without_totals_shows_what_is_done() {
        let t = task(
            TaskState::Waiting,
            vec![report("meta", 3, None), report("parse", 7, None)],
        );
        assert_eq!(
            sync_state(&t),
            SyncState::Running(SyncProgress {
                done: 7,
                total: None
            })
        );
        assert_eq!(
            sync_state(&task(TaskState::Running, vec![])),
            SyncState::Running(SyncProgress {
                done: 0,
                total: None
            })
        );
    }

    #[test]
    fn completed_sync_names_the_version_it_made() {
        let mut t = task(TaskState::Completed, vec![]);
        t.created_resources = vec!["/pulp/api/v3/repositories/rpm/rpm/x/versions/7/".into()];
        assert_eq!(sync_state(&t), SyncState::Done(Some(VersionNumber::new(7))));
        assert_eq!(
            sync_state(&task(TaskState::Completed, vec![])),
            SyncState::Done(None)
        );
    }

    #[test]
    fn failed_and_canceled_syncs_carry_a_reason() {
        let mut t = task(TaskState::Failed, vec![]);
        t.error = Some("Cannot connect".into());
        assert_eq!(sync_state(&t), SyncState::Failed("Cannot connect".into()));
        assert!(matches!(
            sync_state(&task(TaskState::Canceled, vec![])),
            SyncState::Failed(_)
        ));
    }
}
