//! The limit on each caller's writes, applied before a write is handled: beyond it, **429
//! Too Many Requests** with `Retry-After` (whole seconds) and nothing recorded; a page gets a
//! readable message (or an htmx fragment), the API its JSON error `too_many_writes`. Reads
//! (GET, HEAD) are never limited; a write whose sender is not identified is left to the
//! handler, which refuses it (401).

use axum::extract::{Request, State};
use axum::http::header::RETRY_AFTER;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::app::write_limit::TooManyWrites;
use crate::app::AppState;
use crate::domain::identity::Operator;
use crate::domain::policy::write_rate::RetryAfter;

use crate::adapters::web::api::ApiError;
use crate::adapters::web::errors::WebError;
use crate::adapters::web::identity::{context_of_request, Identified};

/// Middleware of the pages (inside the identity middleware, which names the sender).
pub async fn limit_page_writes(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let sender = request
        .extensions()
        .get::<Identified>()
        .and_then(|Identified(who)| who.as_ref().ok().cloned());
    let sender = sender.filter(|_| is_write(&request));
    match admitted_caller(&state, sender).await {
        Ok(()) => next.run(request).await,
        Err(wait) => with_retry_after(WebError::of(&wait).into_response(), wait.retry_after),
    }
}

/// Middleware of the JSON API: its caller is a bearer token or the trusted proxy's operator.
pub async fn limit_api_writes(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let Some(callers) = state.api_callers().filter(|_| is_write(&request)) else {
        return next.run(request).await;
    };
    let context = context_of_request(&request);
    let caller = callers.identify(&context).await.ok();
    match admitted_caller(&state, caller).await {
        Ok(()) => next.run(request).await,
        Err(wait) => with_retry_after(ApiError::of(&wait).into_response(), wait.retry_after),
    }
}

async fn admitted_caller(state: &AppState, caller: Option<Operator>) -> Result<(), TooManyWrites> {
    match (state.write_limit(), caller) {
        (Some(limit), Some(caller)) => limit.admit(&caller).await,
        _ => Ok(()),
    }
}

fn is_write(request: &Request) -> bool {
    !request.method().is_safe()
}

fn with_retry_after(mut response: Response, wait: RetryAfter) -> Response {
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from(wait.seconds()));
    response
}
