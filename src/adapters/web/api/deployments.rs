//! `POST /api/v1/repositories/{uuid}/deployments` and `GET /api/v1/deployments/{id}`: the
//! deploy use case of the pages, confirmed by `expected_current` (compare-and-swapped as the
//! preview's `live`), and a deploy read back from the audit log.

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use crate::app::deploy::{deploy_asked, DeployOutcome};
use crate::app::schedules::make;
use crate::app::AppState;
use crate::domain::deploy::{
    AuditOutcome, Confirmation, DeployAsk, DeployId, DeployRecord, SeenLive,
};
use crate::domain::repository::VersionNumber;
use crate::domain::schedule::rules::parse_at;

use super::super::answer::JsonAnswer;
use super::caller::Caller;
use super::edges::{promotion_edges, PromotionEdges};
use super::error::{ApiError, ApiJson, ErrorBody};
use super::outcome::{answer_with_edges, changed_word, DeploymentOutcome};
use super::repositories::repo_id;
use super::request_item::request_item;
use super::schedules::{schedule_item, Accepted, Scheduled};

/// A deploy (or rollback) asked through the API.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeploymentBody {
    /// The version to deploy.
    pub version: u64,
    /// The environment (default: the last of the path, production).
    #[serde(default)]
    pub environment: Option<String>,
    /// The version the caller believes the environment serves now (null: none). Required:
    /// it is the API's confirmation, and the deploy is refused (409) if the environment
    /// serves something else.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u64>, required = true)]
    pub expected_current: Option<Option<u64>>,
    /// Why (kept in the audit line; required for a rollback and to override a freeze).
    #[serde(default)]
    pub reason: Option<String>,
    /// `true` for a rollback to a version the environment served before.
    #[serde(default)]
    pub rollback: bool,
    /// `true` to deploy through the environment's freeze (those listed in its `override`).
    #[serde(default, rename = "override")]
    pub override_freeze: bool,
    /// Run it at this time instead of now (RFC 3339 with its offset): answered 202 with the
    /// schedule made, after every check a deploy would make then. Not for a rollback.
    #[serde(default)]
    pub at: Option<String>,
}

/// A field that is present (null included) is `Some`; an absent one stays `None`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u64>>, D::Error> {
    Option::<u64>::deserialize(d).map(Some)
}

/// Deploys a version to an environment, through every check and the policy the pages apply.
#[utoipa::path(post, path = "/api/v1/repositories/{uuid}/deployments", operation_id = "createDeployment", tag = "deployments",
    params(("uuid" = String, Path, description = "The repository's Pulp UUID")),
    request_body = DeploymentBody,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Deployed", body = DeploymentOutcome),
        (status = 202, description = "The environment needs approvals: a request was recorded (`Requested`); or, with `at`, the deploy was scheduled (`Scheduled`)", body = Accepted),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 502, description = "A step failed (see changed)", body = DeploymentOutcome),
        (status = 503, body = ErrorBody), (status = 504, description = "A step timed out", body = DeploymentOutcome)))]
pub async fn create(
    State(state): State<AppState>,
    Path(uuid): Path<String>,
    Caller(operator): Caller,
    ApiJson(body): ApiJson<DeploymentBody>,
) -> Result<Response, ApiError> {
    let id = repo_id(&uuid)?;
    let environment = state
        .environments()
        .chosen(body.environment.as_deref())
        .map_err(|unknown| ApiError::said(&unknown, format!("Field 'environment': {unknown}.")))?
        .name
        .clone();
    let ask = DeployAsk {
        target: VersionNumber::new(body.version),
        environment: environment.clone(),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: match body.expected_current {
            None => SeenLive::NotSent,
            Some(None) => SeenLive::Nothing,
            Some(Some(n)) => SeenLive::Version(VersionNumber::new(n)),
        },
        rollback: body.rollback,
        reason: body.reason.as_deref(),
        override_freeze: body.override_freeze,
    };
    if let Some(at) = body.at.as_deref() {
        let at = parse_at(at).map_err(|e| ApiError::not_scheduled(&e.into()))?;
        let made = make::schedule(&state, &id, ask, at, &operator)
            .await
            .map_err(|e| ApiError::not_scheduled(&e))?;
        let needed = state.policy().approvals_needed(&environment);
        let made = Scheduled {
            schedule: schedule_item(&made.schedule),
            request: made
                .request
                .map(|r| request_item(&r, "pending", &[], needed)),
        };
        return Ok(JsonAnswer::Recorded(Accepted::Scheduled(Box::new(made))).into_response());
    }
    let outcome = deploy_asked(&state, &id, ask, &operator).await;
    let edges = match &outcome {
        DeployOutcome::Deployed { plan, .. } | DeployOutcome::Failed { plan, .. } => {
            promotion_edges(&state, &plan.environment, &plan.distribution.name).await
        }
        _ => None,
    };
    Ok(answer_with_edges(outcome, &environment, edges))
}

