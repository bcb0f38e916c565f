//! How a promotion ended, or why it never started: what the pipeline answers and its steps
//! build up. The single deploy and the release each tell it in their own words
//! (`app::deploy::DeployOutcome`, `app::releases::ReleaseOutcome`).

use crate::domain::approval::ApprovalRequest;
use crate::domain::deploy::{ChecksOverride, DeployId, DeployPlan, Refusal, SoakOverride};
use crate::domain::release::{MemberOutcome, ReleaseRecord};
use crate::domain::repository::PublicationHref;
use crate::ports::{AuditError, CheckStoreError, LockError, PinStoreError, RequestStoreError};

use crate::app::facts::ReadError;
use crate::app::promotion::steps::StepFailure;

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
    /// The pins could not be read, and the promotion was not asked by a person: an
    /// unreadable pin holds the environment as a pin would.
    #[error("Deploy refused: {0}. Automatic promotions and schedules do not move an environment whose pin cannot be read: fix the pin store (kept beside the requests) first.")]
    PinsUnreadable(PinStoreError),
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

/// Why a promotion stopped before anything changed upstream: refused, or not started.
#[derive(Debug)]
pub enum Stop {
    Refused(Refusal),
    NotStarted(NotStarted),
}

impl From<Refusal> for Stop {
    fn from(refusal: Refusal) -> Self {
        Self::Refused(refusal)
    }
}

impl From<NotStarted> for Stop {
    fn from(why: NotStarted) -> Self {
        Self::NotStarted(why)
    }
}

/// How a promotion ended.
#[derive(Debug)]
pub enum Promoted {
    /// A gate refused it (`member`: the member it refused, by name, when one did); nothing
    /// was changed upstream and nothing was audited.
    Refused {
        member: Option<String>,
        refusal: Refusal,
    },
    /// The facts, the checks, the locks or the audit log could not be used: nothing changed.
    NotStarted(NotStarted),
    /// The environment needs approvals: every check passed and a request was recorded
    /// (or the open one asking the same answers); nothing was changed upstream.
    Requested(Box<ApprovalRequest>),
    /// Every member of a set already serves its target: nothing to do.
    NothingToDo,
    /// It started: what became of each member, and of the set.
    Ran(Box<Ran>),
}

/// A promotion that started: each member that moved (or tried to), in the set's order.
#[derive(Debug)]
pub struct Ran {
    pub members: Vec<MemberRun>,
    /// Why the promotion stopped, when it did (a set's words for every member).
    pub error: Option<String>,
    /// The release's line, for a set.
    pub release: Option<ReleaseRecord>,
    /// Whether every audit line was written.
    pub audit: Result<(), AuditError>,
}

/// One member that moves: its plan, its deploy, and how far it got.
#[derive(Debug)]
pub struct MemberRun {
    pub name: String,
    pub deploy_id: DeployId,
    pub plan: DeployPlan,
    /// The soak it goes through (an override of the environment's soak), if any.
    pub soak_override: Option<SoakOverride>,
    /// The required checks it goes without (an override), if any.
    pub checks_override: Option<ChecksOverride>,
    pub publication: Option<PublicationHref>,
    pub outcome: MemberOutcome,
    /// What went wrong for it, or what became of it when the promotion stopped.
    pub detail: Option<String>,
    /// The step that failed for it, and how.
    pub failure: Option<(DeployStep, StepFailure)>,
}
