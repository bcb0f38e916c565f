//! The process's health: `/readyz` (can a deploy run now?) and `/metrics`.

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};

use crate::app::edges::answering::{answering, EdgeAnswer};
use crate::app::AppState;
use crate::ports::PageRequest;

use super::super::accept::prefers_html;
use super::super::answer::{Answer, Readiness};
use super::super::views::metrics::metrics_page;

/// GET /readyz: 200 when everything a deploy needs answers now: Pulp (an authenticated
/// request) and the audit store (a record could be written: the file, or the PostgreSQL
/// database of replicas). Otherwise 503 naming each part that is down and why. Both are
/// asked at once. Ready, it still names the schedules and requests whose record cannot be
/// read, or the audit log's broken hash chain (200, `ready; attention: ...`). With edge Pulps,
/// a second line names each edge and whether it answers (asked at once with the rest, bounded
/// and kept a little while: [`crate::app::edges::answering`]); an edge down is said there and
/// never makes the console unready.
pub async fn ready(State(state): State<AppState>) -> Readiness {
    let pulp = state.manager.list_repos(PageRequest {
        offset: 0,
        limit: 1,
    });
    let audit = state.audit.check_writable();
    let world = state.edge_world();
    let edges = answering(&world);
    let (pulp, audit, edges) = tokio::join!(pulp, audit, edges);
    let readiness = readiness(&state, pulp.err(), audit.err()).await;
    match edges_said(&edges) {
        Some(said) => readiness.noting(said),
        None => readiness,
    }
}

/// Whether a deploy can run now, from the answers of Pulp and the audit store.
async fn readiness(
    state: &AppState,
    pulp: Option<crate::ports::UpstreamError>,
    audit: Option<crate::ports::AuditError>,
) -> Readiness {
    let down: Vec<String> = [
        pulp.map(|error| format!("Pulp: {error}")),
        audit.map(|error| format!("audit store: {error}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !down.is_empty() {
        return Readiness::NotReady(down.join("; "));
    }
    // A broken audit chain is every replica's, and deploys still run: attention, not down.
    let attention: Vec<String> = [
        state.audit_chain_attention(),
        unreadable_records(state).await,
    ]
    .into_iter()
    .flatten()
    .collect();
    if attention.is_empty() {
        Readiness::Ready
    } else {
        Readiness::Attention(attention.join("; "))
    }
}

/// The line naming the edges: which answer and which do not (and why); `None` when the
/// console follows no edge. An edge that does not answer never makes the console unready: a
/// promotion never waits for one.
fn edges_said(edges: &[EdgeAnswer]) -> Option<String> {
    if edges.is_empty() {
        return None;
    }
    let said: Vec<String> = edges
        .iter()
        .map(|e| match &e.answer {
            Ok(()) => format!("{} answers", e.edge),
            Err(why) => format!("{} does not answer ({why})", e.edge),
        })
        .collect();
    Some(format!("edges: {}", said.join("; ")))
}

/// The records of the stores that cannot be read (every replica reads the same ones, so they
/// do not make this one unready): each schedule and request held because of one, and where.
async fn unreadable_records(state: &AppState) -> Option<String> {
    let mut said: Vec<String> = Vec::new();

    if let Some(store) = state.schedules.as_deref() {
        match store.unreadable().await {
            Ok(unreadable) => said.extend(unreadable.iter().map(ToString::to_string)),
            Err(error) => said.push(format!(
                "the schedules' records could not be checked: {error}"
            )),
        }
    }
    if let Some(store) = state.requests.as_deref() {
        match store.unreadable().await {
            Ok(unreadable) => said.extend(unreadable.iter().map(ToString::to_string)),
            Err(error) => said.push(format!(
                "the requests' records could not be checked: {error}"
            )),
        }
    }
    if said.is_empty() {
        return None;
    }
    Some(format!(
        "{} (held until an administrator mends or removes the record)",
        said.join("; ")
    ))
}

/// GET /metrics: what the console measured (the state's metrics): the exposition text for
/// Prometheus and every program (OpenMetrics; no `Accept` or any but HTML), the same
/// figures as a page for a browser that prefers `text/html`.
pub async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let metrics = state.metrics();
    // One address, two answers: a cache keeps them apart by the Accept header.
    let vary = (header::VARY, "Accept");
    if prefers_html(&headers) {
        return ([vary], Answer::Shown(metrics_page(&metrics.render()))).into_response();
    }
    (
        [(header::CONTENT_TYPE, metrics.content_type()), vary],
        metrics.render(),
    )
        .into_response()
}
