//! The release pages: the list of releases, the page of one, the confirm step of a promotion (or of a rollback of
//! the set a promotion replaced), and the promotion's post. Each parses, calls the release
//! use cases and renders; the statuses are the outcome's (`web/status.rs`).

use std::collections::BTreeMap;

use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Extension, Path, Query, State};
use axum::Form;
use serde::Deserialize;

use crate::app::promotion::policy_gate::blocked_everywhere;
use crate::app::releases::preview::release_preview;
use crate::app::releases::view::{recorded_promotion, release_view};
use crate::app::releases::{promote, ReleaseOutcome};
use crate::app::AppState;
use crate::domain::deploy::{intent_of, DeployKind};
use crate::domain::environment::EnvironmentName;
use crate::domain::release::{
    ProposedSet, Release, ReleaseAsk, ReleaseConfirmation, ReleaseRefusal,
};
use crate::domain::repository::VersionNumber;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::extract::{parse_environment, parse_seen_live, parse_version};
use super::super::htmx::HxRequest;
use super::super::identity::Identified;
use super::super::views::deploy::refused::unidentified;
use super::super::views::deploy::requested::requested;
use super::super::views::layout::{error_page, notice};
use super::super::views::modal::message_modal;
use super::super::views::releases::confirm::release_confirm;
use super::super::views::releases::list::releases_page;
use super::super::views::releases::outcome::release_ended;
use super::super::views::releases::page::release_page;

/// The release named in the path, or 404.
fn release_of(state: &AppState, name: &str) -> Result<Release, WebError> {
    state
        .releases()
        .get(name)
        .cloned()
        .ok_or_else(|| WebError::of(&ReleaseRefusal::UnknownRelease(name.to_owned())))
}

/// GET /releases: every configured release with its members in every environment, all read
/// at once.
pub async fn list(State(state): State<AppState>) -> Answer {
    let releases: Vec<Release> = state.releases().iter().cloned().collect();
    let views =
        futures::future::join_all(releases.iter().map(|release| release_view(&state, release)))
            .await;
    let listed: Vec<_> = releases.into_iter().zip(views).collect();
    Answer::Shown(releases_page(&listed))
}

/// GET /releases/{name}: every member in every environment, each environment's set, drift
/// and the release's promotions.
pub async fn show(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Extension(Identified(viewer)): Extension<Identified>,
) -> Result<Answer, WebError> {
    let release = release_of(&state, &name)?;
    let viewer = viewer.as_ref().ok();
    let (view, blocked) = futures::join!(
        release_view(&state, &release),
        blocked_everywhere(&state, viewer)
    );
    match view {
        Ok(view) => Ok(Answer::Shown(release_page(&view, &blocked))),
        Err(error) => {
            let message = notice(
                "error",
                Some("page-error"),
                maud::html! {
                    strong { "Could not read the release's members from Pulp. " } (error)
                },
            );
            Ok(Answer::as_of(
                &error,
                error_page(&format!("Release {name}"), message, None),
            ))
        }
    }
}

#[derive(Deserialize)]
pub struct ConfirmQuery {
    env: Option<String>,
    /// A rollback: the id of the promotion whose replaced set to go back to.
    rollback: Option<String>,
}

/// GET /releases/{name}/promote/confirm?env=<env>[&rollback=<promotion id>]: the confirm
/// step of promoting the environment's set (from the environment before it; the first
/// environment takes each member's newest version), or of rolling a promotion back.
pub async fn confirm(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Extension(Identified(viewer)): Extension<Identified>,
    query: Result<Query<ConfirmQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let release = release_of(&state, &name)?;
    let environment = parse_environment(state.environments(), query.env.as_deref())?;
    let viewer = viewer.as_ref().ok();
    if let Some(denied) = viewer.and_then(|op| state.policy().may_deploy(&environment, op).err()) {
        let modal = message_modal("Promotion not allowed", maud::html! { (denied) });
        return Ok(Answer::as_of(&denied, modal));
    }
    let (versions, kind, title) = match &query.rollback {
        Some(id) => rollback_set(&state, &release, &environment, id).await?,
        None => promotion_set(&state, &release, &environment).await?,
    };
    let preview = release_preview(&state, &release, &environment, &versions, kind, viewer).await?;
    Ok(Answer::Shown(release_confirm(&preview, &title)))
}

type Set = (BTreeMap<String, VersionNumber>, DeployKind, String);

