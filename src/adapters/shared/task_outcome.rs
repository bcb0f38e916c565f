//! What a change sent to an upstream that works in tasks comes to, as a [`WriteOutcome`]:
//! the rule every such adapter follows (the Pulp client and the in-memory Pulp alike).
//! The task is polled with a growing delay until the task ends or the task timeout passes. A poll that fails
//! (Pulp restarting, a proxy blip, an expired session) is retried until then: the task goes
//! on upstream whatever happens to the console's look at it.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

use crate::domain::repository::{PublicationHref, TaskHref};
use crate::domain::sync::{TaskReport, TaskState};
use crate::ports::{UpstreamError, WriteOutcome};

/// How often to look at a task: the first delay, doubled up to the longest.
#[derive(Debug, Clone, Copy)]
pub struct PollPace {
    pub first: Duration,
    pub longest: Duration,
    /// How long a task may take before its outcome counts as unknown.
    pub timeout: Duration,
}

impl PollPace {
    /// The delay after `delay`: doubled, at most `longest`.
    pub fn next(&self, delay: Duration) -> Duration {
        (delay * 2).min(self.longest)
    }
}

/// How waiting for a task ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waited {
    Completed(TaskReport),
    /// The task ended without completing (failed or canceled).
    Ended(UpstreamError),
    /// The task had not been seen to end in time (still running, or unreadable).
    Lost(UpstreamError),
}

/// The end of a task in a final state; `None` while it is still going.
pub fn ending(report: &TaskReport) -> Option<Waited> {
    let described = |fallback: String| report.error.clone().unwrap_or(fallback);
    match report.state {
        TaskState::Completed => Some(Waited::Completed(report.clone())),
        TaskState::Failed => Some(Waited::Ended(
            UpstreamError::TaskFailed(described(format!(
                "task {} gave no description",
                report.href
            )))
            .logged(),
        )),
        TaskState::Canceled => Some(Waited::Ended(
            UpstreamError::TaskCanceled(described(format!("task {}", report.href))).logged(),
        )),
        TaskState::Waiting | TaskState::Running | TaskState::Canceling => None,
    }
}

/// Polls `task` with `poll` until it ends or `pace.timeout` passes.
pub async fn wait_for<F, Fut>(task: &TaskHref, pace: PollPace, poll: F) -> Waited
where
    F: Fn(TaskHref) -> Fut,
    Fut: Future<Output = Result<TaskReport, UpstreamError>>,
{
    let deadline = Instant::now() + pace.timeout;
    let mut delay = pace.first;
    loop {
        let last_seen = match poll(task.clone()).await {
            Ok(report) => match seen_then_ending(&report) {
                Some(end) => return end,
                None => format!("{:?}", report.state).to_lowercase(),
            },
            Err(error) => {
                tracing::warn!(%task, %error, "reading the task failed; retrying until the task timeout");
                format!("unreadable: {error}")
            }
        };
        let now = Instant::now();
        if now >= deadline {
            return Waited::Lost(UpstreamError::Timeout(format!(
                "task {task} was not seen to end within {} s (last seen: {last_seen}); it may still run",
                pace.timeout.as_secs_f32()
            )).logged());
        }
        tokio::time::sleep(delay.min(deadline - now)).await;
        delay = pace.next(delay);
    }
}

/// Tells the work waiting for the task what upstream reported of it, then whether it ended.
fn seen_then_ending(report: &TaskReport) -> Option<Waited> {
    crate::ports::task_progress::seen(report);
    ending(report)
}

/// What a change came to: `submitted` is upstream's answer to the request (the task it
/// started), `poll` reads the task, `result` reads what a completed task produced.
pub async fn write_outcome<T, F, Fut>(
    submitted: Result<TaskHref, UpstreamError>,
    pace: PollPace,
    poll: F,
    result: impl FnOnce(&TaskReport) -> Result<T, UpstreamError>,
) -> WriteOutcome<T>
where
    F: Fn(TaskHref) -> Fut,
    Fut: Future<Output = Result<TaskReport, UpstreamError>>,
{
    let task = match submitted {
        Ok(task) => task,
        Err(error) if error.proves_refusal() => return WriteOutcome::Refused(error),
        Err(error) => return WriteOutcome::Unknown { error, task: None },
    };
    match wait_for(&task, pace, poll).await {
        Waited::Completed(report) => match result(&report) {
            Ok(value) => WriteOutcome::Applied(value),
            Err(error) => WriteOutcome::Unknown {
                error,
                task: Some(task),
            },
        },
        Waited::Ended(error) => WriteOutcome::Failed { error, task },
        Waited::Lost(error) => WriteOutcome::Unknown {
            error,
            task: Some(task),
        },
    }
}

