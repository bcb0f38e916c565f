//! The one place that decides the HTTP status of an answer (the edge's own refusals apart:
//! 421, a cross-site 403, 408/413/415, and readiness's 503 stay in `edge/`). Each error a
//! handler can meet says its status here, once, by a match naming every variant: a new
//! variant does not compile until it is given one. Both renderers read it: the HTML pages and
//! fragments ([`super::errors::WebError`], [`super::answer::Answer`]) and the JSON API
//! ([`super::api::ApiError`]), so they answer the same status for the same failure.

use axum::http::StatusCode;

use crate::app::approvals::requests::{ActError, Acted, ListError};
use crate::app::checks::{ReadError as ChecksReadError, ReportError};
use crate::app::deploy::{DeployOutcome, NotStarted, PreviewError, StepError};
use crate::app::diffs::compare::CompareError;
use crate::app::exposure::limit::TooManyQuestions;
use crate::app::exposure::ExposureError;
use crate::app::facts::{ReadError, UnknownRepository};
use crate::app::releases::ReleaseOutcome;
use crate::app::schedules::make::NotScheduled;
use crate::app::schedules::StoreProblem;
use crate::app::sign_in::begin::NotBegun;
use crate::app::sign_in::finish::SignInFailed;
use crate::app::sync::SyncError;
use crate::app::write_limit::TooManyWrites;
use crate::domain::approval::listing::UnknownState;
use crate::domain::approval::RequestRefusal;
use crate::domain::deploy::Refusal;
use crate::domain::environment::UnknownEnvironment;
use crate::domain::exposure::BadExposureQuery;
use crate::domain::policy::Denied;
use crate::domain::release::ReleaseRefusal;
use crate::domain::schedule::ScheduleRefusal;
use crate::ports::{
    AuditReadError, RequestStoreError, ScheduleStoreError, Unidentified, UpstreamError,
};

/// What the web answers for this: its HTTP status.
pub trait HttpStatus {
    fn status(&self) -> StatusCode;
}

/// A page or fragment shown.
pub const SHOWN: StatusCode = StatusCode::OK;
/// A record made (a check reported).
pub const CREATED: StatusCode = StatusCode::CREATED;
/// A request recorded (a deploy that needs approvals): accepted, not yet done.
pub const RECORDED: StatusCode = StatusCode::ACCEPTED;
/// `/readyz` when a part a deploy needs does not answer: not ready, whatever the reason.
pub const NOT_READY: StatusCode = StatusCode::SERVICE_UNAVAILABLE;

/// A failure of upstream: 503 when Pulp cannot be used at all (unreachable, or refusing the
/// console's credentials), 504 when it did not answer in time, 502 for a bad answer.
impl HttpStatus for UpstreamError {
    fn status(&self) -> StatusCode {
        match self {
            Self::Unreachable(_) | Self::Auth(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Timeout(_) => StatusCode::GATEWAY_TIMEOUT,
            Self::Http { .. }
            | Self::Interrupted(_)
            | Self::BadResponse(_)
            | Self::TaskFailed(_)
            | Self::TaskCanceled(_) => StatusCode::BAD_GATEWAY,
        }
    }
}

impl HttpStatus for UnknownRepository {
    fn status(&self) -> StatusCode {
        StatusCode::NOT_FOUND
    }
}

/// A repository that could not be read: 404 when Pulp does not have it.
impl HttpStatus for ReadError {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownRepository(unknown) => unknown.status(),
            Self::Upstream(error) => error.status(),
        }
    }
}

/// A version or repository Pulp does not have is not found; any other failure of Pulp
/// answers its own status.
impl HttpStatus for CompareError {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownVersion(_) => StatusCode::NOT_FOUND,
            Self::Upstream(error) if error.is_not_found() => StatusCode::NOT_FOUND,
            Self::Upstream(error) => error.status(),
        }
    }
}

/// An exposure question that cannot be asked as written.
impl HttpStatus for BadExposureQuery {
    fn status(&self) -> StatusCode {
        StatusCode::BAD_REQUEST
    }
}

