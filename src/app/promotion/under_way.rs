//! The deploys this console runs now: each runs in a task the application owns, so that it
//! goes on to its end (and its outcome reaches the audit) whatever its client does, and a
//! shutdown waits for it; and where each one is, for the confirm dialog and the versions page
//! (phases, and Pulp's task progress while publishing).
//!
//! What this keeps is for showing only: it lives in this process, and goes with it. What a
//! deploy did is in the audit log, as always (a `started` line before anything changes
//! upstream, then its outcome).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio_util::task::TaskTracker;

use crate::app::parts::StatePart;
use crate::app::state::AppState;
use crate::domain::deploy::progress::{DeployPhase, StepProgress, UnderWay};
use crate::domain::deploy::DeployId;
use crate::domain::environment::EnvironmentName;
use crate::domain::repository::RepoId;
use crate::ports::task_progress::{self, TaskListener};

/// How long an ended deploy stays listed (so that a page polling it sees how it ended).
const LINGER: chrono::Duration = chrono::Duration::seconds(60);

/// The deploys under way, and the tasks that run them. Cheap to clone (shared).
#[derive(Clone, Default)]
pub struct RunningDeploys {
    tasks: TaskTracker,
    shown: Arc<Mutex<HashMap<DeployId, UnderWay>>>,
}

/// How waiting for the deploys under way ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Drained {
    /// Every deploy ended.
    AllEnded,
    /// This many were still running when the time ran out.
    StillRunning(usize),
}

