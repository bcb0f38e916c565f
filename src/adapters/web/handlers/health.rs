use axum::extract::State;
use axum::http::StatusCode;

use crate::app::AppState;
use crate::ports::PageRequest;

use super::super::status;

/// GET /readyz: 200 when Pulp answers an authenticated request, else 503 with the reason.
pub async fn ready(State(state): State<AppState>) -> (StatusCode, String) {
    match state
        .manager
        .list_repos(PageRequest {
            offset: 0,
            limit: 1,
        })
        .await
    {
        Ok(_) => (StatusCode::OK, "ready\n".into()),
        Err(error) => (status::NOT_READY, format!("not ready: {error}\n")),
    }
}

/// GET /metrics: the process's Prometheus metrics (OpenMetrics text).
pub async fn metrics() -> impl axum::response::IntoResponse {
    use crate::adapters::metrics::{metrics, CONTENT_TYPE};
    (
        [(axum::http::header::CONTENT_TYPE, CONTENT_TYPE)],
        metrics().render(),
    )
}
