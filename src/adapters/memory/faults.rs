//! `FaultyPulp`: wraps [`InMemoryPulp`] and injects faults per operation, so every failure
//! mode of every step can be tested (HTTP errors, timeouts, resets, bad bodies, failed,
//! canceled or never-ending tasks, and a change that lands although the answer is lost).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::pulp::InMemoryPulp;
use crate::domain::{
    Distribution, DistributionHref, Publication, PublicationHref, RemoteHref, RepoId, RepoVersion,
    Repository, TaskHref, VersionHref,
};
use crate::ports::{FinishedTask, Page, PageRequest, RepositoryManager, TaskReport, UpstreamError};

/// The port operations a fault can be set on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    ListRepos,
    GetRepo,
    ListVersions,
    ListDistributions,
    GetDistribution,
    GetPublication,
    ListPublications,
    CreatePublication,
    UpdateDistribution,
    GetTask,
    Sync,
    LatestSyncTasks,
    /// `ContentCatalog::packages_not_in` (see `faults_content.rs`).
    PackagesNotIn,
    /// `ContentCatalog::advisories_not_in`.
    AdvisoriesNotIn,
}

/// What goes wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Upstream answers this status (the request is not carried out).
    Http(u16),
    /// No answer in time; the request is not carried out.
    Timeout,
    /// The connection is reset before anything is sent.
    Reset,
    /// The connection breaks after the request was sent; the request is not carried out,
    /// but the console cannot know that.
    Interrupted,
    /// Upstream answers a body that cannot be read; the request is not carried out.
    Malformed,
    /// For the task-starting operations: the task ends `failed` with this description.
    TaskFailed(String),
    /// For the task-starting operations: the task ends `canceled`.
    TaskCanceled,
    /// For the task-starting operations: the task never ends (waiting times out).
    TaskNeverEnds,
    /// For the task-starting operations: the change lands, but waiting for it times out.
    AppliedThenTimeout,
}

impl Fault {
    fn error(&self, op: Op) -> UpstreamError {
        match self {
            Self::Http(status) => UpstreamError::Http {
                status: *status,
                message: format!("injected fault on {op:?}"),
            },
            Self::Timeout | Self::AppliedThenTimeout | Self::TaskNeverEnds => {
                UpstreamError::Timeout(format!("injected timeout on {op:?}"))
            }
            Self::Reset => {
                UpstreamError::Unreachable(format!("connection reset (injected on {op:?})"))
            }
            Self::Interrupted => UpstreamError::Interrupted(format!(
                "connection closed before the answer (injected on {op:?})"
            )),
            Self::Malformed => UpstreamError::BadResponse(format!(
                "expected value at line 1 column 1 (injected on {op:?})"
            )),
            Self::TaskFailed(description) => UpstreamError::TaskFailed(description.clone()),
            Self::TaskCanceled => UpstreamError::TaskCanceled(format!("injected on {op:?}")),
        }
    }
}

/// An in-memory Pulp with faults. Faults stay until cleared.
pub struct FaultyPulp {
    inner: Arc<InMemoryPulp>,
    /// Each fault with how many calls still pass before it strikes.
    faults: Mutex<HashMap<Op, (Fault, usize)>>,
    failing_publications: Mutex<HashSet<PublicationHref>>,
    /// Tasks whose waiting answers the fault instead of the real outcome.
    doomed_tasks: Mutex<HashMap<TaskHref, Fault>>,
    counter: Mutex<u64>,
}

impl FaultyPulp {
    pub fn new(inner: Arc<InMemoryPulp>) -> Self {
        Self {
            inner,
            faults: Mutex::default(),
            failing_publications: Mutex::default(),
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
        self.faults
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(op, (fault, passes));
    }

    pub fn clear(&self, op: Op) {
        self.faults
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&op);
    }

    /// From now on fetching this one publication fails with a 500.
    pub fn fail_publication(&self, href: &PublicationHref) {
        self.failing_publications
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(href.clone());
    }

