//! The process's health: `/readyz` (can a deploy run now?) and `/metrics`.

use axum::extract::State;

use crate::app::AppState;
use crate::ports::PageRequest;

use super::super::answer::Readiness;

/// GET /readyz: 200 when everything a deploy needs answers now: Pulp (an authenticated
/// request) and the audit store (a record could be written: the file, or the PostgreSQL
/// database of replicas). Otherwise 503 naming each part that is down and why. Both are
/// asked at once.
pub async fn ready(State(state): State<AppState>) -> Readiness {
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
        Readiness::Ready
    } else {
        Readiness::NotReady(down.join("; "))
    }
}

/// GET /metrics: what the console measured (the state's metrics; OpenMetrics text).
pub async fn metrics(State(state): State<AppState>) -> impl axum::response::IntoResponse {
    let metrics = state.metrics();
    (
        [(axum::http::header::CONTENT_TYPE, metrics.content_type())],
        metrics.render(),
    )
}
