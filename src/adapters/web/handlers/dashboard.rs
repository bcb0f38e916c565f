use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Query, State};
use serde::Deserialize;

use crate::app::{pages::dashboard, sync, AppState};

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::identity::Identified;
use super::super::views::dashboard::dashboard_page;

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<u64>,
}

/// GET /?page=N. When the repositories cannot be listed, the page says why with the status
/// of that failure (see [`Answer::page`]). A viewer who may not synchronize sees the
/// Synchronize buttons disabled.
pub async fn show(
    State(state): State<AppState>,
    Extension(Identified(viewer)): Extension<Identified>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) =
        query.map_err(|_| WebError::BadRequest("'page' must be a page number: 0, 1, 2…".into()))?;
    let mut board = dashboard::dashboard(&state, query.page.unwrap_or(0)).await;
    board.sync_denied = sync::sync_denial(&state, viewer.as_ref().ok());
    Ok(Answer::page(board.error.as_ref(), dashboard_page(&board)))
}
