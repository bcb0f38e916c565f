//! What a caller the console cannot identify reads when Pulp fails (502, 503, 504): words
//! without anything but the request's correlation id (not even the console's own words about
//! its stores). The request's log line keeps the whole error; an identified operator reads
//! the console's words (an upstream failure never carries Pulp's own text: see
//! `ports/upstream_error.rs`).
//! Pages and the API alike: a JSON error keeps its code, a page or fragment becomes a notice.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::app::AppState;

use crate::adapters::web::errors::WebError;
use crate::adapters::web::identity::context_of_request;
use crate::adapters::web::refusal_note::Refusal;

/// The most of a JSON error body read back to keep its code.
const JSON_BODY_LIMIT: usize = 64 * 1024;

/// Middleware: replaces the words of an upstream failure answered to an unidentified caller.
pub async fn hide_from_the_unidentified(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    // Signing in is always unidentified, and its 502 is the identity provider's failure, told
    // in the console's words (never Pulp's): it keeps them.
    if request.uri().path().starts_with("/oidc/") {
        return next.run(request).await;
    }
    let context = context_of_request(&request);
    let api = request.uri().path().starts_with("/api/");
    let response = next.run(request).await;
    let Some(words) = words_for(response.status()) else {
        return response;
    };
    let identity = if api {
        state.api_callers().cloned()
    } else {
        Some(state.identity.clone())
    };
    let identified = match identity {
        Some(identity) => identity.identify(&context).await.is_ok(),
        None => false,
    };
    if identified {
        return response;
    }
    let status = response.status();
    let words = with_correlation(words);
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if is_json {
        let (parts, body) = response.into_parts();
        let code = axum::body::to_bytes(body, JSON_BODY_LIMIT)
            .await
            .ok()
            .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
            .and_then(|v| v["error"]["code"].as_str().map(str::to_owned))
            .unwrap_or_else(|| "upstream_error".to_owned());
        let body = serde_json::json!({"error": {"code": code, "message": words}});
        let mut answer = Response::from_parts(parts, Body::from(body.to_string()));
        answer
            .headers_mut()
            .remove(axum::http::header::CONTENT_LENGTH);
        return answer;
    }
    // A page (or, for htmx, a fragment: the error travels as the response's WebError); the
    // log line keeps the original refusal.
    let original = response.extensions().get::<Refusal>().cloned();
    let mut answer = WebError::Rejected {
        status,
        message: words,
    }
    .into_response();
    if let Some(original) = original {
        answer.extensions_mut().insert(original);
    }
    answer
}

/// `words`, then the correlation id the log holds the details under.
fn with_correlation(words: &str) -> String {
    match crate::ports::correlation::current() {
        Some(id) => format!("{words} Correlation id: {id}."),
        None => words.to_owned(),
    }
}

/// The words of an upstream failure by its status; `None` for any other status.
fn words_for(status: StatusCode) -> Option<&'static str> {
    match status {
        StatusCode::SERVICE_UNAVAILABLE => Some(
            "Pulp is unreachable: the console cannot use it now. The console's log has the details; ask its operator.",
        ),
        StatusCode::GATEWAY_TIMEOUT => Some(
            "Pulp did not answer in time. The console's log has the details; ask its operator.",
        ),
        StatusCode::BAD_GATEWAY => Some(
            "Pulp answered something the console cannot use. The console's log has the details; ask its operator.",
        ),
        _ => None,
    }
}
