use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use maud::Markup;
use serde::Deserialize;

use crate::app::{dashboard, AppState};

use super::super::errors::WebError;
use super::super::views::dashboard::dashboard_page;

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<u64>,
}

/// GET /?page=N
pub async fn show(
    State(state): State<AppState>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<Markup, WebError> {
    let Query(query) =
        query.map_err(|_| WebError::BadRequest("'page' must be a page number: 0, 1, 2…".into()))?;
    Ok(dashboard_page(
        &dashboard::dashboard(&state, query.page.unwrap_or(0)).await,
    ))
}
