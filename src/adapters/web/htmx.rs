//! Whether a request came from htmx (`HX-Request: true`): htmx requests get fragments, others
//! whole pages.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

/// Whether the request came from htmx (`HX-Request: true`). Never fails.
pub struct HxRequest(pub bool);

impl<S: Send + Sync> FromRequestParts<S> for HxRequest {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(HxRequest(is_htmx(&parts.headers)))
    }
}

/// Whether `HX-Request: true` is among the headers.
pub fn is_htmx(headers: &axum::http::HeaderMap) -> bool {
    headers.get("hx-request").is_some_and(|v| v == "true")
}
