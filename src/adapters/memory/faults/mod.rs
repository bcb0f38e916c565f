//! `FaultyPulp`: wraps [`InMemoryPulp`] and injects faults per upstream request, so every
//! failure mode of every step can be tested: HTTP errors, timeouts, resets and bad bodies on
//! any request (the first request of a change, each poll of its task, the re-read after it),
//! failed, canceled or never-ending tasks, and changes that land although the answer is lost.

mod content;
mod fault;
mod served;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::adapters::memory::faults::fault::{Armed, Arsenal};
pub use crate::adapters::memory::faults::fault::{Fault, Op};
use crate::adapters::memory::in_memory::InMemoryPulp;
use crate::adapters::shared::task_outcome::created_publication;
use crate::domain::repository::{
    Distribution, DistributionChange, DistributionHref, Publication, PublicationHref, RemoteHref,
    RepoId, RepoVersion, Repository, TaskHref, VersionHref, VersionNumber,
};
use crate::domain::sync::{SyncState, TaskReport, TaskState};
use crate::ports::{Page, PageRequest, RepositoryManager, UpstreamError, WriteOutcome};

/// An in-memory Pulp with faults. Faults stay until cleared (or their strikes are spent).
pub struct FaultyPulp {
    inner: Arc<InMemoryPulp>,
    /// Faults on requests, per operation.
    faults: Arsenal,
    /// Faults on the polls of tasks, per operation that started them.
    poll_faults: Arsenal,
    failing_publications: Mutex<HashSet<PublicationHref>>,
    /// The operation that started each task.
    started_by: Mutex<HashMap<TaskHref, Op>>,
    /// Tasks whose polls answer what a fault says instead of the truth.
    doomed_tasks: Mutex<HashMap<TaskHref, Fault>>,
    counter: Mutex<u64>,
}

impl FaultyPulp {
    pub fn new(inner: Arc<InMemoryPulp>) -> Self {
        Self {
            inner,
            faults: Arsenal::default(),
            poll_faults: Arsenal::default(),
            failing_publications: Mutex::default(),
            started_by: Mutex::default(),
            doomed_tasks: Mutex::default(),
            counter: Mutex::new(0),
        }
    }

    pub fn inner(&self) -> &InMemoryPulp {
        &self.inner
    }

    /// From now on `op` suffers `fault`.
    pub fn set(&self, op: Op, fault: Fault) {
        self.set_after(op, fault, 0);
    }

    /// `op` works for `passes` more calls, then suffers `fault`.
    pub fn set_after(&self, op: Op, fault: Fault, passes: usize) {
        let armed = Armed {
            fault,
            passes,
            strikes: None,
            then: None,
        };
        self.faults.arm(op, armed);
    }

    /// `op` works for `passes` more calls, then suffers `fault` once, then works again.
    pub fn set_once_after(&self, op: Op, fault: Fault, passes: usize) {
        let armed = Armed {
            fault,
            passes,
            strikes: Some(1),
            then: None,
        };
        self.faults.arm(op, armed);
    }

    /// `op` works for `passes` more calls, then suffers `fault` once, then `then` on every
    /// call until cleared (a failed change whose repair fails another way).
    pub fn set_once_after_then(&self, op: Op, fault: Fault, passes: usize, then: Fault) {
        let armed = Armed {
            fault,
            passes,
            strikes: Some(1),
            then: Some(then),
        };
        self.faults.arm(op, armed);
    }

    /// Polls of the tasks started by `started_by` suffer the request-level `fault`, for
    /// `strikes` polls (`None`: every one); the tasks themselves go on.
    pub fn fail_polls(&self, started_by: Op, fault: Fault, strikes: Option<usize>) {
        let armed = Armed {
            fault,
            passes: 0,
            strikes,
            then: None,
        };
        self.poll_faults.arm(started_by, armed);
    }

    pub fn clear(&self, op: Op) {
        self.faults.disarm(op);
        self.poll_faults.disarm(op);
    }

    /// From now on fetching this one publication fails with a 500.
    pub fn fail_publication(&self, href: &PublicationHref) {
        self.failing_publications
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(href.clone());
    }

    /// Fails at once for request-level faults; answers a task-level fault for the caller.
    pub(crate) fn check(&self, op: Op) -> Result<Option<Fault>, UpstreamError> {
        match self.faults.strike(op) {
            Some(fault) if fault.is_request_level() => Err(fault.error(op)),
            other => Ok(other),
        }
    }

    /// Submits a change through `start` unless a fault says otherwise; task-level faults
    /// answer a task whose polls report what the fault says.
    async fn submit<F>(&self, op: Op, start: F) -> Result<TaskHref, UpstreamError>
    where
        F: std::future::Future<Output = Result<TaskHref, UpstreamError>>,
    {
        let fault = self.check(op)?;
        let task = match fault {
            None | Some(Fault::LostAnswer | Fault::AppliedThenTimeout | Fault::Slow(_)) => {
                start.await?
            }
            Some(_) => self.fake_task(),
        };
        lock(&self.started_by).insert(task.clone(), op);
        match fault {
            None => {}
            Some(Fault::Slow(delay)) => self.inner.delay_task(&task, delay),
            Some(fault @ Fault::LostAnswer) => return Err(fault.error(op)),
            Some(fault) => {
                lock(&self.doomed_tasks).insert(task.clone(), fault);
            }
        }
        Ok(task)
    }

