use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use maud::{html, Markup};
use serde::Deserialize;

use crate::app::deploy::{self, DeployOutcome, PreviewError};
use crate::app::{changes, versions, AppState};
use crate::domain::{DeployRequest, Refusal, RepoId};

use super::super::errors::WebError;
use super::super::extract::{parse_seen_live, parse_version, HxRequest, RepoPath};
use super::super::views::deploy::{confirm_modal, deployed, failure_message, message_modal};
use super::super::views::layout::{back_link, notice, page};

#[derive(Deserialize)]
pub struct VersionQuery {
    version: Option<String>,
}

/// GET /repos/{uuid}/deploy/confirm?version=N: the preview in the type-to-confirm modal.
pub async fn confirm(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    query: Result<Query<VersionQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let target = parse_version(query.version.as_deref())?;
    Ok(match deploy::preview(&state, &id, target).await {
        Ok(plan) => {
            let changes = changes::deploy_changes(&state, &plan).await;
            confirm_modal(&plan, &changes, None).into_response()
        }
        Err(PreviewError::Refused(refusal)) => (
            refusal_status(&refusal),
            message_modal("Deploy not possible", error_notice(&refusal.to_string())),
        )
            .into_response(),
        Err(error @ PreviewError::Upstream(_)) => (
            StatusCode::BAD_GATEWAY,
            message_modal("Deploy not possible", error_notice(&error.to_string())),
        )
            .into_response(),
    })
}

#[derive(Deserialize)]
pub struct DeployForm {
    version: Option<String>,
    confirm: Option<String>,
    /// What production served when the preview was shown (`none` or a number).
    live: Option<String>,
}

/// POST /repos/{uuid}/deploy with `version` and `confirm`.
pub async fn submit(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    HxRequest(hx): HxRequest,
    form: Result<Form<DeployForm>, FormRejection>,
) -> Result<Response, WebError> {
    let Form(form) = form.map_err(WebError::rejected)?;
    let request = DeployRequest {
        target: parse_version(form.version.as_deref())?,
        confirm: form.confirm.unwrap_or_default(),
        seen_live: parse_seen_live(form.live.as_deref())?,
    };
    let outcome = deploy::deploy(&state, &id, &request).await;
    if let DeployOutcome::Deployed { plan, audit, .. } = &outcome {
        if !hx {
            return Ok(Redirect::to(&format!("/repos/{id}/versions")).into_response());
        }
        let page = versions::versions_page(&state, &id).await;
        return Ok(deployed(plan, &page, audit).into_response());
    }
    let (status, title, message) = failure(&outcome);
    Ok(if hx {
        (status, message_modal(title, message)).into_response()
    } else {
        (status, failure_page(&id, title, message)).into_response()
    })
}

fn failure(outcome: &DeployOutcome) -> (StatusCode, &'static str, Markup) {
    match outcome {
        DeployOutcome::Refused(refusal) => (
            refusal_status(refusal),
            "Deploy refused",
            error_notice(&format!("{refusal} Production was not changed.")),
        ),
        DeployOutcome::NotStarted(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "Deploy not started",
            error_notice(&format!("{why} Production was not changed.")),
        ),
        DeployOutcome::Failed {
            step,
            error,
            production_changed,
            audit,
            ..
        } => (
            StatusCode::BAD_GATEWAY,
            "Deploy failed",
            failure_message(*step, error, *production_changed, audit),
        ),
        DeployOutcome::Deployed { .. } => (StatusCode::OK, "Deployed", html! {}),
    }
}

fn refusal_status(refusal: &Refusal) -> StatusCode {
    match refusal {
        Refusal::ConfirmationMismatch => StatusCode::UNPROCESSABLE_ENTITY,
        Refusal::UnknownVersion(_) => StatusCode::NOT_FOUND,
        _ => StatusCode::CONFLICT,
    }
}

fn error_notice(text: &str) -> Markup {
    notice("error", Some("deploy-error"), html! { (text) })
}

fn failure_page(id: &RepoId, title: &str, message: Markup) -> Markup {
    page(
        title,
        html! {
            div.title-row { (back_link()) h1 { (title) } }
            (message)
            p { a href={ "/repos/" (id) "/versions" } { "Back to the versions" } }
        },
    )
}
