use axum::extract::{Extension, State};
use axum::response::{IntoResponse, Response};
use maud::html;

use crate::app::sync::{current_sync, start_sync, sync_denial};
use crate::app::AppState;

use super::super::extract::RepoPath;
use super::super::identity::{refusal_text, Identified, UNIDENTIFIED};
use super::super::status;
use super::super::views::sync_cell::{latest_version, sync_cell, sync_error_cell};

/// POST /repos/{uuid}/sync: starts a synchronization; answers the cell. Refused (401) when
/// the sender is not identified.
pub async fn start(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    Extension(Identified(sender)): Extension<Identified>,
) -> Response {
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => {
            let message = refusal_text("Synchronization", &why);
            return (UNIDENTIFIED, sync_error_cell(&message)).into_response();
        }
    };
    match start_sync(&state, &id, &operator).await {
        Ok(sync) => sync_cell(&id, &sync, None).into_response(),
        Err(error) => (status::sync(&error), sync_error_cell(&error.to_string())).into_response(),
    }
}

/// GET /repos/{uuid}/sync: the cell as it is now (polled while a sync runs), its button
/// disabled for a viewer who may not synchronize.
pub async fn cell(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    Extension(Identified(viewer)): Extension<Identified>,
) -> Response {
    let denied = sync_denial(&state, viewer.as_ref().ok());
    match current_sync(&state, &id).await {
        Ok(cell) => html! {
            (sync_cell(&id, &cell, denied.as_deref()))
            (latest_version(&id, cell.latest, true))
        }
        .into_response(),
        Err(error) => (status::sync(&error), sync_error_cell(&error.to_string())).into_response(),
    }
}
