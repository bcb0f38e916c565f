//! `GET /api/v1/requests` and `POST /api/v1/requests/{id}/approve`: the approval requests of
//! the pages (the same use cases), as JSON.

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::approvals::requests::{self, ActError, Acted, RequestView};
use crate::app::AppState;
use crate::domain::approval::listing::StateFilter;
use crate::domain::deploy::Confirmation;
use crate::domain::ids::RequestId;

use super::super::paging::next_link;

use super::super::answer::JsonAnswer;
use super::super::status::Refused;
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

/// Requests listed a page at a time.
const PAGE_SIZE: usize = 50;

#[derive(Debug, Serialize, ToSchema)]
pub struct RequestList {
    /// Newest first, at most 50.
    pub items: Vec<RequestItem>,
    /// The next page (as Pulp's lists say it), `null` on the last.
    pub next: Option<String>,
}

/// `?state=` and `?after=`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only requests in this state: pending, executing, scheduled, executed, failed, stale, rejected,
    /// cancelled or expired.
    pub state: Option<String>,
    /// The id of the last request of the previous page (`next` carries it).
    pub after: Option<String>,
}

/// Every request, newest first, a page at a time; `next` links the following page.
#[utoipa::path(get, path = "/api/v1/requests", operation_id = "listRequests", tag = "requests", params(ListQuery),
    responses((status = 200, body = RequestList), (status = 400, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<RequestList>, ApiError> {
    let filter = StateFilter::parse(query.state.as_deref().unwrap_or_default())
        .map_err(|e| ApiError::of(&e))?;
    let after = match query.after.as_deref().filter(|a| !a.is_empty()) {
        Some(raw) => Some(
            RequestId::parse(raw)
                .ok_or_else(|| ApiError::bad_request(format!("'{raw}' is not a request id")))?,
        ),
        None => None,
    };
    let page = requests::page(&state, None, filter, after.as_ref(), PAGE_SIZE)
        .await
        .map_err(|e| ApiError::of(&e))?;
    Ok(Json(RequestList {
        items: page.items.iter().map(item).collect(),
        next: page
            .next_after
            .map(|after| next_link("/api/v1/requests", filter, &after)),
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
#[utoipa::path(post, path = "/api/v1/requests/{id}/approve", operation_id = "approveRequest", tag = "requests",
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
        Ok(Acted::ReleaseExecuted { outcome, .. }) => Ok(super::releases::answer(*outcome)),
        Ok(Acted::Scheduled { .. }) => {
            let view = requests::get(&state, &id).await.map_err(act_error)?;
            let counted = ApprovalCounted {
                request: item(&view),
                remaining: 0,
            };
            Ok(JsonAnswer::Done(counted).into_response())
        }
        Ok(Acted::Approved { remaining }) => {
            let view = requests::get(&state, &id).await.map_err(act_error)?;
            let counted = ApprovalCounted {
                request: item(&view),
                remaining,
            };
            Ok(JsonAnswer::Done(counted).into_response())
        }
        Ok(Acted::Rejected | Acted::Cancelled) => Err(ApiError::said(
            &Refused::Unexpected,
            "the approval closed the request otherwise",
        )),
        Err(error) => Err(act_error(error)),
    }
}

fn act_error(error: ActError) -> ApiError {
    ApiError::act(&error)
}
