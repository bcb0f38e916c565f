//! The limit on anonymous exposure questions ([`crate::app::exposure::limit`]), applied
//! before the question is read: `/exposure`, `/exposure.csv` and `/api/v1/exposure` with a
//! query, from a caller the console cannot identify (the pages: its identity scheme; the
//! API: a bearer token), counted by the connection's peer address. Beyond it, **429 Too Many
//! Requests** with `Retry-After` (whole seconds) and nothing asked of Pulp; a page gets a
//! readable message, the API its JSON error `too_many_questions`. Behind a reverse proxy the
//! peer is the proxy: its clients share one count (see the configuration reference).

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::RETRY_AFTER;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::app::AppState;

use crate::adapters::web::api::ApiError;
use crate::adapters::web::errors::WebError;
use crate::adapters::web::identity::context_of_request;

/// The routes that ask exposure questions.
const QUESTION_PATHS: [&str; 3] = ["/exposure", "/exposure.csv", "/api/v1/exposure"];

/// Middleware: counts an anonymous exposure question against its address's limit.
pub async fn limit_anonymous_questions(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let (Some(limit), Some(peer)) = (state.question_limit(), peer_of(&request)) else {
        return next.run(request).await;
    };
    let path = request.uri().path();
    let asks =
        QUESTION_PATHS.contains(&path) && request.uri().query().is_some_and(|q| !q.is_empty());
    if !asks {
        return next.run(request).await;
    }
    let api = path.starts_with("/api/");
    let identity = if api {
        state.api_callers().cloned()
    } else {
        Some(state.identity.clone())
    };
    let context = context_of_request(&request);
    let identified = match identity {
        Some(identity) => identity.identify(&context).await.is_ok(),
        None => false,
    };
    if identified {
        return next.run(request).await;
    }
    match limit.admit(peer.ip()).await {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let mut response = if api {
                ApiError::too_many_questions(&wait).into_response()
            } else {
                WebError::of(&wait).into_response()
            };
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(wait.retry_after.seconds()));
            response
        }
    }
}

fn peer_of(request: &Request) -> Option<SocketAddr> {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(peer)| *peer)
}