    /// One look at a task: a poll fault, else what a doomed task's fault says, else the truth.
    async fn poll(&self, task: TaskHref) -> Result<TaskReport, UpstreamError> {
        self.check(Op::GetTask)?;
        let started_by = lock(&self.started_by).get(&task).copied();
        if let Some(fault) = started_by.and_then(|op| self.poll_faults.strike(op)) {
            return Err(fault.error(Op::GetTask));
        }
        let doomed = lock(&self.doomed_tasks).get(&task).cloned();
        match doomed {
            Some(fault) => Ok(doomed_report(task, &fault)),
            None => self.inner.poll_task(task).await,
        }
    }

    fn fake_task(&self) -> TaskHref {
        let mut n = lock(&self.counter);
        *n += 1;
        TaskHref::new(format!(
            "/pulp/api/v3/tasks/01a202de-ffff-7000-8000-{:012x}/",
            *n
        ))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[async_trait]
impl RepositoryManager for FaultyPulp {
    async fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError> {
        self.check(Op::ListRepos)?;
        self.inner.list_repos(page).await
    }

    async fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError> {
        self.check(Op::GetRepo)?;
        self.inner.get_repo(id).await
    }

    async fn version_page(
        &self,
        id: &RepoId,
        page: PageRequest,
    ) -> Result<Page<RepoVersion>, UpstreamError> {
        self.check(Op::ListVersions)?;
        self.inner.version_page(id, page).await
    }

    async fn versions_numbered(
        &self,
        id: &RepoId,
        numbers: &[VersionNumber],
    ) -> Result<Vec<RepoVersion>, UpstreamError> {
        self.check(Op::ListVersions)?;
        self.inner.versions_numbered(id, numbers).await
    }

    async fn versions_newer_than(
        &self,
        id: &RepoId,
        number: VersionNumber,
    ) -> Result<u64, UpstreamError> {
        self.check(Op::ListVersions)?;
        self.inner.versions_newer_than(id, number).await
    }

    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError> {
        self.check(Op::ListDistributions)?;
        self.inner.list_distributions().await
    }

    async fn distributions_named(
        &self,
        names: &[String],
    ) -> Result<Vec<Distribution>, UpstreamError> {
        self.check(Op::ListDistributions)?;
        self.inner.distributions_named(names).await
    }

    async fn get_distribution(
        &self,
        href: &DistributionHref,
    ) -> Result<Distribution, UpstreamError> {
        self.check(Op::GetDistribution)?;
        self.inner.get_distribution(href).await
    }

    async fn get_publication(&self, href: &PublicationHref) -> Result<Publication, UpstreamError> {
        self.check(Op::GetPublication)?;
        if self
            .failing_publications
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(href)
        {
            return Err(Fault::Http(500).error(Op::GetPublication));
        }
        self.inner.get_publication(href).await
    }

    async fn publications(
        &self,
        hrefs: &[PublicationHref],
    ) -> Result<Vec<Publication>, UpstreamError> {
        self.check(Op::ListPublications)?;
        self.inner.publications(hrefs).await
    }

    async fn reusable_publications(
        &self,
        repo: &RepoId,
        version: &VersionHref,
    ) -> Result<Vec<PublicationHref>, UpstreamError> {
        self.check(Op::ListPublications)?;
        self.inner.reusable_publications(repo, version).await
    }

    async fn publish(&self, version: &VersionHref) -> WriteOutcome<PublicationHref> {
        let submit = self.inner.submit_publish(version);
        let submitted = self.submit(Op::CreatePublication, submit).await;
        self.inner
            .finish_write(submitted, created_publication, |task| self.poll(task))
            .await
    }

    async fn point_distribution(
        &self,
        d: &DistributionHref,
        p: &PublicationHref,
    ) -> WriteOutcome<()> {
        let submit = self.inner.submit_point(d, p);
        let submitted = self.submit(Op::UpdateDistribution, submit).await;
        self.inner
            .finish_write(submitted, |_| Ok(()), |task| self.poll(task))
            .await
    }

    async fn distribution_changes(
        &self,
        distribution: &DistributionHref,
        limit: u64,
    ) -> Result<Vec<DistributionChange>, UpstreamError> {
        self.check(Op::DistributionChanges)?;
        self.inner.distribution_changes(distribution, limit).await
    }

    async fn start_sync(
        &self,
        id: &RepoId,
        remote: &RemoteHref,
    ) -> Result<SyncState, UpstreamError> {
        self.check(Op::Sync)?;
        self.inner.start_sync(id, remote).await
    }

    async fn sync_states(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, SyncState>, UpstreamError> {
        self.check(Op::SyncStates)?;
        self.inner.sync_states(ids).await
    }
}

/// What polling a doomed task shows: the fault's ending, or a task that never ends.
fn doomed_report(href: TaskHref, fault: &Fault) -> TaskReport {
    let (state, error) = match fault {
        Fault::TaskFailed(description) => (TaskState::Failed, Some(description.clone())),
        Fault::TaskCanceled => (TaskState::Canceled, None),
        _ => (TaskState::Running, None),
    };
    TaskReport {
        href,
        state,
        progress: Vec::new(),
        error,
        created_resources: Vec::new(),
    }
}
