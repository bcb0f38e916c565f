use axum::extract::State;
use axum::response::{IntoResponse, Response};

use crate::app::facts::ReadError;
use crate::app::history::history_page;
use crate::app::AppState;

use super::super::errors::WebError;
use super::super::extract::RepoPath;
use super::super::status;
use super::super::views::history;

/// GET /repos/{uuid}/history: production's changes, newest first (404 when Pulp has no
/// such repository).
pub async fn show(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
) -> Result<Response, WebError> {
    match history_page(&state, &id).await {
        Ok(page) => Ok(history::history_page(&page).into_response()),
        Err(unknown @ ReadError::UnknownRepository(_)) => Err(unknown.into()),
        Err(error) => {
            let code = status::read(&error);
            Ok((code, history::unreadable_page(&id, &error.to_string())).into_response())
        }
    }
}
