//! The one place that decides the HTTP status of an answer that is not a plain success.

use axum::http::StatusCode;

use crate::app::deploy::{NotStarted, StepError};
use crate::app::facts::ReadError;
use crate::app::sync::SyncError;
use crate::domain::Refusal;
use crate::ports::UpstreamError;

/// An upstream failure: 503 when Pulp cannot be used at all (unreachable, or refusing the
/// console's credentials), 504 when it did not answer in time, 502 for a bad answer.
pub fn upstream(error: &UpstreamError) -> StatusCode {
    match error {
        UpstreamError::Unreachable(_) | UpstreamError::Auth(_) => StatusCode::SERVICE_UNAVAILABLE,
        UpstreamError::Timeout(_) => StatusCode::GATEWAY_TIMEOUT,
        UpstreamError::Http { .. }
        | UpstreamError::Interrupted(_)
        | UpstreamError::BadResponse(_)
        | UpstreamError::TaskFailed(_)
        | UpstreamError::TaskCanceled(_) => StatusCode::BAD_GATEWAY,
    }
}

/// A page, by the rule every page and fragment follows: the status of its main read's failure
/// (the page is still rendered, saying what failed and the way back), 200 when the main read
/// succeeded, even if a secondary read failed (the page then shows a notice for it).
pub fn page(main_read: Option<&UpstreamError>) -> StatusCode {
    main_read.map_or(StatusCode::OK, upstream)
}

/// A repository that could not be read: 404 when Pulp does not have it.
pub fn read(error: &ReadError) -> StatusCode {
    match error {
        ReadError::UnknownRepository(_) => StatusCode::NOT_FOUND,
        ReadError::Upstream(error) => upstream(error),
    }
}

/// A deploy refused before anything changed.
pub fn refusal(refusal: &Refusal) -> StatusCode {
    match refusal {
        Refusal::ConfirmationMismatch
        | Refusal::ExpectedCurrentMissing
        | Refusal::ReasonMissing
        | Refusal::ReasonTooLong(_)
        | Refusal::OverrideReasonMissing(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Refusal::UnknownVersion(_) => StatusCode::NOT_FOUND,
        Refusal::RollbackTargetGone(_) => StatusCode::GONE,
        Refusal::NotAllowed(_) => StatusCode::FORBIDDEN,
        _ => StatusCode::CONFLICT,
    }
}

/// A deploy that did not start.
pub fn not_started(why: &NotStarted) -> StatusCode {
    match why {
        NotStarted::Unreadable(error) => read(error),
        NotStarted::AuditUnavailable(_)
        | NotStarted::LockUnavailable(_)
        | NotStarted::RequestNotKept(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// A deploy that failed at one of its steps.
pub fn step_failed(error: &StepError) -> StatusCode {
    match error {
        StepError::ProductionMoved { .. } => StatusCode::CONFLICT,
        StepError::Upstream(e)
        | StepError::Refused(e)
        | StepError::TaskEnded(e)
        | StepError::PublishUnknown(e)
        | StepError::PointUnknown(e) => upstream(e),
    }
}

/// A synchronization that could not be started or read.
pub fn sync(error: &SyncError) -> StatusCode {
    match error {
        SyncError::NoRemote | SyncError::AlreadyRunning => StatusCode::CONFLICT,
        SyncError::UnknownRepository(_) => StatusCode::NOT_FOUND,
        SyncError::NotAllowed(_) => StatusCode::FORBIDDEN,
        SyncError::Upstream(error) => upstream(error),
    }
}

/// `/readyz` when Pulp does not answer: not ready, whatever the reason.
pub const NOT_READY: StatusCode = StatusCode::SERVICE_UNAVAILABLE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pulp_unusable_is_503_slow_is_504_and_a_bad_answer_502() {
        assert_eq!(
            upstream(&UpstreamError::Unreachable("refused".into())),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            upstream(&UpstreamError::Auth("bad password".into())),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            upstream(&UpstreamError::Timeout("30 s".into())),
            StatusCode::GATEWAY_TIMEOUT
        );
        let http = UpstreamError::Http {
            status: 500,
            message: "boom".into(),
        };
        assert_eq!(upstream(&http), StatusCode::BAD_GATEWAY);
    }
}
