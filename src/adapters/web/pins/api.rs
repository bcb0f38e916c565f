//! `POST /api/v1/repositories/{uuid}/environments/{env}/unpin`: the versions page's unpin (the
//! same use case), as JSON.

use axum::extract::{Path, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::pins::unpin::unpin as lift_pin;
use crate::app::AppState;
use crate::domain::pin::{Lift, LiftedBy};
use crate::domain::repository::RepoId;

use super::super::api::caller::Caller;
use super::super::api::error::{ApiError, ApiJson, ErrorBody};

/// Why the pin is lifted.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UnpinBody {
    /// Kept with the lift and told in `pin.lifted` (required, at most 500 characters).
    pub reason: String,
}

/// A pin lifted.
#[derive(Debug, Serialize, ToSchema)]
pub struct Unpinned {
    pub repository_uuid: String,
    pub repository_name: String,
    pub environment: String,
    /// The version the lifted pin held.
    pub version: u64,
    /// Who lifted it.
    pub by: String,
    pub reason: String,
    /// RFC 3339, UTC.
    pub at: String,
    /// `unpin` (here), or `deploy` (a person's deploy lifted it).
    pub how: String,
}

impl From<&Lift> for Unpinned {
    fn from(lift: &Lift) -> Self {
        Self {
            repository_uuid: lift.repository.to_string(),
            repository_name: lift.repository_name.clone(),
            environment: lift.environment.to_string(),
            version: lift.version.get(),
            by: lift.by.clone(),
            reason: lift.reason.clone(),
            at: lift.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            how: match lift.how {
                LiftedBy::Unpin => "unpin",
                LiftedBy::Deploy { .. } => "deploy",
            }
            .to_owned(),
        }
    }
}

/// Lifts the pin a rollback set on an environment of a repository, so that automatic
/// promotions and schedules move it again: by those who may deploy there (a token needs
/// `deploy:<environment>`), with a reason.
#[utoipa::path(post, path = "/api/v1/repositories/{uuid}/environments/{env}/unpin", operation_id = "unpinEnvironment", tag = "repositories",
    params(("uuid" = String, Path, description = "The repository's Pulp UUID"),
        ("env" = String, Path, description = "The environment's name")),
    request_body = UnpinBody,
    security(("bearer" = [])),
    responses((status = 200, description = "Unpinned", body = Unpinned),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, description = "No such repository or environment", body = ErrorBody),
        (status = 409, description = "Not pinned (`not_pinned`)", body = ErrorBody),
        (status = 422, description = "No reason, or one too long", body = ErrorBody),
        (status = 503, body = ErrorBody)))]
pub async fn unpin(
    State(state): State<AppState>,
    Path((uuid, environment)): Path<(String, String)>,
    Caller(operator): Caller,
    ApiJson(body): ApiJson<UnpinBody>,
) -> Result<Json<Unpinned>, ApiError> {
    let id = RepoId::parse(&uuid).map_err(|_| {
        ApiError::not_found("No repository has this identifier: repository identifiers are UUIDs.")
    })?;
    let lift = lift_pin(&state, &id, &environment, &operator, &body.reason).await?;
    Ok(Json(Unpinned::from(&lift)))
}
