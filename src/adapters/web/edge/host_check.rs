//! Refuses, before any handler runs, a request addressed to a host that is not the console's
//! (the DNS-rebinding defence): 421 Misdirected Request. Every method, GETs included.
//!
//! `X-Forwarded-Host` is not consulted: behind a reverse proxy the operator lists the public
//! address in `server.allowed_hosts`, so no header a client sends can widen the list.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::adapters::web::edge::allowed_hosts::{AllowedHosts, Authority};
use crate::adapters::web::errors::WebError;

/// The host a request names: the URI's authority (HTTP/2's `:authority`, or an absolute
/// request target), else the `Host` header. `Err` when the one used is present but unreadable.
pub fn request_authority(request: &Request) -> Result<Option<Authority>, ()> {
    uri_authority(request)
        .or_else(|| host_header(request))
        .transpose()
}

/// The URI's authority, parsed; `None` when the URI has none.
fn uri_authority(request: &Request) -> Option<Result<Authority, ()>> {
    let authority = request.uri().authority()?;
    Some(Authority::parse(authority.as_str()).ok_or(()))
}

/// The `Host` header, parsed; `None` when the request has none.
fn host_header(request: &Request) -> Option<Result<Authority, ()>> {
    let value = request.headers().get(header::HOST)?;
    Some(value.to_str().ok().and_then(Authority::parse).ok_or(()))
}

/// The middleware; admitted requests carry the allowed hosts along (the cross-site check
/// accepts their origins).
pub async fn refuse_other_hosts(
    State(allowed): State<Arc<AllowedHosts>>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Err(refusal) = check(&allowed, &request) {
        tracing::warn!(host = ?request.headers().get(header::HOST), "request for another host refused");
        return refusal.into_response();
    }
    request.extensions_mut().insert(allowed);
    next.run(request).await
}

fn check(allowed: &AllowedHosts, request: &Request) -> Result<(), WebError> {
    let named: Vec<_> = [uri_authority(request), host_header(request)]
        .into_iter()
        .flatten()
        .collect::<Result<_, ()>>()
        .map_err(|()| WebError::BadRequest("The request's host name is unreadable.".into()))?;
    if named.is_empty() {
        return Err(WebError::BadRequest(
            "The request names no host (Host header).".into(),
        ));
    }
    match named
        .iter()
        .find(|authority| !allowed.admits_host(authority))
    {
        None => Ok(()),
        Some(other) => Err(WebError::Rejected {
            status: StatusCode::MISDIRECTED_REQUEST,
            message: format!(
                "This console does not answer to the host '{}'. If that is its address, an \
                 operator adds it to server.allowed_hosts.",
                other.shown()
            ),
        }),
    }
}
