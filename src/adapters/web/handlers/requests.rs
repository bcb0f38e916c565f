//! Deploy requests (four-eyes approval): the list, one request's page, and approving,
//! rejecting or cancelling it. A form post without htmx is answered with a redirect to the
//! request's page (or the refusal's page); with htmx, with the fragment to swap in.

use axum::extract::rejection::FormRejection;
use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use maud::{html, Markup};
use serde::Deserialize;

use crate::app::approvals::requests::{self, ActError, Acted, RequestView};
use crate::app::deploy::{self, DeployOutcome};
use crate::app::{diffs::compare, AppState};
use crate::domain::{
    check_approval, check_cancel, check_reject, EnvironmentName, Operator, RepoId, RequestId,
    RequestRefusal,
};
use crate::ports::Unidentified;

use super::super::errors::WebError;
use super::super::htmx::HxRequest;
use super::super::identity::{refusal_text, Identified, UNIDENTIFIED};
use super::super::status;
use super::super::views::layout::{error_page, notice};
use super::super::views::requests::{request_page, requests_page, Actions, RequestPreview};

/// The newest requests `/requests` lists.
const LISTED: usize = 100;

/// GET /requests: every recent request, newest first.
pub async fn list(State(state): State<AppState>) -> Response {
    match requests::list(&state, None, LISTED).await {
        Ok(views) => requests_page(&views, None).into_response(),
        Err(error) => (
            StatusCode::SERVICE_UNAVAILABLE,
            requests_page(&[], Some(&error.to_string())),
        )
            .into_response(),
    }
}

fn request_id(raw: &str) -> Result<RequestId, WebError> {
    RequestId::parse(raw).ok_or_else(|| WebError::NotFound(format!("There is no request {raw}.")))
}

/// GET /requests/{id}: the request and, while it is pending, the preview and diff of the
/// deploy it would run and the type-to-confirm approval.
pub async fn show(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    Extension(Identified(viewer)): Extension<Identified>,
) -> Result<Response, WebError> {
    let id = request_id(&raw)?;
    let view = requests::get(&state, &id)
        .await
        .map_err(|e| WebError::Rejected {
            status: act_status(&e),
            message: e.to_string(),
        })?;
    // A closed request runs nothing more: no preview to read upstream.
    let preview = if view.state.is_open() {
        preview_of(&state, &view).await
    } else {
        Err(format!("the request is {}", view.state.word()))
    };
    let actions = actions_for(&state, &view, viewer.as_ref().ok());
    Ok(request_page(&view, &preview, &actions).into_response())
}

/// The deploy the request would run, previewed as the confirm step does, for its requester.
async fn preview_of(state: &AppState, view: &RequestView) -> RequestPreview {
    let request = view.request();
    let repo = RepoId::parse(&request.repository_uuid).map_err(|e| e.to_string())?;
    let requester = request.requester();
    let preview = deploy::preview(
        state,
        &repo,
        &request.environment,
        request.target(),
        request.kind,
        requester.as_ref(),
    )
    .await
    .map_err(|e| e.to_string())?;
    let changes = compare::deploy_changes(state, &preview.plan).await;
    Ok((preview, changes))
}

/// What the viewer may do with the request (the server checks again on the post).
fn actions_for(state: &AppState, view: &RequestView, viewer: Option<&Operator>) -> Actions {
    let Some(viewer) = viewer else {
        let why = || Err("You are not identified.".to_owned());
        return Actions {
            approve: why(),
            reject: why(),
            cancel: why(),
        };
    };
    let environment = &view.request().environment;
    let approver = state
        .policy()
        .may_approve(environment, viewer)
        .map_err(|d| d.to_string());
    let text = |r: Result<(), RequestRefusal>| r.map_err(|e| e.to_string());
    Actions {
        approve: approver
            .clone()
            .and_then(|()| text(check_approval(&view.log, &view.state, viewer))),
        reject: approver.and_then(|()| text(check_reject(&view.log, &view.state, viewer))),
        cancel: text(check_cancel(&view.log, &view.state, viewer)),
    }
}

#[derive(Deserialize)]
pub struct ApproveForm {
    confirm: Option<String>,
}

/// POST /requests/{id}/approve with `confirm` (the repository's name typed).
pub async fn approve(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    HxRequest(hx): HxRequest,
    Extension(Identified(sender)): Extension<Identified>,
    form: Result<Form<ApproveForm>, FormRejection>,
) -> Result<Response, WebError> {
    let id = request_id(&raw)?;
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => {
            return Ok(refused(
                hx,
                &id,
                UNIDENTIFIED,
                &refusal_text("Approval", &why),
            ))
        }
    };
    let Form(form) = form.map_err(WebError::rejected)?;
    let confirm = form.confirm.unwrap_or_default();
    let acted = requests::approve(&state, &id, &operator, confirm.into()).await;
    Ok(answer(hx, &id, acted))
}

