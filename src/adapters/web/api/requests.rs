//! `GET /api/v1/requests` and `POST /api/v1/requests/{id}/approve`: the approval requests of
//! the pages (the same use cases), as JSON.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::approvals::requests::{self, ActError, Acted, RequestView};
use crate::app::AppState;
use crate::domain::{Confirmation, RequestId, RequestRefusal};

use super::super::status;
use super::caller::Caller;
use super::error::{ApiError, ErrorBody};
use super::outcome::answer;
use super::request_item::{request_item, RequestItem};

fn item(view: &RequestView) -> RequestItem {
    request_item(
        view.request(),
        view.state.word(),
        view.state.approvers(),
        view.needed,
    )
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RequestList {
    /// Newest first (at most 100).
    pub items: Vec<RequestItem>,
}

/// The newest requests, newest first.
#[utoipa::path(get, path = "/api/v1/requests", tag = "requests",
    responses((status = 200, body = RequestList), (status = 503, body = ErrorBody)))]
pub async fn list(State(state): State<AppState>) -> Result<Json<RequestList>, ApiError> {
    let views = requests::list(&state, None, 100)
        .await
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    Ok(Json(RequestList {
        items: views.iter().map(item).collect(),
    }))
}

/// An approval counted (the request still needs more).
#[derive(Debug, Serialize, ToSchema)]
pub struct ApprovalCounted {
    pub request: RequestItem,
    pub remaining: u32,
}

/// Approves a request (by an approver other than the requester); the approval that
/// completes the count runs the deploy and answers its outcome, as a deploy does.
#[utoipa::path(post, path = "/api/v1/requests/{id}/approve", tag = "requests",
    params(("id" = String, Path, description = "The request's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Counted (`remaining` > 0), or the deploy ran: its outcome", body = ApprovalCounted),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "Closed, stale, or refused by the deploy's checks", body = ErrorBody),
        (status = 502, body = super::outcome::DeploymentOutcome), (status = 503, body = ErrorBody)))]
pub async fn approve(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    Caller(approver): Caller,
) -> Result<Response, ApiError> {
    let id = RequestId::parse(&raw)
        .ok_or_else(|| ApiError::not_found(format!("There is no request {raw}.")))?;
    match requests::approve(&state, &id, &approver, Confirmation::ExpectedCurrent).await {
        Ok(Acted::Executed { outcome, .. }) => {
            let view = requests::get(&state, &id).await.map_err(act_error)?;
            Ok(answer(*outcome, &view.request().environment))
        }
        Ok(Acted::Approved { remaining }) => {
            let view = requests::get(&state, &id).await.map_err(act_error)?;
            Ok(Json(ApprovalCounted {
                request: item(&view),
                remaining,
            })
            .into_response())
        }
        Ok(Acted::Rejected | Acted::Cancelled) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the approval closed the request otherwise",
        )),
        Err(error) => Err(act_error(error)),
    }
}

/// A refused action on a request, with the pages' status.
pub fn act_error(error: ActError) -> ApiError {
    let code = match &error {
        ActError::NotFound(_) => StatusCode::NOT_FOUND,
        ActError::Denied(_)
        | ActError::Refused(
            RequestRefusal::OwnRequest(_)
            | RequestRefusal::TokenOfRequester { .. }
            | RequestRefusal::NotRequester(_),
        ) => StatusCode::FORBIDDEN,
        ActError::Refused(_) | ActError::Stale { .. } => StatusCode::CONFLICT,
        ActError::Deploy(refusal) => return ApiError::refused(refusal),
        ActError::NotStarted(why) => status::not_started(why),
        ActError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
    };
    let mut api = ApiError::new(code, error.to_string());
    if matches!(error, ActError::Stale { .. }) {
        api.code = "stale";
    }
    api
}
