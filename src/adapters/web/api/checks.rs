//! `POST /api/v1/checks` and `GET /api/v1/checks`: checks pipelines report (by an API token
//! scoped `check:<environment>`), and the latest report of each check of a repository. A
//! report answers 201 with the check as kept and what it triggered: the promotion to the next
//! environment where that one promotes by itself.

use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::checks::{self, CheckAsk, Promotion, ReportError};
use crate::app::deploy::DeployOutcome;
use crate::app::AppState;
use crate::domain::check::CheckReport;

use super::super::answer::JsonAnswer;
use super::caller::Caller;
use super::error::{ApiError, ApiJson, ErrorBody};
use super::outcome::changed_word;

/// A check's report.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckBody {
    /// The repository's name or Pulp UUID.
    pub repository: String,
    /// Where the check ran (the token needs `check:<environment>`).
    pub environment: String,
    /// The repository version checked.
    pub version: u64,
    /// The check's name, e.g. `smoke` (lowercase letters, digits, `-`, `_`, `.`).
    pub name: String,
    pub passed: bool,
    /// A link to the run (http or https).
    #[serde(default)]
    pub url: Option<String>,
}

/// A check as kept: its latest report.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckItem {
    pub repository_uuid: String,
    pub repository_name: String,
    pub environment: String,
    pub version: u64,
    pub name: String,
    /// `passed` or `failed`.
    pub state: String,
    pub url: Option<String>,
    /// The API token that reported it.
    pub reporter: String,
    /// RFC 3339.
    pub reported_at: String,
}

fn item(report: &CheckReport) -> CheckItem {
    CheckItem {
        repository_uuid: report.key.repository_uuid.clone(),
        repository_name: report.repository_name.clone(),
        environment: report.key.environment.to_string(),
        version: report.key.version,
        name: report.key.name.to_string(),
        state: report.state().as_str().to_owned(),
        url: report.url.as_ref().map(|u| u.as_str().to_owned()),
        reporter: report.reporter.clone(),
        reported_at: report
            .at
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    }
}

/// What a report triggered in the environment after its own.
#[derive(Debug, Serialize, ToSchema)]
pub struct PromotionItem {
    pub environment: String,
    /// `not_due` (see `message`), `already_claimed` (another report, or replica, promotes it),
    /// `unreadable`, `deployed`, `requested` (approvals needed: see `request_id`), `refused`
    /// (see `code`), `not_started` or `failed` (see `changed`).
    pub outcome: String,
    /// Why, in words.
    pub message: Option<String>,
    /// The error code of a refusal, as the deployments API answers it.
    pub code: Option<String>,
    pub deploy_id: Option<String>,
    pub request_id: Option<String>,
    /// Whether the environment changed: `yes`, `no` (proven) or `unknown` (check the task).
    pub changed: Option<String>,
}

/// A report recorded, and the promotion it triggered (null: none could be).
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckRecorded {
    pub check: CheckItem,
    pub promotion: Option<PromotionItem>,
}

fn promotion_item(promotion: Promotion) -> PromotionItem {
    let blank = |environment: String, outcome: &str| PromotionItem {
        environment,
        outcome: outcome.to_owned(),
        message: None,
        code: None,
        deploy_id: None,
        request_id: None,
        changed: None,
    };
    match promotion {
        Promotion::NotDue { environment, why } => PromotionItem {
            message: Some(why.to_string()),
            ..blank(environment.to_string(), "not_due")
        },
        Promotion::AlreadyClaimed { environment } => PromotionItem {
            message: Some("another report of this version claimed its promotion".into()),
            ..blank(environment.to_string(), "already_claimed")
        },
        Promotion::Unreadable { environment, error } => PromotionItem {
            message: Some(error),
            ..blank(environment.to_string(), "unreadable")
        },
        Promotion::Ran {
            environment,
            outcome,
        } => {
            let environment = environment.to_string();
            match *outcome {
                DeployOutcome::Deployed { deploy_id, .. } => PromotionItem {
                    deploy_id: Some(deploy_id.as_str().to_owned()),
                    changed: Some("yes".into()),
                    ..blank(environment, "deployed")
                },
                DeployOutcome::Requested(request) => PromotionItem {
                    request_id: Some(request.id.as_str().to_owned()),
                    ..blank(environment, "requested")
                },
                DeployOutcome::Refused(refusal) => {
                    let error = ApiError::refused(&refusal);
                    PromotionItem {
                        message: Some(error.message),
                        code: Some(error.code.to_owned()),
                        ..blank(environment, "refused")
                    }
                }
                DeployOutcome::NotStarted(why) => PromotionItem {
                    message: Some(why.to_string()),
                    changed: Some("no".into()),
                    ..blank(environment, "not_started")
                },
                DeployOutcome::Failed {
                    deploy_id,
                    error,
                    production_changed,
                    ..
                } => PromotionItem {
                    message: Some(error.to_string()),
                    deploy_id: Some(deploy_id.as_str().to_owned()),
                    changed: Some(changed_word(production_changed).into()),
                    ..blank(environment, "failed")
                },
            }
        }
    }
}

/// Records that a version passed or failed a check in an environment (a later report of the
/// same check replaces this one); promotes the version where that completes the checks the
/// next environment requires and it promotes by itself.
#[utoipa::path(post, path = "/api/v1/checks", operation_id = "reportCheck", tag = "checks",
    request_body = CheckBody,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Recorded (see promotion for what it triggered)", body = CheckRecorded),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, description = "Not an API token, or without check:<environment>", body = ErrorBody),
        (status = 404, description = "No such environment, repository or version", body = ErrorBody),
        (status = 409, description = "`not_served`: the environment never served the version", body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 502, body = ErrorBody), (status = 503, body = ErrorBody), (status = 504, body = ErrorBody)))]
pub async fn report(
    State(state): State<AppState>,
    Caller(operator): Caller,
    ApiJson(body): ApiJson<CheckBody>,
) -> Result<Response, ApiError> {
    let ask = CheckAsk {
        repository: body.repository,
        environment: body.environment,
        version: body.version,
        name: body.name,
        passed: body.passed,
        url: body.url,
    };
    let reported = checks::report(&state, ask, &operator)
        .await
        .map_err(|e| refused(&e))?;
    Ok(JsonAnswer::Created(CheckRecorded {
        check: item(&reported.report),
        promotion: reported.promotion.map(promotion_item),
    })
    .into_response())
}

/// A report not recorded: `not_served` for a version the environment never served, else the
/// code of its status.
fn refused(error: &ReportError) -> ApiError {
    match error {
        ReportError::NotServed { .. } => ApiError {
            code: "not_served",
            ..ApiError::of(error)
        },
        _ => ApiError::of(error),
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CheckQuery {
    /// The repository's name or Pulp UUID.
    pub repository: String,
    /// Only this version's checks.
    pub version: Option<u64>,
}

/// The checks of a repository.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckList {
    /// The latest report of each check (by version, environment, name).
    pub items: Vec<CheckItem>,
}

/// The latest report of each check of a repository (of one version, when given).
#[utoipa::path(get, path = "/api/v1/checks", operation_id = "listChecks", tag = "checks",
    params(CheckQuery),
    responses((status = 200, body = CheckList), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    Query(query): Query<CheckQuery>,
) -> Result<Json<CheckList>, ApiError> {
    let repo = checks::find_repository(&state, &query.repository)
        .await
        .map_err(|e| ApiError::of(&e))?;
    let reports = checks::latest(&state, &repo.id, query.version)
        .await
        .map_err(|e| ApiError::of(&e))?;
    Ok(Json(CheckList {
        items: reports.iter().map(item).collect(),
    }))
}
