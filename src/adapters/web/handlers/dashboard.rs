use axum::extract::{Query, State};
use maud::Markup;
use serde::Deserialize;

use crate::app::{dashboard, AppState};

use super::super::views::dashboard::dashboard_page;

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<u64>,
}

/// GET /?page=N
pub async fn show(State(state): State<AppState>, Query(query): Query<PageQuery>) -> Markup {
    dashboard_page(&dashboard::dashboard(&state, query.page.unwrap_or(0)).await)
}