/// An exposure question not answered at all: an advisory Pulp does not hold is not found;
/// what could not be read from Pulp answers its own status.
impl HttpStatus for ExposureError {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownAdvisory(_) => StatusCode::NOT_FOUND,
            Self::Upstream { error, .. } => error.status(),
        }
    }
}

/// A deploy refused before anything changed.
impl HttpStatus for Refusal {
    fn status(&self) -> StatusCode {
        match self {
            Self::ConfirmationMismatch
            | Self::ExpectedCurrentMissing
            | Self::ReasonMissing
            | Self::ReasonTooLong(_)
            | Self::OverrideReasonMissing(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::UnknownVersion(_) => StatusCode::NOT_FOUND,
            Self::RollbackTargetGone(_) => StatusCode::GONE,
            Self::RollbackTargetNeverServed { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::NotAllowed(_) | Self::AuthorityLapsed { .. } => StatusCode::FORBIDDEN,
            Self::NotVerified(_)
            | Self::AlreadyDeployed { .. }
            | Self::ProductionMoved { .. }
            | Self::OutOfOrder { .. }
            | Self::NoEnvironmentDistribution(_)
            | Self::UnknownEnvironment(_)
            | Self::Frozen { .. }
            | Self::Soak(_)
            | Self::ApprovalsNeeded(_)
            | Self::Pinned(_)
            | Self::ChecksMissing { .. }
            | Self::NoProductionDistribution
            | Self::ConfiguredDistributionMissing(_) => StatusCode::CONFLICT,
        }
    }
}

/// A deploy that did not start.
impl HttpStatus for NotStarted {
    fn status(&self) -> StatusCode {
        match self {
            Self::Unreadable(error) => error.status(),
            Self::AuditUnavailable(_)
            | Self::LockUnavailable(_)
            | Self::RequestNotKept(_)
            | Self::PinsUnreadable(_)
            | Self::ChecksUnreadable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// A deploy that failed at one of its steps.
impl HttpStatus for StepError {
    fn status(&self) -> StatusCode {
        match self {
            Self::ProductionMoved { .. } => StatusCode::CONFLICT,
            Self::Upstream(e)
            | Self::Refused(e)
            | Self::TaskEnded(e)
            | Self::PublishUnknown(e)
            | Self::PointUnknown(e) => e.status(),
        }
    }
}

/// How a deploy ended: done, recorded for approval, or the status of why not.
impl HttpStatus for DeployOutcome {
    fn status(&self) -> StatusCode {
        match self {
            Self::Deployed { .. } => SHOWN,
            Self::Requested(_) => RECORDED,
            Self::Refused(refusal) => refusal.status(),
            Self::NotStarted(why) => why.status(),
            Self::Failed { error, .. } => error.status(),
        }
    }
}

/// A release promotion refused before anything moved: a member's refusal keeps its status.
impl HttpStatus for ReleaseRefusal {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownRelease(_) => StatusCode::NOT_FOUND,
            Self::UnknownMember { .. } | Self::NothingToPromote { .. } => StatusCode::CONFLICT,
            Self::NotAMember { .. } | Self::MemberMissing { .. } | Self::ConfirmationMismatch => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Self::Gate(refusal) | Self::Member { refusal, .. } => refusal.status(),
        }
    }
}

/// How a release promotion ended: every member moved, one request recorded, or why not; a
/// promotion that stopped is a failure of upstream (its record says what is true per member).
impl HttpStatus for ReleaseOutcome {
    fn status(&self) -> StatusCode {
        match self {
            Self::Ended(ended) if ended.record.finished() => SHOWN,
            Self::Ended(_) => StatusCode::BAD_GATEWAY,
            Self::Requested(_) => RECORDED,
            Self::Refused(refusal) => refusal.status(),
            Self::NotStarted(why) => why.status(),
        }
    }
}

/// The preview of a deploy that cannot be shown.
impl HttpStatus for PreviewError {
    fn status(&self) -> StatusCode {
        match self {
            Self::Refused(refusal) => refusal.status(),
            Self::Unreadable(error) => error.status(),
            Self::ChecksUnreadable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// A synchronization that could not be started or read.
impl HttpStatus for SyncError {
    fn status(&self) -> StatusCode {
        match self {
            Self::NoRemote | Self::AlreadyRunning => StatusCode::CONFLICT,
            Self::UnknownRepository(unknown) => unknown.status(),
            Self::NotAllowed(denied) => denied.status(),
            Self::Upstream(error) => error.status(),
        }
    }
}

/// The policy does not let this operator do this.
impl HttpStatus for crate::app::edges::again::NotReplicated {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownEdge(_) => StatusCode::NOT_FOUND,
            Self::Denied(denied) => denied.status(),
        }
    }
}

impl HttpStatus for Denied {
    fn status(&self) -> StatusCode {
        StatusCode::FORBIDDEN
    }
}

/// A change refused because its sender is not known.
impl HttpStatus for Unidentified {
    fn status(&self) -> StatusCode {
        StatusCode::UNAUTHORIZED
    }
}

/// A sign-in that does not begin: a return path of another site (400), the session store
/// unusable (503).
impl HttpStatus for NotBegun {
    fn status(&self) -> StatusCode {
        match self {
            Self::Foreign(_) => StatusCode::BAD_REQUEST,
            Self::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// A provider's answer that signs nobody in: 403 (refused: another browser's, replayed, a
/// token that fails its checks, a name not admitted), 502 when the provider could not be
/// asked, 503 when the sessions cannot be written.
impl HttpStatus for SignInFailed {
    fn status(&self) -> StatusCode {
        match self {
            Self::NoneUnderWay | Self::StateMismatch | Self::NoCode | Self::Name { .. } => {
                StatusCode::FORBIDDEN
            }
            Self::Refused(refused) => match refused {
                crate::ports::sign_in_provider::SignInRefused::Unreachable(_) => {
                    StatusCode::BAD_GATEWAY
                }
                crate::ports::sign_in_provider::SignInRefused::AtProvider(_)
                | crate::ports::sign_in_provider::SignInRefused::CodeRefused(_)
                | crate::ports::sign_in_provider::SignInRefused::BadIdToken(_)
                | crate::ports::sign_in_provider::SignInRefused::Claim { .. } => {
                    StatusCode::FORBIDDEN
                }
            },
            Self::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// An environment named that is not on the path.
impl HttpStatus for UnknownEnvironment {
    fn status(&self) -> StatusCode {
        StatusCode::NOT_FOUND
    }
}

/// The approval requests cannot be read or written now.
/// A page of requests that cannot be listed: a state or cursor not understood (400), or the
/// store unusable.
impl HttpStatus for ListError {
    fn status(&self) -> StatusCode {
        match self {
            Self::Store(error) => error.status(),
            Self::Cursor(_) => StatusCode::BAD_REQUEST,
        }
    }
}

/// A state filter not understood.
impl HttpStatus for UnknownState {
    fn status(&self) -> StatusCode {
        StatusCode::BAD_REQUEST
    }
}

impl HttpStatus for RequestStoreError {
    fn status(&self) -> StatusCode {
        match self {
            Self::Conflict | Self::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            // Not passing: the record stays unreadable until an operator mends it.
            Self::Unreadable(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// The audit log cannot be read back now.
impl HttpStatus for AuditReadError {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotReadable { .. } | Self::Failed { .. } => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// A write beyond the caller's limit: nothing was recorded.
/// A deploy's evidence: 404 when this console signs none or the deploy has none, 503 when
/// the store cannot be read.
impl HttpStatus for crate::app::evidence::EvidenceReadError {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotSigned | Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl HttpStatus for TooManyWrites {
    fn status(&self) -> StatusCode {
        StatusCode::TOO_MANY_REQUESTS
    }
}

/// An anonymous exposure question beyond its address's limit: nothing was asked of Pulp.
impl HttpStatus for TooManyQuestions {
    fn status(&self) -> StatusCode {
        StatusCode::TOO_MANY_REQUESTS
    }
}

/// An action on a request refused by the request's own rules.
impl HttpStatus for RequestRefusal {
    fn status(&self) -> StatusCode {
        match self {
            Self::OwnRequest(_) | Self::NotRequester(_) | Self::TokenOfRequester { .. } => {
                StatusCode::FORBIDDEN
            }
            Self::Closed(_) | Self::AlreadyApproved => StatusCode::CONFLICT,
        }
    }
}

/// A refused action on a request (approve, reject, cancel).
impl HttpStatus for ActError {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Denied(denied) => denied.status(),
            Self::Refused(refusal) => refusal.status(),
            Self::Stale { .. } => StatusCode::CONFLICT,
            Self::Deploy(refusal) => refusal.status(),
            Self::Release(refusal) => refusal.status(),
            Self::NotStarted(why) => why.status(),
            Self::Store(error) => error.status(),
        }
    }
}

/// An action on a request taken: shown, or the status of the deploy it ran.
impl HttpStatus for Acted {
    fn status(&self) -> StatusCode {
        match self {
            Self::Executed { outcome, .. } => outcome.status(),
            Self::ReleaseExecuted { outcome, .. } => outcome.status(),
            Self::Approved { .. } | Self::Scheduled { .. } | Self::Rejected | Self::Cancelled => {
                SHOWN
            }
        }
    }
}

/// A schedule's time or action refused by the schedule's own rules.
impl HttpStatus for ScheduleRefusal {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotAhead { .. } | Self::TooFar(_) | Self::NotATime(_) | Self::Rollback => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Self::NotOpen(_) => StatusCode::CONFLICT,
            Self::OutOfScope(_) | Self::NotYours { .. } => StatusCode::FORBIDDEN,
        }
    }
}

/// The schedules cannot be kept or read now.
impl HttpStatus for StoreProblem {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotKept => StatusCode::SERVICE_UNAVAILABLE,
            Self::Store(error) => error.status(),
        }
    }
}

impl HttpStatus for ScheduleStoreError {
    fn status(&self) -> StatusCode {
        match self {
            Self::Conflict | Self::Missing(_) | Self::Unavailable { .. } => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            // Not passing: the record stays unreadable until an operator mends it.
            Self::Unreadable(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// A deploy not scheduled: its time, a check of the deploy, or the store.
impl HttpStatus for NotScheduled {
    fn status(&self) -> StatusCode {
        match self {
            Self::Time(refusal) => refusal.status(),
            Self::Deploy(outcome) => outcome.status(),
            Self::NotKept(problem) => problem.status(),
            Self::RequestNotKept(error) => error.status(),
        }
    }
}

/// A check report not recorded.
impl HttpStatus for ReportError {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotAToken(_) | Self::OutOfScope(_) => StatusCode::FORBIDDEN,
            Self::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::UnknownEnvironment(unknown) => unknown.status(),
            Self::UnknownRepository(_) | Self::UnknownVersion { .. } => StatusCode::NOT_FOUND,
            Self::NotServed { .. } => StatusCode::CONFLICT,
            Self::Upstream(error) => error.status(),
            Self::Store(_) | Self::NotKept | Self::HistoryUnreadable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
        }
    }
}

/// Checks that cannot be read back now.
impl HttpStatus for ChecksReadError {
    fn status(&self) -> StatusCode {
        match self {
            Self::Store(_) | Self::NotKept => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// What the web refuses by itself, before any use case runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// No such page, route or thing (a malformed identifier included).
    NotFound,
    /// A field that does not parse.
    BadRequest,
    /// A change from someone the console cannot name.
    Unidentified,
    /// A use case answered what it never answers for this action (a bug, logged).
    Unexpected,
}

impl HttpStatus for Refused {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::BadRequest => StatusCode::BAD_REQUEST,
            Self::Unidentified => StatusCode::UNAUTHORIZED,
            Self::Unexpected => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pulp_unusable_is_503_slow_is_504_and_a_bad_answer_502() {
        let status = |e: UpstreamError| e.status();
        assert_eq!(
            status(UpstreamError::Unreachable("refused".into())),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            status(UpstreamError::Auth("bad password".into())),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            status(UpstreamError::Timeout("30 s".into())),
            StatusCode::GATEWAY_TIMEOUT
        );
        let http = UpstreamError::Http {
            status: 500,
            message: "boom".into(),
        };
        assert_eq!(status(http), StatusCode::BAD_GATEWAY);
    }
}