/// The set `environment` would receive, read as the release page reads it.
async fn promotion_set(
    state: &AppState,
    release: &Release,
    environment: &EnvironmentName,
) -> Result<Set, WebError> {
    let view = release_view(state, release).await?;
    let column = view.column(environment).ok_or_else(|| {
        WebError::BadRequest(format!("Field 'env': no environment {environment}."))
    })?;
    let from = column.source.as_ref().map_or_else(
        || "the newest versions".to_owned(),
        |s| format!("{s}'s set"),
    );
    match &column.proposed {
        ProposedSet::Ready { versions, .. } => Ok((
            versions.clone(),
            DeployKind::Deploy,
            format!("Promote {from} to {environment}"),
        )),
        ProposedSet::Incomplete { missing } => Err(WebError::Rejected {
            status: axum::http::StatusCode::CONFLICT,
            message: format!(
                "There is no set to promote to {environment}: {} serves nothing of {}.",
                column.source.as_ref().map_or("Pulp", |s| s.as_str()),
                missing.join(", ")
            ),
        }),
    }
}

/// The set promotion `id` replaced in `environment` (it must have finished, every member
/// having served a version before it).
async fn rollback_set(
    state: &AppState,
    release: &Release,
    environment: &EnvironmentName,
    id: &str,
) -> Result<Set, WebError> {
    let record = recorded_promotion(state, release, id)
        .await
        .map_err(|e| WebError::of(&e))?
        .filter(|r| &r.environment == environment)
        .ok_or_else(|| {
            WebError::NotFound(format!(
                "No promotion {id} of {} to {environment} is recorded.",
                release.name
            ))
        })?;
    let set = record.replaced_set().ok_or_else(|| WebError::Rejected {
        status: axum::http::StatusCode::CONFLICT,
        message: "That promotion cannot be rolled back as a set: it did not finish, or a member served nothing before it.".into(),
    })?;
    Ok((
        set.into_iter().collect(),
        DeployKind::Rollback,
        format!("Roll {environment} back to the set before this promotion"),
    ))
}

/// POST /releases/{name}/promote: `env`, `confirm` (the release's name), `version.<member>`
/// and `current.<member>` for every member, `reason`, `rollback`, `override`.
pub async fn submit(
    State(state): State<AppState>,
    Path(name): Path<String>,
    HxRequest(hx): HxRequest,
    Extension(Identified(sender)): Extension<Identified>,
    form: Result<Form<Vec<(String, String)>>, FormRejection>,
) -> Result<Answer, WebError> {
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => {
            let message = unidentified(&why);
            return Ok(Answer::as_of(
                &why,
                message_modal("Promotion refused", message),
            ));
        }
    };
    let Form(fields) = form.map_err(WebError::rejected)?;
    let ask = ask_of(&state, &fields)?;
    let outcome = promote(&state, &name, &ask, &operator).await;
    let answer = match &outcome {
        ReleaseOutcome::Requested(request) if hx => {
            return Ok(Answer::Recorded(requested(request)))
        }
        ReleaseOutcome::Requested(request) => {
            return Ok(Answer::SeeOther(format!("/requests/{}", request.id)))
        }
        ReleaseOutcome::Ended(ended) if ended.record.finished() && !hx => {
            return Ok(Answer::SeeOther(format!("/releases/{name}")))
        }
        ReleaseOutcome::Ended(ended) => release_ended(ended),
        ReleaseOutcome::Refused(refusal) => notice(
            "error",
            Some("release-refused"),
            maud::html! {
                span data-refusal=(refusal_word(refusal)) { (refusal) }
            },
        ),
        ReleaseOutcome::NotStarted(why) => notice(
            "error",
            Some("release-refused"),
            maud::html! { (why) " Nothing was changed." },
        ),
    };
    let modal = message_modal("Release promotion", answer);
    Ok(Answer::as_of(&outcome, modal))
}

/// The word a refusal is known by (`data-refusal`), as the API's error codes.
fn refusal_word(refusal: &ReleaseRefusal) -> &'static str {
    super::super::api::ApiError::release_refused(refusal).code
}

/// The promotion the form asks.
fn ask_of(state: &AppState, fields: &[(String, String)]) -> Result<ReleaseAsk, WebError> {
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let environment = parse_environment(state.environments(), field("env"))?;
    let mut versions = BTreeMap::new();
    let mut expected = BTreeMap::new();
    for (key, value) in fields {
        if let Some(member) = key.strip_prefix("version.") {
            versions.insert(member.to_owned(), parse_version(Some(value))?);
        } else if let Some(member) = key.strip_prefix("current.") {
            let seen = parse_seen_live(Some(value))?;
            let current = match seen {
                crate::domain::deploy::SeenLive::Version(v) => Some(v),
                _ => None,
            };
            expected.insert(member.to_owned(), current);
        }
    }
    let rollback = field("rollback") == Some("1");
    let intent = intent_of(rollback, field("reason")).map_err(|r| WebError::of(&r))?;
    Ok(ReleaseAsk {
        environment,
        versions,
        expected,
        confirm: ReleaseConfirmation::Typed(field("confirm").unwrap_or_default().to_owned()),
        intent,
        override_freeze: field("override") == Some("1"),
    })
}