/// The publication a completed publish task created.
pub fn created_publication(report: &TaskReport) -> Result<PublicationHref, UpstreamError> {
    report
        .created_resources
        .iter()
        .find(|href| href.contains("/publications/"))
        .map(PublicationHref::new)
        .ok_or_else(|| {
            UpstreamError::BadResponse(format!(
                "the publish task {} completed without naming a publication",
                report.href
            ))
            .logged()
        })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    const PACE: PollPace = PollPace {
        first: Duration::from_millis(1),
        longest: Duration::from_millis(4),
        timeout: Duration::from_millis(100),
    };

    fn report(state: TaskState, error: Option<&str>) -> TaskReport {
        TaskReport {
            href: TaskHref::new("/pulp/api/v3/tasks/1/"),
            state,
            progress: vec![],
            error: error.map(str::to_owned),
            created_resources: vec!["/pulp/api/v3/publications/rpm/rpm/p/".into()],
        }
    }

    fn task() -> TaskHref {
        TaskHref::new("/pulp/api/v3/tasks/1/")
    }

    #[test]
    fn the_delay_doubles_up_to_the_longest() {
        let pace = PollPace {
            first: Duration::from_millis(50),
            longest: Duration::from_secs(1),
            timeout: Duration::from_secs(1),
        };
        let mut d = pace.first;
        let mut seen = vec![d];
        for _ in 0..6 {
            d = pace.next(d);
            seen.push(d);
        }
        let ms: Vec<u128> = seen.iter().map(Duration::as_millis).collect();
        assert_eq!(ms, [50, 100, 200, 400, 800, 1000, 1000]);
    }

    #[test]
    fn only_final_states_end_the_wait_and_failures_carry_upstream_text() {
        for state in [TaskState::Waiting, TaskState::Running, TaskState::Canceling] {
            assert!(ending(&report(state, None)).is_none());
        }
        assert!(matches!(
            ending(&report(TaskState::Completed, None)),
            Some(Waited::Completed(_))
        ));
        assert_eq!(
            ending(&report(TaskState::Failed, Some("Cannot connect to host"))),
            Some(Waited::Ended(UpstreamError::TaskFailed(
                "Cannot connect to host".into()
            )))
        );
        assert!(matches!(
            ending(&report(TaskState::Canceled, None)),
            Some(Waited::Ended(UpstreamError::TaskCanceled(t))) if t.contains("/pulp/api/v3/tasks/1/")
        ));
    }

    #[tokio::test]
    async fn failed_polls_are_retried_until_the_task_is_seen_to_end() {
        let polls = AtomicUsize::new(0);
        let waited = wait_for(&task(), PACE, |_| {
            let n = polls.fetch_add(1, Ordering::SeqCst);
            async move {
                match n {
                    0 => Err(UpstreamError::Http {
                        status: 401,
                        message: "session expired".into(),
                    }),
                    1 => Err(UpstreamError::Unreachable("connection refused".into())),
                    2 => Ok(report(TaskState::Running, None)),
                    _ => Ok(report(TaskState::Completed, None)),
                }
            }
        })
        .await;
        assert!(matches!(waited, Waited::Completed(_)), "{waited:?}");
        assert_eq!(polls.load(Ordering::SeqCst), 4);
    }

    #[tokio::test]
    async fn a_task_never_seen_to_end_is_lost_not_failed() {
        let waited = wait_for(&task(), PACE, |_| async {
            Err(UpstreamError::Http {
                status: 404,
                message: "Not found.".into(),
            })
        })
        .await;
        assert!(
            matches!(&waited, Waited::Lost(UpstreamError::Timeout(m)) if m.contains("may still run")),
            "{waited:?}"
        );
    }

    #[tokio::test]
    async fn a_refused_request_is_refused_and_an_unanswered_one_unknown() {
        let never = |_| async { Ok(report(TaskState::Running, None)) };
        let refused = write_outcome(
            Err(UpstreamError::Http {
                status: 400,
                message: "bad".into(),
            }),
            PACE,
            never,
            created_publication,
        )
        .await;
        assert!(matches!(refused, WriteOutcome::Refused(_)));
        let lost = write_outcome(
            Err(UpstreamError::Interrupted("reset after sending".into())),
            PACE,
            never,
            created_publication,
        )
        .await;
        assert!(matches!(lost, WriteOutcome::Unknown { task: None, .. }));
        let running = write_outcome(Ok(task()), PACE, never, created_publication).await;
        assert!(matches!(
            running,
            WriteOutcome::Unknown { task: Some(_), .. }
        ));
    }

    #[tokio::test]
    async fn a_completed_publish_names_its_publication_or_is_unknown() {
        let done = |_| async { Ok(report(TaskState::Completed, None)) };
        let published = write_outcome(Ok(task()), PACE, done, created_publication).await;
        assert_eq!(
            published,
            WriteOutcome::Applied(PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/p/"))
        );
        let bare = |_| async {
            let mut r = report(TaskState::Completed, None);
            r.created_resources.clear();
            Ok(r)
        };
        let unnamed = write_outcome(Ok(task()), PACE, bare, created_publication).await;
        assert!(matches!(
            unnamed,
            WriteOutcome::Unknown { task: Some(_), .. }
        ));
        let failed = |_| async { Ok(report(TaskState::Failed, Some("disk full"))) };
        let ended = write_outcome(Ok(task()), PACE, failed, created_publication).await;
        assert!(matches!(ended, WriteOutcome::Failed { .. }));
    }
}
