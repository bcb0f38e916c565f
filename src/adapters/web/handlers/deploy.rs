//! The deploy step of the pages: the confirmation modal (the preview) and the deploy form's
//! post. Both parse, call the deploy use case and render; the statuses are the outcome's
//! (`web/status.rs`).

use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Extension, Query, State};
use axum::Form;
use maud::Markup;
use serde::Deserialize;

use crate::app::deploy::deploys_under_way;
use crate::app::deploy::{self, DeployOutcome};
use crate::app::schedules::make::{self, NotScheduled};
use crate::app::{diffs::compare, pages::versions, AppState};
use crate::domain::deploy::{DeployAsk, DeployKind, DeployPlan, Refusal};
use crate::domain::identity::Operator;
use crate::domain::repository::{RepoId, Screen, VERSIONS_PER_SCREEN};
use crate::domain::schedule::rules::parse_at;
use crate::ports::AuditError;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::extract::{parse_environment, parse_seen_live, parse_version, RepoPath};
use super::super::htmx::HxRequest;
use super::super::identity::Identified;
use super::super::views::deploy::refused::{
    modal_or_page, not_allowed, not_changed, not_deployed, not_possible, unidentified,
};
use super::super::views::deploy::requested::requested;
use super::super::views::deploy::under_way as under_way_view;
use super::super::views::deploy::{confirm_modal, deployed_without_list, rolled_back};
use super::super::views::edges::edge_line;
use super::super::views::layout::notice;
use super::super::views::schedules::scheduled as views_scheduled;
use super::super::views::versions::deployed;
use crate::app::edges::view::lines as edge_lines;

#[derive(Deserialize)]
pub struct VersionQuery {
    version: Option<String>,
    /// The environment (default: the last of the path, production).
    env: Option<String>,
    /// `1` for a rollback (the history page's links).
    rollback: Option<String>,
}

/// `rollback=1` asks for a rollback; anything else (or nothing) is a deploy.
fn kind_of(rollback: Option<&str>) -> DeployKind {
    if rollback == Some("1") {
        DeployKind::Rollback
    } else {
        DeployKind::Deploy
    }
}

/// GET /repos/{uuid}/deploy/confirm?version=N[&rollback=1]: the preview in the
/// type-to-confirm modal (a rollback's asks for a reason too).
pub async fn confirm(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    Extension(Identified(viewer)): Extension<Identified>,
    query: Result<Query<VersionQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let target = parse_version(query.version.as_deref())?;
    let environment = parse_environment(state.environments(), query.env.as_deref())?;
    let kind = kind_of(query.rollback.as_deref());
    let viewer = viewer.as_ref().ok();
    if let Some(denied) = viewer.and_then(|op| state.policy().may_deploy(&environment, op).err()) {
        return Ok(Answer::as_of(&denied, not_allowed(&denied)));
    }
    Ok(
        match deploy::preview(&state, &id, &environment, target, kind, viewer).await {
            Ok(preview) => {
                let changes = compare::deploy_changes(&state, &preview.plan).await;
                let modal = confirm_modal(&preview, kind, &changes);
                match &preview.soak {
                    // Refused early (409), the modal offering to schedule it instead.
                    Some(soak @ Refusal::Soak(refused)) if !refused.may_override => {
                        Answer::as_of(soak, modal)
                    }
                    _ => Answer::Shown(modal),
                }
            }
            Err(error) => Answer::as_of(&error, not_possible(&error)),
        },
    )
}

#[derive(Deserialize)]
pub struct DeployForm {
    version: Option<String>,
    /// The environment (default: the last of the path, production).
    env: Option<String>,
    confirm: Option<String>,
    /// What production served when the preview was shown (`none` or a number).
    live: Option<String>,
    /// `1` for a rollback, which requires `reason`.
    rollback: Option<String>,
    /// Required for a rollback and to override a freeze; kept in the audit line.
    reason: Option<String>,
    /// `1` to deploy through the environment's freeze (those listed in its `override`).
    #[serde(rename = "override")]
    override_freeze: Option<String>,
    /// When to run it instead of now (RFC 3339 with its offset); empty: now.
    at: Option<String>,
}

