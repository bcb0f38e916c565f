//! The JSON renderer of a failure: `{"error": {"code": "...", "message": "..."}}` with the
//! status the pages answer for the same failure (the web layer's one mapping,
//! [`super::super::status`]), and a JSON body extractor whose rejections say what is wrong
//! with the body.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::approvals::requests::ActError;
use crate::app::deploy::DeployOutcome;
use crate::app::exposure::limit::TooManyQuestions;
use crate::app::exposure::ExposureError;
use crate::app::schedules::make::NotScheduled;
use crate::domain::deploy::Refusal;
use crate::domain::release::ReleaseRefusal;
use crate::domain::schedule::ScheduleRefusal;

use super::super::errors::WebError;
use super::super::feature::FeatureRefusal;
use super::super::refusal_note::Refusal as RefusalNote;
use super::super::status::{HttpStatus, Refused};

/// An error answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable word for scripts: `not_found`, `bad_request`, `unprocessable`,
    /// `unauthorized`, `forbidden`, `conflict`, `frozen`, `out_of_order`, `moved`,
    /// `already_deployed`, `checks_missing`, `upstream_error`, `unavailable`...
    pub code: String,
    /// What happened and what to do, in words.
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    /// A failure, with the status of its cause and the cause's own words.
    pub fn of(cause: &(impl HttpStatus + std::fmt::Display)) -> Self {
        Self::said(cause, cause.to_string())
    }

    /// A failure with the status of its cause, said in `message`.
    pub fn said(cause: &impl HttpStatus, message: impl Into<String>) -> Self {
        Self::with_status(cause.status(), message)
    }

    fn with_status(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            code: code_of(status),
            message: message.into(),
        }
    }

    /// An anonymous exposure question beyond its address's limit.
    pub fn too_many_questions(wait: &TooManyQuestions) -> Self {
        Self {
            code: "too_many_questions",
            ..Self::of(wait)
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::said(&Refused::NotFound, message)
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::said(&Refused::BadRequest, message)
    }

    /// A deploy refused before anything changed, with its own code.
    pub fn refused(refusal: &Refusal) -> Self {
        Self {
            code: refusal_code(refusal),
            ..Self::of(refusal)
        }
    }

    /// A release promotion refused: a member's refusal keeps its code (`moved`...), and its
    /// message names the member.
    pub fn release_refused(refusal: &ReleaseRefusal) -> Self {
        let code = match refusal {
            ReleaseRefusal::UnknownRelease(_) => "not_found",
            ReleaseRefusal::UnknownMember { .. } => "unknown_member",
            ReleaseRefusal::NotAMember { .. } | ReleaseRefusal::MemberMissing { .. } => {
                "unprocessable"
            }
            ReleaseRefusal::ConfirmationMismatch => "confirmation_mismatch",
            ReleaseRefusal::NothingToPromote { .. } => "already_deployed",
            ReleaseRefusal::Gate(refusal) | ReleaseRefusal::Member { refusal, .. } => {
                refusal_code(refusal)
            }
        };
        Self {
            code,
            ..Self::of(refusal)
        }
    }

    /// A refused action on a request: a deploy's refusal keeps its code, a stale request
    /// says `stale`.
    pub fn act(error: &ActError) -> Self {
        match error {
            ActError::Deploy(refusal) => Self::refused(refusal),
            ActError::Release(refusal) => Self::release_refused(refusal),
            ActError::Stale { .. } => Self {
                code: "stale",
                ..Self::of(error)
            },
            ActError::NotFound(_)
            | ActError::Denied(_)
            | ActError::Refused(_)
            | ActError::NotStarted(_)
            | ActError::Store(_) => Self::of(error),
        }
    }

    /// A deploy not scheduled: a deploy's refusal keeps its code; a time not fitting says
    /// `bad_time`.
    pub fn not_scheduled(error: &NotScheduled) -> Self {
        match error {
            NotScheduled::Deploy(outcome) => match outcome.as_ref() {
                DeployOutcome::Refused(refusal) => Self::refused(refusal),
                _ => Self::said(error, not_started_words(outcome)),
            },
            NotScheduled::Time(ScheduleRefusal::Rollback) => Self {
                code: "rollback_not_scheduled",
                ..Self::of(error)
            },
            NotScheduled::Time(_) => Self {
                code: "bad_time",
                ..Self::of(error)
            },
            NotScheduled::NotKept(_) | NotScheduled::RequestNotKept(_) => Self::of(error),
        }
    }

    /// An exposure question not answered: `unknown_advisory` for an advisory Pulp does not
    /// hold, else the code of its status.
    pub fn exposure(error: &ExposureError) -> Self {
        match error {
            ExposureError::UnknownAdvisory(_) => Self {
                code: "unknown_advisory",
                ..Self::of(error)
            },
            ExposureError::Upstream { .. } => Self::of(error),
        }
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail {
                code: self.code.to_owned(),
                message: self.message.clone(),
            },
        }
    }
}

