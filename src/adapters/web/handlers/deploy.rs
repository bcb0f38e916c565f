use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Extension, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use maud::{html, Markup};
use serde::Deserialize;

use std::time::{Duration, Instant};

use crate::adapters::metrics::metrics;
use crate::app::deploy::{self, DeployOutcome, PreviewError};
use crate::app::{diffs::compare, pages::versions, AppState};
use crate::domain::{
    DeployKind, DeployRequest, EnvironmentName, Intent, Reason, Refusal, RepoId, Screen,
    VERSIONS_PER_SCREEN,
};

use super::super::errors::WebError;
use super::super::extract::{parse_environment, parse_seen_live, parse_version, RepoPath};
use super::super::htmx::HxRequest;
use super::super::identity::{refusal_text, Identified, UNIDENTIFIED};
use super::super::status;
use super::super::views::deploy::{
    confirm_modal, deployed, deployed_without_list, failure_message, message_modal, rolled_back,
};
use super::super::views::layout::{error_page, notice};
use super::super::views::requests::requested;

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

/// The intent of a submitted form: a rollback needs its reason; a deploy's is optional.
fn intent_of(rollback: Option<&str>, reason: Option<&str>) -> Result<Intent, Refusal> {
    let reason = reason.unwrap_or_default();
    match kind_of(rollback) {
        DeployKind::Deploy if reason.trim().is_empty() => Ok(Intent::Deploy(None)),
        DeployKind::Deploy => Reason::parse(reason).map(|r| Intent::Deploy(Some(r))),
        DeployKind::Rollback => Reason::parse(reason).map(Intent::Rollback),
    }
}

