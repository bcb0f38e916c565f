//! `GET /api/v1/schedules` and `POST /api/v1/schedules/{id}/cancel`: the scheduled deploys
//! of the pages (the same use cases), as JSON; a schedule is made by a deployment's body with
//! `"at"` (see `deployments.rs`).

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::schedules::{cancel, list};
use crate::app::AppState;
use crate::domain::ids::ScheduleId;
use crate::domain::schedule::{Schedule, ScheduleState};

use super::super::answer::JsonAnswer;
use super::caller::Caller;
use super::error::{ApiError, ErrorBody};

/// One scheduled deploy.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScheduleItem {
    pub id: String,
    /// `waiting`, `running`, `done`, `failed`, `cancelled` or `refused`.
    pub state: String,
    /// When it runs (RFC 3339, UTC).
    pub at: String,
    pub repository_uuid: String,
    pub repository_name: String,
    pub environment: String,
    pub target_version: u64,
    /// What the environment served when it was made: it runs only if it still does (null:
    /// nothing).
    pub expected_current: Option<u64>,
    pub reason: Option<String>,
    /// Who made it: the deploy runs on their behalf, every check made again at its time.
    pub author: String,
    /// The approval request it carries (it runs only if approved), where the environment
    /// needs approvals.
    pub request_id: Option<String>,
    pub created: String,
    /// The deploy it ran (`GET /api/v1/deployments/{deploy_id}`), once it ran.
    pub deploy_id: Option<String>,
    /// When it ended, and why it was refused or how it failed.
    pub ended: Option<String>,
    pub message: Option<String>,
    /// Who cancelled it.
    pub cancelled_by: Option<String>,
}

fn rfc3339(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub(super) fn schedule_item(schedule: &Schedule) -> ScheduleItem {
    let (deploy_id, ended, message, cancelled_by) = match &schedule.state {
        ScheduleState::Waiting => (None, None, None, None),
        ScheduleState::Running { claim } => (Some(claim.deploy_id.as_str()), None, None, None),
        ScheduleState::Done { deploy_id, ended } => {
            (Some(deploy_id.as_str()), Some(ended), None, None)
        }
        ScheduleState::Failed {
            deploy_id,
            ended,
            message,
        } => (Some(deploy_id.as_str()), Some(ended), Some(message), None),
        ScheduleState::Cancelled { by, ended } => (None, Some(ended), None, Some(by.to_string())),
        ScheduleState::Refused { ended, reason } => (None, Some(ended), Some(reason), None),
    };
    ScheduleItem {
        id: schedule.id.to_string(),
        state: schedule.state.word().to_owned(),
        at: rfc3339(&schedule.at),
        repository_uuid: schedule.repository_uuid.clone(),
        repository_name: schedule.repository_name.clone(),
        environment: schedule.environment.to_string(),
        target_version: schedule.target_version,
        expected_current: schedule.expected,
        reason: schedule.reason.clone(),
        author: schedule.author.to_string(),
        request_id: schedule.request_id.as_ref().map(ToString::to_string),
        created: rfc3339(&schedule.created),
        deploy_id: deploy_id.map(str::to_owned),
        ended: ended.map(rfc3339),
        message: message.cloned(),
        cancelled_by,
    }
}

/// The answer to a deployment's body with `"at"`: the schedule made, and the approval
/// request it carries where the environment needs approvals (null otherwise).
#[derive(Debug, Serialize, ToSchema)]
pub struct Scheduled {
    pub schedule: ScheduleItem,
    pub request: Option<super::request_item::RequestItem>,
}

/// What a deployment's 202 says: a request recorded for approval, or (with `at`) a schedule.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum Accepted {
    /// Answered as is by `outcome::answer` (the same JSON: the enum is untagged).
    #[allow(dead_code)]
    Requested(Box<super::outcome::Requested>),
    Scheduled(Box<Scheduled>),
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ScheduleList {
    /// Newest made first, at most 200.
    pub items: Vec<ScheduleItem>,
    /// The schedules whose record cannot be read: never run until an administrator mends
    /// or removes the record (the log and `/readyz` say where it is).
    pub unreadable: Vec<UnreadableItem>,
}

/// A schedule whose record cannot be read.
#[derive(Debug, Serialize, ToSchema)]
pub struct UnreadableItem {
    /// The schedule's id; null when the record is too damaged to name one (every schedule
    /// open before it is then held as well, each listed by its id).
    pub id: Option<String>,
    /// Why the record cannot be read.
    pub reason: String,
}

/// Every scheduled deploy, newest made first (at most 200).
#[utoipa::path(get, path = "/api/v1/schedules", operation_id = "listSchedules", tag = "schedules",
    responses((status = 200, body = ScheduleList), (status = 503, body = ErrorBody)))]
pub async fn list(State(state): State<AppState>) -> Result<Json<ScheduleList>, ApiError> {
    let listed = list::recent(&state, None)
        .await
        .map_err(|e| ApiError::of(&e))?;
    Ok(Json(ScheduleList {
        items: listed.schedules.iter().map(schedule_item).collect(),
        unreadable: listed
            .unreadable
            .into_iter()
            .map(|one| UnreadableItem {
                id: one.id.map(|id| id.as_str().to_owned()),
                reason: one.why,
            })
            .collect(),
    }))
}

/// Cancels a waiting schedule: its author, or someone who may deploy to its environment (a
/// token needs `deploy:<environment>` either way).
#[utoipa::path(post, path = "/api/v1/schedules/{id}/cancel", operation_id = "cancelSchedule", tag = "schedules",
    params(("id" = String, Path, description = "The schedule's id")),
    security(("bearer" = [])),
    responses((status = 200, description = "Cancelled", body = ScheduleItem),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, description = "Not waiting any more (running or ended)", body = ErrorBody),
        (status = 503, body = ErrorBody)))]
pub async fn cancel(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    Caller(operator): Caller,
) -> Result<Response, ApiError> {
    let id = ScheduleId::parse(&raw)
        .ok_or_else(|| ApiError::not_found(format!("There is no schedule {raw}.")))?;
    let cancelled = cancel::cancel(&state, &id, &operator)
        .await
        .map_err(|e| ApiError::of(&e))?;
    Ok(JsonAnswer::Done(schedule_item(&cancelled)).into_response())
}