/// POST /repos/{uuid}/deploy with `version` and `confirm`; refused (401) when the sender is
/// not identified (the form is then not read).
pub async fn submit(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    HxRequest(hx): HxRequest,
    Extension(Identified(sender)): Extension<Identified>,
    form: Result<Form<DeployForm>, FormRejection>,
) -> Result<Answer, WebError> {
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => {
            deploy::unidentified(&state);
            let page = modal_or_page(hx, &id, "Deploy refused", unidentified(&why));
            return Ok(Answer::as_of(&why, page));
        }
    };
    let Form(form) = form.map_err(WebError::rejected)?;
    let ask = DeployAsk {
        target: parse_version(form.version.as_deref())?,
        environment: parse_environment(state.environments(), form.env.as_deref())?,
        confirm: form.confirm.unwrap_or_default().into(),
        seen_live: parse_seen_live(form.live.as_deref())?,
        rollback: kind_of(form.rollback.as_deref()) == DeployKind::Rollback,
        reason: form.reason.as_deref(),
        override_freeze: form.override_freeze.as_deref() == Some("1"),
    };
    let rollback = ask.rollback;
    let environment = ask.environment.clone();
    if let Some(at) = form.at.as_deref().filter(|at| !at.trim().is_empty()) {
        return Ok(scheduled(&state, &id, hx, ask, at, &operator).await);
    }
    let outcome = deploy::deploy_asked(&state, &id, ask, &operator).await;
    Ok(match &outcome {
        DeployOutcome::Requested(request) if hx => Answer::Recorded(requested(request)),
        DeployOutcome::Requested(request) => Answer::SeeOther(format!("/requests/{}", request.id)),
        DeployOutcome::Deployed { .. } if !hx => Answer::SeeOther(format!("/repos/{id}/versions")),
        DeployOutcome::Deployed { plan, audit, .. } if rollback => {
            // Rollbacks start on the history page: it has no version list to refresh.
            Answer::Shown(rolled_back(plan, audit))
        }
        DeployOutcome::Deployed { plan, audit, .. } => {
            Answer::Shown(deployed_list(&state, &id, plan, audit).await)
        }
        DeployOutcome::Refused(_) | DeployOutcome::NotStarted(_) | DeployOutcome::Failed { .. } => {
            let (title, message) = not_deployed(&outcome, Some(&environment));
            Answer::as_of(&outcome, modal_or_page(hx, &id, title, message))
        }
    })
}

/// The deploy scheduled for `at` instead of run now: 202 with the schedule (htmx), else the
/// schedules' page; refused as a deploy would be, or for its time.
async fn scheduled(
    state: &AppState,
    id: &RepoId,
    hx: bool,
    ask: DeployAsk<'_>,
    at: &str,
    operator: &Operator,
) -> Answer {
    let environment = ask.environment.clone();
    let made = match parse_at(at) {
        Ok(at) => make::schedule(state, id, ask, at, operator).await,
        Err(refusal) => Err(refusal.into()),
    };
    match made {
        Ok(made) if hx => Answer::Recorded(views_scheduled(&made.schedule)),
        Ok(_) => Answer::SeeOther("/schedules".to_owned()),
        Err(NotScheduled::Deploy(outcome)) => {
            let (_, message) = not_deployed(&outcome, Some(&environment));
            Answer::as_of(
                outcome.as_ref(),
                modal_or_page(hx, id, "Not scheduled", message),
            )
        }
        Err(error) => {
            let message = notice(
                "error",
                Some("deploy-error"),
                maud::html! { (error) " " (not_changed(Some(&environment))) },
            );
            Answer::as_of(&error, modal_or_page(hx, id, "Not scheduled", message))
        }
    }
}