/// A deploy as its audit lines tell it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Deployment {
    pub deploy_id: String,
    /// `started` (no outcome recorded: running, or the console stopped: check the
    /// environment), `deployed` or `failed`.
    pub outcome: String,
    /// Whether the environment changed: `yes`, `no`, `unknown`; null while only started.
    pub changed: Option<String>,
    /// Deprecated (kept for one release): the same as `changed`, for any environment.
    #[schema(deprecated)]
    pub production_changed: Option<String>,
    pub repository_uuid: String,
    pub repository_name: String,
    pub environment: String,
    pub from: Option<u64>,
    pub to: u64,
    /// `deploy` or `rollback`.
    pub kind: String,
    pub operator: String,
    pub reason: Option<String>,
    /// RFC 3339: when it started and, when recorded, when it ended.
    pub started: String,
    pub finished: Option<String>,
    pub error: Option<String>,
    /// The approval request it ran for: `{"request_id", "requester", "approvers"}`.
    #[schema(value_type = Option<Object>)]
    pub request: Option<serde_json::Value>,
    /// The freeze it went through: `{"window", "until"}`.
    #[schema(value_type = Option<Object>)]
    pub freeze_override: Option<serde_json::Value>,
    /// The required checks it went without: `{"checked_in", "unmet"}`.
    #[schema(value_type = Option<Object>)]
    pub checks_override: Option<serde_json::Value>,
    /// An automatic promotion's: the check whose passing triggered it, `{"check",
    /// "environment", "version", "url", "reporter"}` (null: a deploy someone asked for).
    #[schema(value_type = Option<Object>)]
    pub triggered_by: Option<serde_json::Value>,
    /// The edge Pulps that copy its environment, when any: what each serves now for its
    /// distribution, compared with what production serves now (asked again, it says when
    /// every edge serves it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<PromotionEdges>,
}

fn deployment(lines: &[DeployRecord]) -> Option<Deployment> {
    let first = lines.first()?;
    let last = lines.last()?;
    let at = |r: &DeployRecord| {
        r.timestamp
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    };
    let (outcome, changed, error) = match &last.outcome {
        AuditOutcome::Started => ("started", None, None),
        AuditOutcome::Deployed => ("deployed", Some("yes"), None),
        AuditOutcome::Failed {
            production_changed,
            error,
        } => (
            "failed",
            Some(changed_word(*production_changed)),
            Some(error.clone()),
        ),
    };
    Some(Deployment {
        deploy_id: last.deploy_id.as_str().to_owned(),
        outcome: outcome.into(),
        changed: changed.map(str::to_owned),
        production_changed: changed.map(str::to_owned),
        repository_uuid: last.repository_uuid.clone(),
        repository_name: last.repository_name.clone(),
        environment: last.environment.to_string(),
        from: last.previous_version,
        to: last.target_version,
        kind: serde_json::to_value(last.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
        operator: last.operator.clone(),
        reason: last.reason.clone(),
        started: at(first),
        finished: (lines.len() > 1 || outcome != "started").then(|| at(last)),
        error,
        request: last
            .request
            .as_ref()
            .and_then(|r| serde_json::to_value(r).ok()),
        freeze_override: last
            .freeze_override
            .as_ref()
            .and_then(|f| serde_json::to_value(f).ok()),
        checks_override: last
            .checks_override
            .as_ref()
            .and_then(|c| serde_json::to_value(c).ok()),
        triggered_by: last
            .automation
            .as_ref()
            .and_then(|a| serde_json::to_value(&a.triggered_by).ok()),
        edges: None,
    })
}

/// A deploy read back from the audit log.
#[utoipa::path(get, path = "/api/v1/deployments/{deploy_id}", operation_id = "getDeployment", tag = "deployments",
    params(("deploy_id" = String, Path, description = "The deploy id of a deploy's answer or audit lines")),
    responses((status = 200, body = Deployment), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn show(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> Result<Json<Deployment>, ApiError> {
    let id = DeployId::new(raw.clone());
    let lines = crate::app::pages::history::deploy_lines(&state, &id)
        .await
        .map_err(|e| ApiError::of(&e))?;
    let mut found = deployment(&lines)
        .ok_or_else(|| ApiError::not_found(format!("The audit log has no deploy {raw}.")))?;
    if let Some(last) = lines.last() {
        found.edges = promotion_edges(&state, &last.environment, &last.distribution).await;
    }
    Ok(Json(found))
}
