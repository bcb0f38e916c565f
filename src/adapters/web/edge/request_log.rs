//! One span per request (method, route, status, latency, its correlation id) and one log line when the response
//! leaves: "answered", or "refused" with the reason a refusal left in the response
//! ([`Refusal`]); the embedded assets at debug. And one count per answer by route and status
//! (`repo_console_http_requests_total`).

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{MakeSpan, TraceLayer};
use tracing::{field, Span};

use crate::app::AppState;

use crate::adapters::web::assets;
use crate::adapters::web::refusal_note::Refusal;

#[derive(Clone)]
pub struct RequestSpan;

impl<B> MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, request: &Request<B>) -> Span {
        let route = route_of(request);
        tracing::info_span!("http_request", method = %request.method(), route, status = field::Empty, correlation_id = field::Empty)
    }
}

/// The span alone: the line is written by [`log_and_count`], and a 5xx is not logged again
/// as a failure.
pub fn layer(
) -> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, RequestSpan, (), (), (), (), ()> {
    TraceLayer::new_for_http()
        .make_span_with(RequestSpan)
        .on_request(())
        .on_response(())
        .on_body_chunk(())
        .on_eos(())
        .on_failure(())
}

/// The route template (e.g. /repos/{uuid}/versions), never raw path text.
fn route_of<B>(request: &Request<B>) -> &str {
    request
        .extensions()
        .get::<MatchedPath>()
        .map_or("(none)", MatchedPath::as_str)
}

/// The embedded files: a page load fetches them all, and they say nothing an operator needs.
fn is_asset(route: &str) -> bool {
    [assets::HTMX_PATH, assets::CSS_PATH, assets::JS_PATH].contains(&route)
}

/// Middleware: one line per answer, and its count by route template and status.
pub async fn log_and_count(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> axum::response::Response {
    let route = route_of(&request).to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    let latency_ms = started.elapsed().as_millis() as u64;
    Span::current().record("status", status);
    match response.extensions().get::<Refusal>() {
        Some(Refusal(error)) => tracing::info!(status, latency_ms, %error, "refused"),
        None if is_asset(&route) => tracing::debug!(status, latency_ms, "answered"),
        None => tracing::info!(status, latency_ms, "answered"),
    }
    state.metrics().http_answered(&route, status);
    response
}
