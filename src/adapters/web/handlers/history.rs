use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Query, State};

use crate::app::facts::ReadError;
use crate::app::pages::history::history_page;
use crate::app::AppState;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::extract::{parse_environment, RepoPath};
use super::super::identity::Identified;
use super::super::views::history;

#[derive(serde::Deserialize)]
pub struct HistoryQuery {
    /// The environment (default: the last of the path, production).
    env: Option<String>,
}

/// GET /repos/{uuid}/history[?env=<name>]: an environment's changes, newest first (404
/// when Pulp has no such repository).
pub async fn show(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    Extension(Identified(viewer)): Extension<Identified>,
    query: Result<Query<HistoryQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let environment = parse_environment(state.environments(), query.env.as_deref())?;
    match history_page(&state, &id, &environment, viewer.as_ref().ok()).await {
        Ok(page) => Ok(Answer::Shown(history::history_page(&page))),
        Err(unknown @ ReadError::UnknownRepository(_)) => Err(unknown.into()),
        Err(error) => {
            let page = history::unreadable_page(&id, &error.to_string());
            Ok(Answer::as_of(&error, page))
        }
    }
}
