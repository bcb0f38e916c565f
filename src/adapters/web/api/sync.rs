//! `POST /api/v1/repositories/{uuid}/sync`: starts a synchronization, as the dashboard's
//! button does (the same use case and policy).

use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::sync::start_sync;
use crate::app::AppState;

use super::caller::Caller;
use super::error::{ApiError, ErrorBody};
use super::repositories::{repo_id, SyncSummary};

#[derive(Debug, Serialize, ToSchema)]
pub struct SyncStarted {
    pub repository_uuid: String,
    pub sync: SyncSummary,
}

/// Starts a synchronization from the repository's remote.
#[utoipa::path(post, path = "/api/v1/repositories/{uuid}/sync", operation_id = "startSync", tag = "repositories",
    params(("uuid" = String, Path, description = "The repository's Pulp UUID")),
    security(("bearer" = [])),
    responses((status = 200, body = SyncStarted), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn start(
    State(state): State<AppState>,
    Path(uuid): Path<String>,
    Caller(operator): Caller,
) -> Result<Json<SyncStarted>, ApiError> {
    let id = repo_id(&uuid)?;
    let cell = start_sync(&state, &id, &operator)
        .await
        .map_err(|e| ApiError::of(&e))?;
    Ok(Json(SyncStarted {
        repository_uuid: id.to_string(),
        sync: SyncSummary::from(&cell.state),
    }))
}
