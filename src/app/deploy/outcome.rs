//! How a deploy ended (or why it never started): what the deploy use case answers and its
//! steps build up.

use crate::domain::approval::ApprovalRequest;
use crate::domain::deploy::{DeployId, DeployPlan, ProductionChanged, Refusal};
use crate::domain::repository::{PublicationHref, TaskHref};
use crate::ports::{AuditError, CheckStoreError, LockError, RequestStoreError};

use crate::app::deploy::steps::StepError;
use crate::app::facts::ReadError;

/// Why a deploy did not start: nothing was changed upstream and nothing was audited.
#[derive(Debug, thiserror::Error)]
pub enum NotStarted {
    /// The facts could not be read.
    #[error(transparent)]
    Unreadable(#[from] ReadError),
    /// The audit log cannot take the deploy's lines.
    #[error("Deploy refused: {0}. Fix the audit log first.")]
    AuditUnavailable(AuditError),
    /// The lock shared with the other replicas could not be taken.
    #[error("Deploy refused: {0}. Check the console's database.")]
    LockUnavailable(LockError),
    /// The environment requires checks and they could not be read.
    #[error("Deploy refused: {0}. The environment requires checks, and they are kept beside the audit log: fix it first.")]
    ChecksUnreadable(CheckStoreError),
    /// The environment needs approvals and the request could not be kept.
    #[error("Deploy not requested: {0}. The environment needs approvals, and requests are kept beside the audit log: fix it first.")]
    RequestNotKept(RequestStoreError),
}

/// The step of a deploy that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeployStep {
    Publish,
    PointDistribution,
}

/// How a deploy ended.
#[derive(Debug)]
pub enum DeployOutcome {
    /// Production serves the target now. `audit` says whether the outcome line was written.
    Deployed {
        /// Names the deploy's audit lines (and its upstream requests' correlation id).
        deploy_id: DeployId,
        plan: Box<DeployPlan>,
        publication: PublicationHref,
        audit: Result<(), AuditError>,
    },
    /// The environment needs approvals: every check passed and a request was recorded;
    /// nothing was changed upstream.
    Requested(Box<ApprovalRequest>),
    /// A precondition failed; nothing was changed upstream and nothing was audited.
    Refused(Refusal),
    /// The facts could not be read, or the audit log is not writable: nothing was changed.
    NotStarted(NotStarted),
    /// A step failed after the deploy started.
    Failed {
        deploy_id: DeployId,
        plan: Box<DeployPlan>,
        step: DeployStep,
        error: StepError,
        production_changed: ProductionChanged,
        /// Pulp's task of the failed step, when Pulp named one: what an operator checks.
        task: Option<TaskHref>,
        audit: Result<(), AuditError>,
    },
}
