//! Every request gets a correlation id: a fresh UUID, the `correlation_id` of the request's
//! span (so every log line written while answering it carries it), the task-local
//! correlation id of the work (`ports/correlation.rs`: sent to Pulp as `Correlation-ID`;
//! a deploy inside the request runs under its own deploy id), and the `X-Correlation-Id`
//! header of the answer. An upstream failure shown on a page or in an API answer names it,
//! so that an operator finds the details in the log (see the troubleshooting page).

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

use crate::ports::correlation;

/// The answer's header naming the request's correlation id.
pub const HEADER: &str = "x-correlation-id";

/// Middleware: answers `request` under a fresh correlation id.
pub async fn assign(request: Request, next: Next) -> Response {
    let id = uuid::Uuid::new_v4().to_string();
    tracing::Span::current().record("correlation_id", id.as_str());
    let mut response = correlation::scope(id.clone(), next.run(request)).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(HEADER, value);
    }
    response
}
