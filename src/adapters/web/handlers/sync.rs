//! The synchronize button's cell: starting a synchronization, and the cell polled while it
//! runs.

use axum::extract::{Extension, State};
use maud::html;

use crate::app::sync::{current_sync, start_sync, sync_denial};
use crate::app::AppState;

use super::super::answer::Answer;
use super::super::extract::RepoPath;
use super::super::identity::{refusal_text, Identified};
use super::super::views::sync_cell::{latest_version, sync_cell, sync_error_cell};

/// POST /repos/{uuid}/sync: starts a synchronization; answers the cell. Refused (401) when
/// the sender is not identified.
pub async fn start(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    Extension(Identified(sender)): Extension<Identified>,
) -> Answer {
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => {
            let message = refusal_text("Synchronization", &why);
            return Answer::as_of(&why, sync_error_cell(&message));
        }
    };
    match start_sync(&state, &id, &operator).await {
        Ok(sync) => Answer::Shown(sync_cell(&id, &sync, None)),
        Err(error) => Answer::as_of(&error, sync_error_cell(&error.to_string())),
    }
}

/// GET /repos/{uuid}/sync: the cell as it is now (polled while a sync runs), its button
/// disabled for a viewer who may not synchronize.
pub async fn cell(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    Extension(Identified(viewer)): Extension<Identified>,
) -> Answer {
    let denied = sync_denial(&state, viewer.as_ref().ok());
    match current_sync(&state, &id).await {
        Ok(cell) => Answer::Shown(html! {
            (sync_cell(&id, &cell, denied.as_deref()))
            (latest_version(&id, cell.latest, true))
        }),
        Err(error) => Answer::as_of(&error, sync_error_cell(&error.to_string())),
    }
}
