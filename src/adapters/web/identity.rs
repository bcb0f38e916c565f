//! Who sends each request: the identity context (peer address and headers) is built from
//! the request once, the `OperatorIdentity` port decides, and the answer travels as a
//! request extension ([`Identified`]) to the handlers that change something, and as the
//! page frame's header-bar name.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::app::AppState;
use crate::domain::identity::Operator;
use crate::ports::{IdentityContext, Unidentified};

use super::sender::{not_identified, with_sender, with_signing_in};

/// The sender of the request, or why it is not known. The server sets the peer address as
/// axum's `ConnectInfo<SocketAddr>` extension; without it the peer is unknown.
#[derive(Debug, Clone)]
pub struct Identified(pub Result<Operator, Unidentified>);

/// Middleware: identifies the sender and runs the rest of the request knowing it.
pub async fn resolve(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let context = context_of(&request);
    let who = state.identity.identify(&context).await;
    if let Err(why) = &who {
        tracing::debug!(%why, "request sender not identified");
    }
    request.extensions_mut().insert(Identified(who.clone()));
    let signing_in = state.signing_in().is_some();
    with_signing_in(signing_in, with_sender(who, next.run(request))).await
}

/// The identity context of a whole request (for middleware).
pub fn context_of_request(request: &Request) -> IdentityContext {
    context_of(request)
}

fn context_of(request: &Request) -> IdentityContext {
    identity_context(request.extensions(), request.headers())
}

/// The identity context of a request's parts (for extractors).
pub fn context_of_parts(parts: &axum::http::request::Parts) -> IdentityContext {
    identity_context(&parts.extensions, &parts.headers)
}

fn identity_context(
    extensions: &axum::http::Extensions,
    headers: &axum::http::HeaderMap,
) -> IdentityContext {
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(address)| address.ip());
    // Every value as sent: the identity adapters decode it, and refuse what is not UTF-8
    // rather than never see it.
    let headers = headers
        .iter()
        .map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec()))
        .collect();
    IdentityContext { peer, headers }
}

/// What an operator reads when a change is refused for want of an identity.
pub fn refusal_text(action: &str, why: &Unidentified) -> String {
    format!("{action} refused: {}", not_identified(why))
}
