//! What can go wrong with a request to the in-memory Pulp, and faults armed to strike.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use crate::ports::UpstreamError;

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
    /// The request that starts a publication.
    CreatePublication,
    /// The request that repoints a distribution.
    UpdateDistribution,
    /// Each look at a task while waiting for it (the task itself goes on).
    GetTask,
    Sync,
    SyncStates,
    /// `PackageCatalog::packages` (see `faults_content.rs`).
    Packages,
    /// `AdvisoryCatalog::advisories`.
    Advisories,
    /// `PackageCatalog::package_builds`.
    PackageBuilds,
    /// The read of a distribution's changes (Pulp's tasks that reserved it).
    DistributionChanges,
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
    /// For the task-starting operations: the task is queued (and will run), but the answer
    /// naming it is lost (the connection breaks after sending).
    LostAnswer,
    /// For the task-starting operations: the task runs, and its change lands only after
    /// this long (a busy worker): it may still be running when the console gives up.
    Slow(Duration),
}

impl Fault {
    /// The error a request suffering this fault answers.
    pub(crate) fn error(&self, op: Op) -> UpstreamError {
        match self {
            Self::Http(status) => UpstreamError::Http {
                status: *status,
                message: format!("injected fault on {op:?}"),
            }
            .logged(),
            Self::Timeout | Self::AppliedThenTimeout | Self::TaskNeverEnds | Self::Slow(_) => {
                UpstreamError::Timeout(format!("injected timeout on {op:?}")).logged()
            }
            Self::Reset => {
                UpstreamError::Unreachable(format!("connection reset (injected on {op:?})"))
                    .logged()
            }
            Self::Interrupted | Self::LostAnswer => UpstreamError::Interrupted(format!(
                "connection closed before the answer (injected on {op:?})"
            ))
            .logged(),
            Self::Malformed => UpstreamError::BadResponse(format!(
                "expected value at line 1 column 1 (injected on {op:?})"
            ))
            .logged(),
            Self::TaskFailed(description) => {
                UpstreamError::TaskFailed(description.clone()).logged()
            }
            Self::TaskCanceled => {
                UpstreamError::TaskCanceled(format!("injected on {op:?}")).logged()
            }
        }
    }

    /// Whether the fault strikes the request itself (rather than the task it starts).
    pub(crate) fn is_request_level(&self) -> bool {
        matches!(
            self,
            Self::Http(_) | Self::Timeout | Self::Reset | Self::Interrupted | Self::Malformed
        )
    }
}

/// A fault waiting to strike: after `passes` calls, `strikes` times (`None`: until cleared);
/// then `then` strikes on every call, if set.
pub(crate) struct Armed {
    pub fault: Fault,
    pub passes: usize,
    pub strikes: Option<usize>,
    pub then: Option<Fault>,
}

/// Faults armed per operation.
#[derive(Default)]
pub(crate) struct Arsenal(Mutex<HashMap<Op, Armed>>);

impl Arsenal {
    pub fn arm(&self, op: Op, armed: Armed) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(op, armed);
    }

    pub fn disarm(&self, op: Op) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).remove(&op);
    }

    /// The fault striking this call of `op`, if any (counts the call).
    pub fn strike(&self, op: Op) -> Option<Fault> {
        let mut armed = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let armed = armed.get_mut(&op)?;
        if armed.passes > 0 {
            armed.passes -= 1;
            return None;
        }
        if armed.strikes == Some(0) {
            if let Some(then) = armed.then.take() {
                armed.fault = then;
                armed.strikes = None;
            }
        }
        match &mut armed.strikes {
            Some(0) => return None,
            Some(left) => *left -= 1,
            None => {}
        }
        Some(armed.fault.clone())
    }
}