impl From<WebError> for ApiError {
    fn from(error: WebError) -> Self {
        Self::of(&error)
    }
}

/// A feature's refusal (see [`super::super::feature`]): its own status and code, its words.
impl<R: FeatureRefusal> From<R> for ApiError {
    fn from(refusal: R) -> Self {
        let answer = Self::of(&refusal);
        Self {
            code: refusal.code().unwrap_or(answer.code),
            ..answer
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body())).into_response();
        let reason = format!("{}: {}", self.code, self.message);
        response.extensions_mut().insert(RefusalNote(reason));
        response
    }
}

/// The code of a status, for errors without a more precise one.
fn code_of(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        409 => "conflict",
        410 => "gone",
        413 => "too_large",
        415 => "unsupported_media_type",
        422 => "unprocessable",
        429 => "too_many_writes",
        502 => "upstream_error",
        503 => "unavailable",
        504 => "upstream_timeout",
        _ => "error",
    }
}

/// Why a deploy that could not be checked did not start, in words.
fn not_started_words(outcome: &DeployOutcome) -> String {
    match outcome {
        DeployOutcome::NotStarted(why) => why.to_string(),
        _ => "the deploy's checks could not be made".to_owned(),
    }
}

fn refusal_code(refusal: &Refusal) -> &'static str {
    match refusal {
        Refusal::NotVerified(_) => "not_verified",
        Refusal::UnknownVersion(_) => "unknown_version",
        Refusal::AlreadyDeployed { .. } => "already_deployed",
        Refusal::ConfirmationMismatch => "confirmation_mismatch",
        Refusal::ExpectedCurrentMissing => "expected_current_missing",
        Refusal::ProductionMoved { .. } => "moved",
        Refusal::OutOfOrder { .. } => "out_of_order",
        Refusal::NoEnvironmentDistribution(_)
        | Refusal::NoProductionDistribution
        | Refusal::ConfiguredDistributionMissing(_) => "no_distribution",
        Refusal::UnknownEnvironment(_) => "unknown_environment",
        Refusal::NotAllowed(_) => "forbidden",
        Refusal::AuthorityLapsed { .. } => "authority_lapsed",
        Refusal::Frozen { .. } => "frozen",
        Refusal::Soak(_) => "soak",
        Refusal::ApprovalsNeeded(_) => "approvals_needed",
        Refusal::Pinned(_) => "pinned",
        Refusal::ChecksMissing { .. } => "checks_missing",
        Refusal::OverrideReasonMissing(_) | Refusal::ReasonMissing => "reason_missing",
        Refusal::ReasonTooLong(_) => "reason_too_long",
        Refusal::RollbackTargetGone(_) => "gone",
        Refusal::RollbackTargetNeverServed { .. } => "never_served",
    }
}

/// A JSON body: malformed JSON is a 400, a body of the wrong shape (unknown field, wrong
/// type, missing field) a 422, another content type a 415, each saying what is wrong.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(rejected(rejection)),
        }
    }
}

fn rejected(rejection: JsonRejection) -> ApiError {
    let message = match &rejection {
        JsonRejection::JsonDataError(e) => format!("The body does not fit: {}", e.body_text()),
        JsonRejection::JsonSyntaxError(e) => format!("The body is not JSON: {}", e.body_text()),
        JsonRejection::MissingJsonContentType(_) => {
            "Send the body as JSON with Content-Type: application/json.".to_owned()
        }
        other => other.body_text(),
    };
    // Axum's own status for its rejection (400, 415, 422), as the pages' extractors keep it.
    ApiError::with_status(rejection.status(), message)
}
