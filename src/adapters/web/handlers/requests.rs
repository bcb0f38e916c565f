//! Deploy requests (four-eyes approval): the list, one request's page, and approving,
//! rejecting or cancelling it. A form post without htmx is answered with a redirect to the
//! request's page (or the refusal's page); with htmx, with the fragment to swap in.

use crate::adapters::web::views::releases::outcome::release_ended;
use crate::app::releases::ReleaseOutcome;
use axum::extract::rejection::FormRejection;
use axum::extract::{Extension, Path, Query, State};
use axum::Form;
use maud::{html, Markup};
use serde::Deserialize;

use crate::app::approvals::requests::{self, ActError, Acted, RequestView};
use crate::app::deploy::{self, DeployOutcome};
use crate::app::{diffs::compare, AppState};
use crate::domain::approval::{check_approval, check_cancel, check_reject, RequestRefusal};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::ids::RequestId;
use crate::domain::repository::RepoId;
use crate::ports::Unidentified;

use super::super::answer::{Answer, StatusOf};
use super::super::errors::WebError;
use super::super::htmx::HxRequest;
use super::super::identity::{refusal_text, Identified};
use super::super::paging::next_link;
use super::super::status::HttpStatus;
use super::super::views::deploy::refused::not_deployed;
use super::super::views::layout::{error_page, notice};
use super::super::views::requests::{
    request_page, requests_page, Actions, Listing, RequestPreview,
};
use crate::domain::approval::listing::StateFilter;

/// Requests `/requests` shows a page at a time.
const LISTED: usize = 50;

/// `?state=` and `?after=` of `/requests`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct ListQuery {
    state: Option<String>,
    after: Option<String>,
}