/// POST /requests/{id}/reject: an approver turns it down.
pub async fn reject(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    HxRequest(hx): HxRequest,
    Extension(Identified(sender)): Extension<Identified>,
) -> Result<Response, WebError> {
    close(hx, &raw, sender, "Rejection", |id, operator| async move {
        requests::reject(&state, &id, &operator).await
    })
    .await
}

/// POST /requests/{id}/cancel: the requester withdraws it.
pub async fn cancel(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    HxRequest(hx): HxRequest,
    Extension(Identified(sender)): Extension<Identified>,
) -> Result<Response, WebError> {
    close(
        hx,
        &raw,
        sender,
        "Cancellation",
        |id, operator| async move { requests::cancel(&state, &id, &operator).await },
    )
    .await
}

/// A rejection or cancellation (`act`) by the identified sender.
async fn close<F, Fut>(
    hx: bool,
    raw: &str,
    sender: Result<Operator, Unidentified>,
    action: &str,
    act: F,
) -> Result<Response, WebError>
where
    F: FnOnce(RequestId, Operator) -> Fut,
    Fut: std::future::Future<Output = Result<Acted, ActError>>,
{
    let id = request_id(raw)?;
    Ok(match sender {
        Ok(operator) => answer(hx, &id, act(id.clone(), operator).await),
        Err(why) => refused(hx, &id, UNIDENTIFIED, &refusal_text(action, &why)),
    })
}

/// Back to the request's page when the action was taken; its refusal otherwise.
fn answer(hx: bool, id: &RequestId, acted: Result<Acted, ActError>) -> Response {
    let said = |text: String| (StatusCode::OK, success(&text));
    let (code, message) = match acted {
        Ok(Acted::Executed {
            outcome,
            environment,
            ..
        }) => executed(&outcome, &environment),
        Ok(Acted::Approved { remaining }) => {
            said(format!("Approval counted; {remaining} more needed."))
        }
        Ok(Acted::Rejected) => said("Request rejected.".to_owned()),
        Ok(Acted::Cancelled) => said("Request cancelled.".to_owned()),
        Err(error) => return refused(hx, id, act_status(&error), &error.to_string()),
    };
    if !hx && code.is_success() {
        return Redirect::to(&format!("/requests/{id}")).into_response();
    }
    let message = html! { div data-request-id=(id) data-answer=(code.as_u16()) { (message) } };
    if hx {
        (code, message).into_response()
    } else {
        (
            code,
            error_page("The approved deploy did not complete", message, None),
        )
            .into_response()
    }
}

fn success(text: &str) -> Markup {
    notice("ok", Some("request-answer"), html! { (text) })
}

/// The deploy an approval ran, in the words of the deploy's own answers.
fn executed(outcome: &DeployOutcome, environment: &EnvironmentName) -> (StatusCode, Markup) {
    match outcome {
        DeployOutcome::Deployed { plan, audit, .. } => (
            StatusCode::OK,
            html! {
                (success(&format!(
                    "Approved and deployed: {} now serves {}.",
                    plan.environment,
                    plan.target_number().label()
                )))
                @if let Err(audit_error) = audit {
                    (notice("error", Some("audit-error"), html! { strong { "The audit line was NOT written: " } (audit_error) }))
                }
            },
        ),
        // Refused, not started or failed: said as the deploy itself says it.
        other => {
            let (code, _, message) = super::deploy::failure(other, Some(environment));
            (code, message)
        }
    }
}

/// The status of a refused action on a request.
fn act_status(error: &ActError) -> StatusCode {
    match error {
        ActError::NotFound(_) => StatusCode::NOT_FOUND,
        ActError::Denied(_) => StatusCode::FORBIDDEN,
        ActError::Refused(RequestRefusal::OwnRequest(_) | RequestRefusal::NotRequester(_)) => {
            StatusCode::FORBIDDEN
        }
        ActError::Refused(_) | ActError::Stale { .. } => StatusCode::CONFLICT,
        ActError::Deploy(refusal) => status::refusal(refusal),
        ActError::NotStarted(why) => status::not_started(why),
        ActError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

fn refused(hx: bool, id: &RequestId, code: StatusCode, text: &str) -> Response {
    let message = html! {
        div data-request-id=(id) data-refused=(code.as_u16()) {
            (notice("error", Some("request-error"), html! { (text) }))
            p { a href={ "/requests/" (id) } { "Back to the request" } }
        }
    };
    if hx {
        (code, message).into_response()
    } else {
        (code, error_page("Request not changed", message, None)).into_response()
    }
}
