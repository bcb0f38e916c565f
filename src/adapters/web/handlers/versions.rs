use axum::extract::State;
use maud::Markup;

use crate::app::{versions, AppState};

use super::super::errors::WebError;
use super::super::extract::RepoPath;
use super::super::views::versions::versions_page;

/// GET /repos/{uuid}/versions (404 when Pulp has no such repository).
pub async fn show(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
) -> Result<Markup, WebError> {
    let page = versions::versions_page(&state, &id)
        .await
        .map_err(|unknown| WebError::NotFound(unknown.to_string()))?;
    Ok(versions_page(&page))
}
