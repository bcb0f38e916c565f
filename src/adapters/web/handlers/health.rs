use axum::extract::State;
use axum::http::StatusCode;

use crate::app::AppState;
use crate::ports::PageRequest;

use super::super::status;

/// GET /readyz: 200 when everything a deploy needs answers now: Pulp (an authenticated
/// request) and the audit store (a record could be written: the file, or the PostgreSQL
/// database of replicas). Otherwise 503 naming each part that is down and why. Both are
/// asked at once.
pub async fn ready(State(state): State<AppState>) -> (StatusCode, String) {
    let pulp = state.manager.list_repos(PageRequest {
        offset: 0,
        limit: 1,
    });
    let audit = state.audit.check_writable();
    let (pulp, audit) = tokio::join!(pulp, audit);
    let down: Vec<String> = [
        pulp.err().map(|error| format!("Pulp: {error}")),
        audit.err().map(|error| format!("audit store: {error}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if down.is_empty() {
        (StatusCode::OK, "ready\n".into())
    } else {
        (
            status::NOT_READY,
            format!("not ready: {}\n", down.join("; ")),
        )
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
