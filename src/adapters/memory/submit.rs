//! The in-memory Pulp's task protocol, as Pulp's REST API has it: a change is submitted
//! (answered with a task, or refused at once), then its task is polled until it ends.
//! The port's write methods and [`super::FaultyPulp`] are built on these.

use std::future::Future;
use std::time::Duration;

use super::in_memory::InMemoryPulp;
use super::state::{bad_request, Effect};
use crate::adapters::shared::task_outcome::{write_outcome, PollPace};
use crate::domain::repository::{
    DistributionHref, PublicationHref, RemoteHref, RepoId, TaskHref, VersionHref,
};
use crate::domain::sync::TaskReport;
use crate::ports::{UpstreamError, WriteOutcome};

impl InMemoryPulp {
    /// `POST publications/rpm/rpm/`: starts publishing a version.
    pub async fn submit_publish(&self, version: &VersionHref) -> Result<TaskHref, UpstreamError> {
        let _call = self.enter(format!("create_publication {version}")).await;
        let invalid = || {
            bad_request(
                "repository_version",
                "Invalid hyperlink - Object does not exist.",
            )
        };
        let repo = RepoId::from_href(version.as_str()).ok_or_else(invalid)?;
        let number = version.number().ok_or_else(invalid)?.get();
        let mut state = self.lock();
        let exists = state
            .repo(&repo)
            .map(|r| r.versions.iter().any(|v| v.number == number))
            .unwrap_or(false);
        if !exists {
            return Err(invalid());
        }
        let task = state.start_task(
            self.options.task_delay,
            Effect::Publish {
                repo: repo.clone(),
                number,
            },
            Some(repo),
        );
        state.correlate(&task, crate::ports::correlation::current());
        Ok(task)
    }

    /// `PATCH <distribution>`: starts pointing a distribution at a publication.
    pub async fn submit_point(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> Result<TaskHref, UpstreamError> {
        let _call = self
            .enter(format!("update_distribution {distribution} {publication}"))
            .await;
        let mut state = self.lock();
        state.distribution_mut(distribution)?;
        if !state.publications.contains_key(publication) {
            return Err(bad_request(
                "publication",
                "Invalid hyperlink - Object does not exist.",
            ));
        }
        let effect = Effect::PointDistribution {
            distribution: distribution.clone(),
            publication: publication.clone(),
        };
        let task = state.start_task(self.options.task_delay, effect, None);
        state.correlate(&task, crate::ports::correlation::current());
        Ok(task)
    }

    /// `POST <repository>sync/`: starts a synchronization from a remote.
    pub async fn submit_sync(
        &self,
        id: &RepoId,
        remote: &RemoteHref,
    ) -> Result<TaskHref, UpstreamError> {
        let _call = self.enter(format!("sync {id} {remote}")).await;
        let mut state = self.lock();
        state.repo(id)?;
        let script =
            state.remotes.get(remote).cloned().ok_or_else(|| {
                bad_request("remote", "Invalid hyperlink - Object does not exist.")
            })?;
        let duration = match &script {
            super::SyncScript::Succeeds { duration, .. }
            | super::SyncScript::Fails { duration, .. } => *duration,
        };
        let effect = Effect::Sync {
            repo: id.clone(),
            script,
        };
        Ok(state.start_task(duration, effect, Some(id.clone())))
    }

    /// `GET <task>`: the task as it is now.
    pub async fn poll_task(&self, task: TaskHref) -> Result<TaskReport, UpstreamError> {
        let _call = self.enter(format!("get_task {task}")).await;
        self.lock().task_report(&task)
    }

    /// Makes a running task land its change only `delay` from now (a busy worker).
    pub fn delay_task(&self, task: &TaskHref, delay: Duration) {
        // Not `lock()`: that would first land the task if its time had come.
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = state.tasks.get_mut(task) {
            entry.ready_at = std::time::Instant::now() + delay;
        }
    }

    /// Lands the effect of every task whose time has come (as Pulp's workers would), so a
    /// test can look at the state after a queued task has run.
    pub fn settle_tasks(&self) {
        drop(self.lock());
    }

    /// Waits for a submitted change with this Pulp's task timeout, polling with `poll`.
    pub(super) async fn finish_write<T, F, Fut>(
        &self,
        submitted: Result<TaskHref, UpstreamError>,
        result: impl FnOnce(&TaskReport) -> Result<T, UpstreamError>,
        poll: F,
    ) -> WriteOutcome<T>
    where
        F: Fn(TaskHref) -> Fut,
        Fut: Future<Output = Result<TaskReport, UpstreamError>>,
    {
        let pace = PollPace {
            first: Duration::from_millis(2),
            longest: Duration::from_millis(20),
            timeout: self.options.task_timeout,
        };
        write_outcome(submitted, pace, poll, result).await
    }
}
