use axum::extract::State;
use maud::Markup;

use crate::app::{versions, AppState};

use super::super::extract::RepoPath;
use super::super::views::versions::versions_page;

/// GET /repos/{uuid}/versions
pub async fn show(State(state): State<AppState>, RepoPath(id): RepoPath) -> Markup {
    versions_page(&versions::versions_page(&state, &id).await)
}
