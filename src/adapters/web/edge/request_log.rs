//! One span per request (method, route, status, latency), logged when the response leaves;
//! and one count per answer by route and status (`repo_console_http_requests_total`).

use std::time::Duration;

use axum::extract::{MatchedPath, Request, State};
use axum::http::Response;
use axum::middleware::Next;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{MakeSpan, OnResponse, TraceLayer};
use tracing::{field, Span};

use crate::app::AppState;

#[derive(Clone)]
pub struct RequestSpan;

impl<B> MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, request: &Request<B>) -> Span {
        let route = route_of(request);
        tracing::info_span!("http_request", method = %request.method(), route, status = field::Empty)
    }
}

#[derive(Clone)]
pub struct LogResponse;

impl<B> OnResponse<B> for LogResponse {
    fn on_response(self, response: &Response<B>, latency: Duration, span: &Span) {
        span.record("status", response.status().as_u16());
        tracing::info!(
            status = response.status().as_u16(),
            latency_ms = latency.as_millis() as u64,
            "answered"
        );
    }
}

pub fn layer() -> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, RequestSpan, (), LogResponse>
{
    TraceLayer::new_for_http()
        .make_span_with(RequestSpan)
        .on_request(())
        .on_response(LogResponse)
}

/// The route template (e.g. /repos/{uuid}/versions), never raw path text.
fn route_of<B>(request: &Request<B>) -> &str {
    request
        .extensions()
        .get::<MatchedPath>()
        .map_or("(none)", MatchedPath::as_str)
}

/// Middleware: counts each answer by route template and status, in the state's metrics.
pub async fn count(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> axum::response::Response {
    let route = route_of(&request).to_owned();
    let response = next.run(request).await;
    state
        .metrics()
        .http_answered(&route, response.status().as_u16());
    response
}