impl RunningDeploys {
    /// Runs `work` (a deploy, a release promotion) in a task of its own, under the caller's
    /// correlation id, and waits for it. If the caller goes away (its client disconnected),
    /// the task runs on to its end.
    /// A panic in `work` is the caller's again, as if it had run in place.
    pub async fn run<F>(&self, work: F) -> F::Output
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        // The task carries on the correlation id of the request that asked for it (what its
        // answers and log lines name).
        let work = match crate::ports::correlation::current() {
            Some(id) => futures::future::Either::Left(crate::ports::correlation::scope(id, work)),
            None => futures::future::Either::Right(work),
        };
        match self.tasks.spawn(work).await {
            Ok(output) => output,
            Err(error) => match error.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                // Only a runtime shutting down cancels the task.
                Err(error) => panic!("a deploy's task was cancelled: {error}"),
            },
        }
    }

    /// How many deploys are running now.
    pub fn running(&self) -> usize {
        self.tasks.len()
    }

    /// Waits, for at most `grace`, for the deploys running now to end; no new one is taken
    /// meanwhile (a shutdown's last step).
    pub async fn drain(&self, grace: Duration) -> Drained {
        self.tasks.close();
        if self.tasks.is_empty() {
            return Drained::AllEnded;
        }
        match tokio::time::timeout(grace, self.tasks.wait()).await {
            Ok(()) => Drained::AllEnded,
            Err(_) => Drained::StillRunning(self.tasks.len()),
        }
    }

    /// Lists `deploy` as under way.
    pub fn begin(&self, deploy: UnderWay) {
        self.lock().insert(deploy.deploy_id.clone(), deploy);
    }

    /// Moves deploy `id` to `phase` at `now`.
    pub fn reach(&self, id: &DeployId, phase: DeployPhase, now: DateTime<Utc>) {
        if let Some(deploy) = self.lock().get_mut(id) {
            deploy.reach(phase, now);
        }
    }

    /// A listener that shows each report of the task deploy `id` waits for as its
    /// publishing progress.
    pub fn publishing_listener(&self, id: &DeployId) -> TaskListener {
        let shown = self.shown.clone();
        let id = id.clone();
        Arc::new(move |report| {
            let mut shown = shown.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(deploy) = shown.get_mut(&id) {
                if matches!(deploy.phase, DeployPhase::Publishing(_)) {
                    deploy.phase = DeployPhase::Publishing(StepProgress::of_task(report));
                }
            }
        })
    }

    /// The deploys of `repo` (to `environment`, when given) running, or ended within the
    /// last minute, at `now`: oldest first.
    pub fn of_repo(
        &self,
        repo: &RepoId,
        environment: Option<&EnvironmentName>,
        now: DateTime<Utc>,
    ) -> Vec<UnderWay> {
        let mut shown = self.lock();
        shown.retain(|_, deploy| deploy.shown_at(now, LINGER));
        let mut found: Vec<UnderWay> = shown
            .values()
            .filter(|d| &d.repo == repo && environment.is_none_or(|e| &d.environment == e))
            .cloned()
            .collect();
        found.sort_by_key(|deploy| deploy.started_at);
        found
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<DeployId, UnderWay>> {
        self.shown.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Runs `work` with the reports of the task it waits for shown as deploy `id`'s progress.
pub async fn publishing<F: Future>(running: &RunningDeploys, id: &DeployId, work: F) -> F::Output {
    task_progress::scope(running.publishing_listener(id), work).await
}

/// The deploys a state runs: a rebuilt state runs its own.
impl StatePart for RunningDeploys {
    const ANEW_ON_REBUILD: bool = true;
}

impl AppState {
    /// The deploys running now, each in a task of the application's, and where each is (a
    /// shutdown waits for them).
    pub fn running_deploys(&self) -> Arc<RunningDeploys> {
        self.part()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::identity::Operator;
    use crate::domain::repository::{TaskHref, VersionNumber};
    use crate::domain::sync::{ProgressReport, TaskReport, TaskState};

    fn repo(n: u8) -> RepoId {
        RepoId::parse(&format!("0188a0a0-0000-7000-8000-0000000000{n:02}")).expect("a uuid")
    }

    fn deploy(id: &str, repo: RepoId, at: i64) -> UnderWay {
        UnderWay {
            deploy_id: DeployId::new(id),
            repo,
            environment: EnvironmentName::production(),
            target: VersionNumber::new(2),
            operator: Operator::new("alice").expect("a name"),
            started_at: DateTime::UNIX_EPOCH + chrono::Duration::seconds(at),
            phase: DeployPhase::Checking,
            ended_at: None,
        }
    }

    #[tokio::test]
    async fn work_runs_to_its_end_when_its_caller_goes_away() {
        let running = RunningDeploys::default();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let gate = Arc::new(tokio::sync::Notify::new());
        let opened = gate.clone();
        let caller = {
            let running = running.clone();
            tokio::spawn(async move {
                running
                    .run(async move {
                        opened.notified().await;
                        tx.send("ended").expect("the test listens");
                    })
                    .await;
            })
        };
        tokio::task::yield_now().await;
        caller.abort();
        let _ = caller.await;
        gate.notify_one();
        assert_eq!(rx.await.expect("the work ended"), "ended");
        assert_eq!(
            running.drain(Duration::from_secs(5)).await,
            Drained::AllEnded
        );
    }

    #[tokio::test]
    async fn a_drain_says_how_many_are_still_running() {
        let running = RunningDeploys::default();
        let background = running.clone();
        tokio::spawn(async move { background.run(std::future::pending::<()>()).await });
        while running.running() == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            running.drain(Duration::from_millis(20)).await,
            Drained::StillRunning(1)
        );
    }

    #[tokio::test]
    async fn the_work_keeps_the_callers_correlation_id() {
        let running = RunningDeploys::default();
        let seen = crate::ports::correlation::scope("request-1".into(), async {
            running
                .run(async { crate::ports::correlation::current() })
                .await
        })
        .await;
        assert_eq!(seen.as_deref(), Some("request-1"));
    }

    #[tokio::test]
    async fn a_panic_is_the_callers() {
        let running = RunningDeploys::default();
        let caught = tokio::spawn(async move {
            running.run(async { panic!("a bug") }).await;
        })
        .await;
        assert!(caught.expect_err("the panic reaches the caller").is_panic());
    }

    #[test]
    fn deploys_are_listed_by_repository_until_a_minute_after_their_end() {
        let running = RunningDeploys::default();
        running.begin(deploy("b", repo(1), 2));
        running.begin(deploy("a", repo(1), 1));
        running.begin(deploy("other", repo(2), 1));
        let at = |s| DateTime::UNIX_EPOCH + chrono::Duration::seconds(s);
        let ids = |list: Vec<UnderWay>| -> Vec<String> {
            list.iter()
                .map(|d| d.deploy_id.as_str().to_owned())
                .collect()
        };
        assert_eq!(ids(running.of_repo(&repo(1), None, at(3))), ["a", "b"]);
        running.reach(&DeployId::new("a"), DeployPhase::Deployed, at(10));
        assert_eq!(ids(running.of_repo(&repo(1), None, at(70))), ["a", "b"]);
        assert_eq!(ids(running.of_repo(&repo(1), None, at(71))), ["b"]);
        let staging = EnvironmentName::parse("staging").expect("a name");
        assert!(running.of_repo(&repo(1), Some(&staging), at(71)).is_empty());
    }

    #[tokio::test]
    async fn the_task_it_waits_for_shows_while_publishing() {
        let running = RunningDeploys::default();
        let id = DeployId::new("a");
        running.begin(deploy("a", repo(1), 0));
        let report = TaskReport {
            href: TaskHref::new("/t/"),
            state: TaskState::Running,
            progress: vec![ProgressReport {
                code: "publish".into(),
                message: "Generating metadata".into(),
                done: 3,
                total: Some(4),
            }],
            error: None,
            created_resources: Vec::new(),
        };
        // Before the publishing phase, a report changes nothing.
        publishing(&running, &id, async { task_progress::seen(&report) }).await;
        let phase = |running: &RunningDeploys| {
            running.of_repo(&repo(1), None, DateTime::UNIX_EPOCH)[0]
                .phase
                .clone()
        };
        assert_eq!(phase(&running), DeployPhase::Checking);
        running.reach(&id, DeployPhase::Publishing(None), DateTime::UNIX_EPOCH);
        publishing(&running, &id, async { task_progress::seen(&report) }).await;
        match phase(&running) {
            DeployPhase::Publishing(Some(progress)) => assert_eq!(progress.percent(), Some(75)),
            other => panic!("not publishing with progress: {other:?}"),
        }
    }
}
