//! One span per request (method, route, status, latency), logged when the response leaves.

use std::time::Duration;

use axum::extract::{MatchedPath, Request};
use axum::http::Response;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{MakeSpan, OnResponse, TraceLayer};
use tracing::{field, Span};

#[derive(Clone)]
pub struct RequestSpan;

impl<B> MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, request: &Request<B>) -> Span {
        // The route template (e.g. /repos/{uuid}/versions), never raw path text.
        let route = request
            .extensions()
            .get::<MatchedPath>()
            .map_or("(none)", MatchedPath::as_str);
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