/// GET /requests: every request, newest first, a page at a time (`?state=` keeps those in
/// one state; `?after=` is where the page starts).
pub async fn list(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Answer, WebError> {
    let filter = StateFilter::parse(query.state.as_deref().unwrap_or_default())
        .map_err(|e| WebError::of(&e))?;
    let after = match query.after.as_deref().filter(|a| !a.is_empty()) {
        Some(raw) => Some(request_id(raw)?),
        None => None,
    };
    Ok(
        match requests::page(&state, None, filter, after.as_ref(), LISTED).await {
            Ok(page) => {
                let next = page
                    .next_after
                    .map(|after| next_link("/requests", filter, &after));
                let listing = Listing {
                    filter,
                    first: after.is_some(),
                    next,
                };
                Answer::Shown(requests_page(&page.items, &listing, None))
            }
            Err(error) => {
                let listing = Listing {
                    filter,
                    first: after.is_some(),
                    next: None,
                };
                let page = requests_page(&[], &listing, Some(&error.to_string()));
                Answer::as_of(&error, page)
            }
        },
    )
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
) -> Result<Answer, WebError> {
    let id = request_id(&raw)?;
    let view = requests::get(&state, &id)
        .await
        .map_err(|e| WebError::of(&e))?;
    // A closed request runs nothing more: no preview to read upstream.
    let preview = if view.state.is_open() {
        preview_of(&state, &view).await
    } else {
        Err(format!("the request is {}", view.state.word()))
    };
    let actions = actions_for(&state, &view, viewer.as_ref().ok());
    Ok(Answer::Shown(request_page(&view, &preview, &actions)))
}

/// The deploy the request would run, previewed as the confirm step does, for its requester.
async fn preview_of(state: &AppState, view: &RequestView) -> RequestPreview {
    let request = view.request();
    let repo = RepoId::parse(&request.repository_uuid).map_err(|e| e.to_string())?;
    let requester = request.requester(state.policy.matching());
    let preview = deploy::preview(
        state,
        &repo,
        &request.environment,
        request.target(),
        request.kind,
        Some(&requester),
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
) -> Result<Answer, WebError> {
    let id = request_id(&raw)?;
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => return Ok(refused(hx, &id, &why, &refusal_text("Approval", &why))),
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
) -> Result<Answer, WebError> {
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
) -> Result<Answer, WebError> {
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
) -> Result<Answer, WebError>
where
    F: FnOnce(RequestId, Operator) -> Fut,
    Fut: std::future::Future<Output = Result<Acted, ActError>>,
{
    let id = request_id(raw)?;
    Ok(match sender {
        Ok(operator) => answer(hx, &id, act(id.clone(), operator).await),
        Err(why) => refused(hx, &id, &why, &refusal_text(action, &why)),
    })
}

/// Back to the request's page when the action was taken; its refusal otherwise.
fn answer(hx: bool, id: &RequestId, acted: Result<Acted, ActError>) -> Answer {
    let acted = match acted {
        Ok(acted) => acted,
        Err(error) => return refused(hx, id, &error, &error.to_string()),
    };
    let status = StatusOf::of(&acted);
    if !hx && status.is_success() {
        return Answer::SeeOther(format!("/requests/{id}"));
    }
    let message = match &acted {
        Acted::Executed {
            outcome,
            environment,
            ..
        } => executed(outcome, environment),
        Acted::ReleaseExecuted { outcome, .. } => release_executed(outcome),
        Acted::Approved { remaining } => {
            success(&format!("Approval counted; {remaining} more needed."))
        }
        Acted::Scheduled { at } => success(&format!(
            "Approved: the deploy runs at its schedule's time, {}, every check made again then.",
            crate::adapters::web::views::moment::shown(at)
        )),
        Acted::Rejected => success("Request rejected."),
        Acted::Cancelled => success("Request cancelled."),
    };
    let message = html! { div data-request-id=(id) data-answer=(status.code()) { (message) } };
    if hx {
        Answer::As(status, message)
    } else {
        let page = error_page("The approved deploy did not complete", message, None);
        Answer::As(status, page)
    }
}

fn success(text: &str) -> Markup {
    notice("ok", Some("request-answer"), html! { (text) })
}

/// The deploy an approval ran, in the words of the deploy's own answers.
fn executed(outcome: &DeployOutcome, environment: &EnvironmentName) -> Markup {
    match outcome {
        DeployOutcome::Deployed { plan, audit, .. } => html! {
            (success(&format!(
                "Approved and deployed: {} now serves {}.",
                plan.environment,
                plan.target_number().label()
            )))
            @if let Err(audit_error) = audit {
                (notice("error", Some("audit-error"), html! { strong { "The audit line was NOT written: " } (audit_error) }))
            }
        },
        // Refused, not started or failed: said as the deploy itself says it.
        other => not_deployed(other, Some(environment)).1,
    }
}

/// The release promotion an approval ran, in the words of the promotion's own answer.
fn release_executed(outcome: &ReleaseOutcome) -> Markup {
    match outcome {
        ReleaseOutcome::Ended(ended) => release_ended(ended),
        ReleaseOutcome::Refused(refusal) => {
            notice("error", Some("request-error"), html! { (refusal) })
        }
        ReleaseOutcome::NotStarted(why) => notice("error", Some("request-error"), html! { (why) }),
        ReleaseOutcome::Requested(_) => notice(
            "error",
            Some("request-error"),
            html! {
                "The promotion asked for approvals again; nothing was changed."
            },
        ),
    }
}

/// An action refused because of `why`, with its status.
fn refused(hx: bool, id: &RequestId, why: &impl HttpStatus, text: &str) -> Answer {
    let status = StatusOf::of(why);
    let message = html! {
        div data-request-id=(id) data-refused=(status.code()) {
            (notice("error", Some("request-error"), html! { (text) }))
            p { a href={ "/requests/" (id) } { "Back to the request" } }
        }
    };
    if hx {
        Answer::As(status, message)
    } else {
        Answer::As(status, error_page("Request not changed", message, None))
    }
}
