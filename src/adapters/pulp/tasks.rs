//! Waiting for an upstream task: poll with a growing delay until it ends or the task
//! timeout passes (then the outcome is unknown).

use std::time::Duration;

use tokio::time::Instant;

use super::PulpClient;
use crate::domain::TaskHref;
use crate::ports::{FinishedTask, TaskReport, TaskState, UpstreamError};

const FIRST_DELAY: Duration = Duration::from_millis(50);
const MAX_DELAY: Duration = Duration::from_secs(1);

/// The delay after `delay`: doubled, at most [`MAX_DELAY`].
pub(crate) fn next_delay(delay: Duration) -> Duration {
    (delay * 2).min(MAX_DELAY)
}

/// The outcome of a task in a final state; `None` while it is still going.
pub(crate) fn outcome(report: &TaskReport) -> Option<Result<FinishedTask, UpstreamError>> {
    match report.state {
        TaskState::Completed => Some(Ok(FinishedTask {
            href: report.href.clone(),
            created_resources: report.created_resources.clone(),
        })),
        TaskState::Failed => Some(Err(UpstreamError::TaskFailed(
            report
                .error
                .clone()
                .unwrap_or_else(|| format!("task {} gave no description", report.href)),
        ))),
        TaskState::Canceled => Some(Err(UpstreamError::TaskCanceled(
            report
                .error
                .clone()
                .unwrap_or_else(|| format!("task {}", report.href)),
        ))),
        TaskState::Waiting | TaskState::Running | TaskState::Canceling => None,
    }
}

/// A failed poll worth retrying until the deadline (the task itself goes on upstream).
fn transient(err: &UpstreamError) -> bool {
    match err {
        UpstreamError::Timeout(_) | UpstreamError::Unreachable(_) => true,
        UpstreamError::Http { status, .. } => matches!(status, 502..=504),
        _ => false,
    }
}

impl PulpClient {
    pub(super) async fn poll_until_final(
        &self,
        task: &TaskHref,
    ) -> Result<FinishedTask, UpstreamError> {
        let timeout = self.settings.task_timeout;
        let deadline = Instant::now() + timeout;
        let mut delay = FIRST_DELAY;
        loop {
            let last_state = match self.read_task(task).await {
                Ok(report) => {
                    if let Some(done) = outcome(&report) {
                        return done;
                    }
                    format!("{:?}", report.state).to_lowercase()
                }
                Err(err) if transient(&err) => {
                    tracing::warn!(error = %err, "reading the task failed; retrying");
                    format!("unreadable ({err})")
                }
                Err(err) => return Err(err),
            };
            let now = Instant::now();
            if now >= deadline {
                return Err(UpstreamError::Timeout(format!(
                    "task {task} had not ended after {} s (last state: {last_state}); its outcome is unknown",
                    timeout.as_secs_f32()
                )));
            }
            tokio::time::sleep(delay.min(deadline - now)).await;
            delay = next_delay(delay);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(state: TaskState, error: Option<&str>) -> TaskReport {
        TaskReport {
            href: TaskHref::new("/pulp/api/v3/tasks/1/"),
            state,
            progress: vec![],
            error: error.map(str::to_owned),
            created_resources: vec!["/pulp/api/v3/publications/rpm/rpm/p/".into()],
        }
    }

    #[test]
    fn the_delay_doubles_up_to_one_second() {
        let mut d = FIRST_DELAY;
        let mut seen = vec![d];
        for _ in 0..6 {
            d = next_delay(d);
            seen.push(d);
        }
        let ms: Vec<u128> = seen.iter().map(Duration::as_millis).collect();
        assert_eq!(ms, [50, 100, 200, 400, 800, 1000, 1000]);
    }

    #[test]
    fn only_final_states_have_an_outcome() {
        for state in [TaskState::Waiting, TaskState::Running, TaskState::Canceling] {
            assert!(outcome(&report(state, None)).is_none());
        }
        let done = outcome(&report(TaskState::Completed, None))
            .unwrap()
            .unwrap();
        assert_eq!(
            done.created_resources,
            vec!["/pulp/api/v3/publications/rpm/rpm/p/"]
        );
    }

    #[test]
    fn failure_and_cancellation_carry_upstream_text() {
        assert_eq!(
            outcome(&report(TaskState::Failed, Some("Cannot connect to host"))).unwrap(),
            Err(UpstreamError::TaskFailed("Cannot connect to host".into()))
        );
        assert!(matches!(
            outcome(&report(TaskState::Canceled, None)).unwrap(),
            Err(UpstreamError::TaskCanceled(t)) if t.contains("/pulp/api/v3/tasks/1/")
        ));
    }
}