/// GET /repos/{uuid}/deploy/confirm?version=N[&rollback=1]: the preview in the
/// type-to-confirm modal (a rollback's asks for a reason too).
pub async fn confirm(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    Extension(Identified(viewer)): Extension<Identified>,
    query: Result<Query<VersionQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let target = parse_version(query.version.as_deref())?;
    let environment = parse_environment(state.environments(), query.env.as_deref())?;
    let kind = kind_of(query.rollback.as_deref());
    if let Some(denied) = viewer
        .as_ref()
        .ok()
        .and_then(|op| state.policy().may_deploy(&environment, op).err())
    {
        let message = error_notice(&denied.to_string());
        let modal = message_modal("Deploy not allowed", message);
        return Ok((StatusCode::FORBIDDEN, modal).into_response());
    }
    Ok(
        match deploy::preview(
            &state,
            &id,
            &environment,
            target,
            kind,
            viewer.as_ref().ok(),
        )
        .await
        {
            Ok(preview) => {
                let changes = compare::deploy_changes(&state, &preview.plan).await;
                confirm_modal(&preview, kind, &changes).into_response()
            }
            Err(error) => {
                let code = match &error {
                    PreviewError::Refused(refusal) => status::refusal(refusal),
                    PreviewError::Unreadable(error) => status::read(error),
                };
                let message = error_notice(&sentence(error.to_string()));
                let message = match &error {
                    PreviewError::Refused(refusal) => tagged(refusal, message),
                    PreviewError::Unreadable(_) => message,
                };
                (code, message_modal("Deploy not possible", message)).into_response()
            }
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
}

/// POST /repos/{uuid}/deploy with `version` and `confirm`; refused (401) when the sender is
/// not identified.
pub async fn submit(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    HxRequest(hx): HxRequest,
    Extension(Identified(sender)): Extension<Identified>,
    form: Result<Form<DeployForm>, FormRejection>,
) -> Result<Response, WebError> {
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => {
            // Not read yet: the form is read only for an identified sender.
            metrics().deploy_ended("unidentified", "unknown", None);
            let message = error_notice(&refusal_text("Deploy", &why));
            let message = html! { (message) p { (not_changed(None)) } };
            return Ok(answer(hx, &id, UNIDENTIFIED, "Deploy refused", message));
        }
    };
    let Form(form) = form.map_err(WebError::rejected)?;
    let target = parse_version(form.version.as_deref())?;
    let environment = parse_environment(state.environments(), form.env.as_deref())?;
    let seen_live = parse_seen_live(form.live.as_deref())?;
    let rollback = kind_of(form.rollback.as_deref()) == DeployKind::Rollback;
    let began = Instant::now();
    let outcome = match intent_of(form.rollback.as_deref(), form.reason.as_deref()) {
        Ok(intent) => {
            let confirm = form.confirm.unwrap_or_default().into();
            let request = DeployRequest {
                target,
                environment: environment.clone(),
                confirm,
                seen_live,
                intent,
                override_freeze: form.override_freeze.as_deref() == Some("1"),
            };
            deploy::deploy(&state, &id, &request, &operator).await
        }
        Err(refusal) => DeployOutcome::Refused(refusal),
    };
    record(&outcome, &environment, began.elapsed());
    if let DeployOutcome::Requested(request) = &outcome {
        let made = requested(request);
        return Ok(if hx {
            (StatusCode::ACCEPTED, made).into_response()
        } else {
            Redirect::to(&format!("/requests/{}", request.id)).into_response()
        });
    }
    if let DeployOutcome::Deployed { plan, audit, .. } = &outcome {
        if !hx {
            return Ok(Redirect::to(&format!("/repos/{id}/versions")).into_response());
        }
        if rollback {
            // Rollbacks start on the history page: it has no version list to refresh.
            return Ok(rolled_back(plan, audit).into_response());
        }
        // The list refreshed on the screen that shows the version now live.
        let screen = versions::screen_of(&state, &id, plan.target_number(), VERSIONS_PER_SCREEN)
            .await
            .unwrap_or(Screen::new(0, VERSIONS_PER_SCREEN));
        return Ok(match versions::versions_page(&state, &id, screen).await {
            Ok(page) => deployed(plan, &page, audit).into_response(),
            // Deleted right after the deploy: the deploy still happened; say so.
            Err(unknown) => deployed_without_list(plan, audit, &unknown).into_response(),
        });
    }
    let (status, title, message) = failure(&outcome, Some(&environment));
    Ok(answer(hx, &id, status, title, message))
}

/// Counts the deploy by outcome; the duration of one that started.
fn record(outcome: &DeployOutcome, environment: &EnvironmentName, took: Duration) {
    let (label, started) = match outcome {
        DeployOutcome::Deployed { .. } => ("deployed", true),
        DeployOutcome::Failed { .. } => ("failed", true),
        DeployOutcome::Refused(_) => ("refused", false),
        DeployOutcome::Requested(_) => ("requested", false),
        DeployOutcome::NotStarted(_) => ("not_started", false),
    };
    metrics().deploy_ended(label, environment.as_str(), started.then_some(took));
}

/// A deploy that did not happen: a modal for htmx, a page otherwise.
fn answer(hx: bool, id: &RepoId, status: StatusCode, title: &str, message: Markup) -> Response {
    if hx {
        (status, message_modal(title, message)).into_response()
    } else {
        (status, error_page(title, message, Some(id))).into_response()
    }
}

/// The status, title and message of a deploy that did not deploy (also an approval's).
pub(super) fn failure(
    outcome: &DeployOutcome,
    environment: Option<&EnvironmentName>,
) -> (StatusCode, &'static str, Markup) {
    match outcome {
        DeployOutcome::Refused(refusal) => (
            status::refusal(refusal),
            "Deploy refused",
            tagged(
                refusal,
                error_notice(&format!("{refusal} {}", not_changed(environment))),
            ),
        ),
        DeployOutcome::NotStarted(why) => (
            status::not_started(why),
            "Deploy not started",
            error_notice(&format!(
                "{} {}",
                sentence(why.to_string()),
                not_changed(environment)
            )),
        ),
        DeployOutcome::Failed {
            plan,
            step,
            error,
            production_changed,
            task,
            audit,
            ..
        } => (
            status::step_failed(error),
            "Deploy failed",
            failure_message(
                &plan.environment,
                *step,
                error,
                *production_changed,
                task.as_ref(),
                audit,
            ),
        ),
        DeployOutcome::Deployed { .. } => (StatusCode::OK, "Deployed", html! {}),
        DeployOutcome::Requested(request) => {
            (StatusCode::ACCEPTED, "Deploy requested", requested(request))
        }
    }
}

/// A refusal's message, marked for the refusals pages and scripts tell apart: out of order
/// (`data-refusal="out-of-order"`, warned and refused at once where the environment requires
/// the previous one) and a freeze (`data-refusal="freeze"`).
fn tagged(refusal: &Refusal, message: Markup) -> Markup {
    match refusal {
        Refusal::OutOfOrder { skips, .. } => html! {
            div data-warning="out-of-order" data-refusal="out-of-order" data-skips=(skips) { (message) }
        },
        Refusal::Frozen { environment, .. } => html! {
            div data-refusal="freeze" data-env=(environment) { (message) }
        },
        _ => message,
    }
}

/// Ends `text` with one period (upstream's messages may already end with one).
/// What a refusal left as it was: the environment it concerns when the request was read far
/// enough to know it, else everything.
fn not_changed(environment: Option<&EnvironmentName>) -> String {
    let Some(environment) = environment else {
        return "Nothing was changed.".to_owned();
    };
    let name = environment.to_string();
    let mut letters = name.chars();
    let first = letters.next().map(|c| c.to_uppercase().collect::<String>());
    format!(
        "{}{} was not changed.",
        first.unwrap_or_default(),
        letters.as_str()
    )
}

fn sentence(text: String) -> String {
    if text.ends_with('.') {
        text
    } else {
        text + "."
    }
}

fn error_notice(text: &str) -> Markup {
    notice("error", Some("deploy-error"), html! { (text) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::UpstreamError;

    #[test]
    fn only_rollback_1_asks_for_a_rollback_and_it_needs_a_reason_a_deploy_may_give_one() {
        assert_eq!(kind_of(Some("1")), DeployKind::Rollback);
        assert_eq!(kind_of(Some("yes")), DeployKind::Deploy);
        assert_eq!(kind_of(None), DeployKind::Deploy);
        assert_eq!(intent_of(None, Some("  ")), Ok(Intent::Deploy(None)));
        assert_eq!(intent_of(None, None), Ok(Intent::Deploy(None)));
        let reasoned = intent_of(None, Some(" CVE fix ")).unwrap();
        assert_eq!(reasoned.reason(), Some("CVE fix"));
        assert_eq!(intent_of(Some("1"), None), Err(Refusal::ReasonMissing));
        assert_eq!(
            intent_of(Some("1"), Some("  ")),
            Err(Refusal::ReasonMissing)
        );
        let intent = intent_of(Some("1"), Some(" v9 broke yum ")).unwrap();
        assert_eq!(intent.reason(), Some("v9 broke yum"));
    }

    #[test]
    fn a_message_ends_with_exactly_one_period() {
        let auth = UpstreamError::Auth("Invalid username/password.".into());
        let why = sentence(format!("Could not read the repository from Pulp: {auth}"));
        assert!(
            why.ends_with("username and password.") && !why.contains(".."),
            "{why}"
        );
        let http = UpstreamError::Http {
            status: 500,
            message: "boom".into(),
        };
        let why = sentence(format!("Could not read the repository from Pulp: {http}"));
        assert!(why.ends_with("boom."), "{why}");
    }
}
