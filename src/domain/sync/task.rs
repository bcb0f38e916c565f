//! An upstream task, as the console reads it: its state, progress and what it created, and
//! what a synchronization task means for the dashboard. Upstream works in tasks; each
//! adapter translates its own task format (Pulp's JSON, the in-memory Pulp's state) into
//! this one.

use crate::domain::repository::{ChangeState, TaskHref, VersionHref};
use crate::domain::sync::{SyncFailure, SyncProgress, SyncState};

/// The state of an upstream task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    Waiting,
    Running,
    Canceling,
    Completed,
    Failed,
    Canceled,
}

impl From<TaskState> for ChangeState {
    /// What a task's state says of the change it makes.
    fn from(state: TaskState) -> Self {
        match state {
            TaskState::Completed => Self::Completed,
            TaskState::Failed => Self::Failed,
            TaskState::Canceled => Self::Canceled,
            TaskState::Waiting | TaskState::Running | TaskState::Canceling => Self::Unfinished,
        }
    }
}

/// One progress report of a task (e.g. "Downloading Artifacts" 3 of 12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressReport {
    pub code: String,
    pub message: String,
    pub done: u64,
    pub total: Option<u64>,
}

/// A snapshot of an upstream task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskReport {
    pub href: TaskHref,
    pub state: TaskState,
    pub progress: Vec<ProgressReport>,
    /// Upstream's description of the failure, when it failed.
    pub error: Option<String>,
    /// Addresses of what the task created (a version, a publication…).
    pub created_resources: Vec<String>,
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
        TaskState::Failed => SyncState::Failed(SyncFailure {
            reason: "failed in Pulp".into(),
            detail: task.error.clone(),
            task: Some(task.href.clone()),
        }),
        TaskState::Canceled => SyncState::Failed(SyncFailure {
            reason: "was canceled".into(),
            detail: None,
            task: Some(task.href.clone()),
        }),
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
    use crate::domain::repository::VersionNumber;

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
        let SyncState::Failed(failure) = sync_state(&t) else {
            panic!("failed")
        };
        assert_eq!(failure.reason, "failed in Pulp", "the console's words");
        assert_eq!(
            failure.detail.as_deref(),
            Some("Cannot connect"),
            "Pulp's, for the log"
        );
        assert!(
            !failure.told().contains("Cannot connect"),
            "{}",
            failure.told()
        );
        assert!(
            failure.told().contains(t.href.as_str()),
            "{}",
            failure.told()
        );
        assert_eq!(failure.task, Some(t.href.clone()), "the task that failed");
        assert!(matches!(
            sync_state(&task(TaskState::Canceled, vec![])),
            SyncState::Failed(_)
        ));
    }
}