/// The version list refreshed on the screen that shows the version now live.
async fn deployed_list(
    state: &AppState,
    id: &RepoId,
    plan: &DeployPlan,
    audit: &Result<(), AuditError>,
) -> Markup {
    let screen = versions::screen_of(state, id, plan.target_number(), VERSIONS_PER_SCREEN)
        .await
        .unwrap_or(Screen::new(0, VERSIONS_PER_SCREEN));
    let lines = edge_lines(
        &state.edge_world(),
        &[(plan.environment.clone(), plan.distribution.name.clone())],
    )
    .await;
    let lines = maud::html! {
        @if !lines.is_empty() {
            div id="edge-lines" hx-swap-oob="true" {
                @for line in &lines { (edge_line(line)) }
            }
        }
    };
    match versions::versions_page(state, id, screen).await {
        Ok(page) => maud::html! { (deployed(plan, &page, audit)) (lines) },
        // Deleted right after the deploy: the deploy still happened; say so.
        Err(unknown) => deployed_without_list(plan, audit, &unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rollback_1_asks_for_a_rollback() {
        assert_eq!(kind_of(Some("1")), DeployKind::Rollback);
        assert_eq!(kind_of(Some("yes")), DeployKind::Deploy);
        assert_eq!(kind_of(None), DeployKind::Deploy);
    }
}

#[derive(Deserialize)]
pub struct UnderWayQuery {
    /// The environment of the confirm dialog's deploy; without it, the versions page's region.
    env: Option<String>,
    /// With `env`: only the deploys started since (RFC 3339; the dialog's opening).
    since: Option<String>,
}

/// GET /repos/{uuid}/deploys/under-way[?env=E[&since=T]]: the repository's deploys running in this
/// console (or ended within the last minute) and their steps: with `env`, those to that
/// environment started since `since` (what the confirm dialog shows while its deploy runs); without, the versions
/// page's region (polled while one runs).
pub async fn under_way(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    query: Result<Query<UnderWayQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    Ok(Answer::Shown(match query.env.as_deref() {
        Some(env) => {
            let environment = parse_environment(state.environments(), Some(env))?;
            let since = parse_since(query.since.as_deref())?;
            let mut deploys = deploys_under_way(&state, &id, Some(&environment)).await;
            deploys.retain(|deploy| since.is_none_or(|since| deploy.started_at >= since));
            under_way_view::runs(&deploys)
        }
        None => under_way_view::page_region(&id, &deploys_under_way(&state, &id, None).await),
    }))
}

/// `since` as the dialogs send it (RFC 3339), or why not.
fn parse_since(since: Option<&str>) -> Result<Option<chrono::DateTime<chrono::Utc>>, WebError> {
    since
        .map(|since| {
            chrono::DateTime::parse_from_rfc3339(since)
                .map(|at| at.to_utc())
                .map_err(|_| {
                    WebError::BadRequest(
                        "'since' must be a time such as 2026-11-27T18:00:00.000Z.".into(),
                    )
                })
        })
        .transpose()
}

#[derive(Deserialize)]
pub struct SeveralUnderWayQuery {
    /// The repositories, by id, comma-separated (a release's members).
    repos: Option<String>,
    env: Option<String>,
    since: Option<String>,
}

/// GET /deploys/under-way?repos=A,B&env=E[&since=T]: the deploys to `env` of those
/// repositories running in this console (or ended within the last minute), started since
/// `since`: what a release's confirm dialog shows while its promotion runs. Nothing is read
/// from Pulp.
pub async fn under_way_of_several(
    State(state): State<AppState>,
    query: Result<Query<SeveralUnderWayQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let environment = parse_environment(state.environments(), query.env.as_deref())?;
    let since = parse_since(query.since.as_deref())?;
    let mut deploys = Vec::new();
    for raw in query.repos.as_deref().unwrap_or_default().split(',') {
        if raw.is_empty() {
            continue;
        }
        let id = RepoId::parse(raw).map_err(|e| WebError::BadRequest(e.to_string()))?;
        deploys.extend(deploys_under_way(&state, &id, Some(&environment)).await);
    }
    deploys.retain(|deploy| since.is_none_or(|since| deploy.started_at >= since));
    deploys.sort_by_key(|deploy| deploy.started_at);
    Ok(Answer::Shown(under_way_view::runs(&deploys)))
}