    /// The fault striking this call of `op`, if any (counts the call).
    fn fault(&self, op: Op) -> Option<Fault> {
        let mut faults = self.faults.lock().unwrap_or_else(|p| p.into_inner());
        let (fault, passes) = faults.get_mut(&op)?;
        if *passes > 0 {
            *passes -= 1;
            return None;
        }
        Some(fault.clone())
    }

    /// Fails at once for request-level faults; answers a task-level fault for the caller.
    pub(super) fn check(&self, op: Op) -> Result<Option<Fault>, UpstreamError> {
        match self.fault(op) {
            Some(
                f @ (Fault::Http(_)
                | Fault::Timeout
                | Fault::Reset
                | Fault::Interrupted
                | Fault::Malformed),
            ) => Err(f.error(op)),
            other => Ok(other),
        }
    }

    /// Starts a task through `start` unless a fault says otherwise; task-level faults
    /// answer a task whose waiting ends as the fault says.
    async fn start_task<F>(&self, op: Op, start: F) -> Result<TaskHref, UpstreamError>
    where
        F: std::future::Future<Output = Result<TaskHref, UpstreamError>>,
    {
        match self.check(op)? {
            None => start.await,
            Some(fault @ Fault::AppliedThenTimeout) => {
                let task = start.await?;
                self.inner.wait_for_task(&task).await?;
                self.doom(task.clone(), fault);
                Ok(task)
            }
            Some(fault) => {
                let task = self.fake_task();
                self.doom(task.clone(), fault);
                Ok(task)
            }
        }
    }

    fn fake_task(&self) -> TaskHref {
        let mut n = self.counter.lock().unwrap_or_else(|p| p.into_inner());
        *n += 1;
        TaskHref::new(format!(
            "/pulp/api/v3/tasks/01a202de-ffff-7000-8000-{:012x}/",
            *n
        ))
    }

    fn doom(&self, task: TaskHref, fault: Fault) {
        self.doomed_tasks
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(task, fault);
    }
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

    async fn list_versions(&self, id: &RepoId) -> Result<Vec<RepoVersion>, UpstreamError> {
        self.check(Op::ListVersions)?;
        self.inner.list_versions(id).await
    }

    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError> {
        self.check(Op::ListDistributions)?;
        self.inner.list_distributions().await
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

    async fn list_publications(&self, id: &RepoId) -> Result<Vec<Publication>, UpstreamError> {
        self.check(Op::ListPublications)?;
        self.inner.list_publications(id).await
    }

    async fn create_publication(&self, version: &VersionHref) -> Result<TaskHref, UpstreamError> {
        self.start_task(
            Op::CreatePublication,
            self.inner.create_publication(version),
        )
        .await
    }

    async fn update_distribution(
        &self,
        d: &DistributionHref,
        p: &PublicationHref,
    ) -> Result<TaskHref, UpstreamError> {
        self.start_task(Op::UpdateDistribution, self.inner.update_distribution(d, p))
            .await
    }

    async fn wait_for_task(&self, task: &TaskHref) -> Result<FinishedTask, UpstreamError> {
        let doomed = self
            .doomed_tasks
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(task)
            .cloned();
        match doomed {
            Some(fault) => Err(fault.error(Op::GetTask)),
            None => self.inner.wait_for_task(task).await,
        }
    }

    async fn get_task(&self, task: &TaskHref) -> Result<TaskReport, UpstreamError> {
        self.check(Op::GetTask)?;
        self.inner.get_task(task).await
    }

    async fn sync(&self, id: &RepoId, remote: &RemoteHref) -> Result<TaskHref, UpstreamError> {
        self.check(Op::Sync)?;
        self.inner.sync(id, remote).await
    }

    async fn latest_sync_tasks(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, TaskReport>, UpstreamError> {
        self.check(Op::LatestSyncTasks)?;
        self.inner.latest_sync_tasks(ids).await
    }
}
