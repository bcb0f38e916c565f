//! Signing in with an OpenID Connect provider, as routes (thin: the use cases are
//! `app::sign_in`): `GET /oidc/sign-in?return=<path>` sends the browser to the provider;
//! `GET /oidc/callback` takes its answer; `POST /oidc/sign-out` ends the session, then
//! `GET /oidc/signing-out` sends the browser on to the provider's own sign-out when it has
//! one (a page that moves on by itself: the pages' `form-action 'self'` forbids a form's
//! redirect to another site); `GET /oidc/signed-out` says so. Without `[identity] mode =
//! "oidc"` each answers 404.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Query, State};
use axum::http::header::{CACHE_CONTROL, LOCATION, SET_COOKIE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{AppendHeaders, IntoResponse, Response};
use maud::html;

use crate::app::sign_in::finish::ProviderAnswer;
use crate::app::sign_in::SignIn;
use crate::app::sign_in::SIGN_IN_WAIT;
use crate::app::AppState;

use super::super::views::layout::{notice, page};
use super::super::WebError;

/// The query of `GET /oidc/sign-in`.
#[derive(Debug, serde::Deserialize)]
pub struct SignInQuery {
    #[serde(rename = "return")]
    pub return_to: Option<String>,
}

/// The query the provider sends the browser back with.
#[derive(Debug, serde::Deserialize)]
pub struct CallbackQuery {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

fn signing_in(state: &AppState) -> Result<&SignIn, WebError> {
    state
        .signing_in()
        .ok_or_else(|| WebError::NotFound("No such page.".into()))
}

/// The peer address of the request (the browser, or the proxy in front of the console),
/// for the audit lines. Never fails.
pub struct Peer(Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Peer(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|ConnectInfo(address)| address.ip()),
        ))
    }
}

/// The value of cookie `name` in the request.
fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

/// A 303 to `location`, never cached, setting `cookies`.
fn see_other(location: &str, cookies: Vec<String>) -> Response {
    let headers: Vec<_> = cookies.into_iter().map(|c| (SET_COOKIE, c)).collect();
    (
        StatusCode::SEE_OTHER,
        AppendHeaders(headers),
        [
            (LOCATION, location.to_owned()),
            (CACHE_CONTROL, "no-store".to_owned()),
        ],
    )
        .into_response()
}

/// `GET /oidc/sign-in`: to the provider, with a sign-in under way bound to this browser.
pub async fn begin(
    State(state): State<AppState>,
    Peer(peer): Peer,
    Query(query): Query<SignInQuery>,
) -> Result<Response, WebError> {
    let sign_in = signing_in(&state)?;
    let begun = sign_in
        .begin(query.return_to.as_deref(), peer)
        .await
        .map_err(|e| WebError::of(&e))?;
    let rules = sign_in.cookies;
    let cookie = rules.set_cookie(
        rules.sign_in_name(),
        &begun.cookie,
        SIGN_IN_WAIT.num_seconds(),
    );
    Ok(see_other(&begun.provider_url, vec![cookie]))
}

/// `GET /oidc/callback`: the provider's answer; signed in and back to the page asked for,
/// or refused with nothing signed in.
pub async fn callback(
    State(state): State<AppState>,
    Peer(peer): Peer,
    headers: HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> Result<Response, WebError> {
    let sign_in = signing_in(&state)?;
    let rules = sign_in.cookies;
    let under_way = cookie(&headers, rules.sign_in_name());
    let answer = ProviderAnswer {
        code: query.code,
        state: query.state,
        error: query.error.map(|error| match query.error_description {
            Some(description) => format!("{error}: {description}"),
            None => error,
        }),
    };
    let forget_sign_in = rules.set_cookie(rules.sign_in_name(), "", 0);
    match sign_in.finish(under_way.as_deref(), answer, peer).await {
        Ok(signed_in) => {
            let max_age = sign_in.lifetimes.max.num_seconds();
            let session = rules.set_cookie(rules.session_name(), &signed_in.cookie, max_age);
            Ok(see_other(
                signed_in.back_to.as_str(),
                vec![session, forget_sign_in],
            ))
        }
        Err(failed) => {
            tracing::warn!(reason = %failed, "a sign-in was refused");
            Ok((
                AppendHeaders([(SET_COOKIE, forget_sign_in)]),
                WebError::of(&failed),
            )
                .into_response())
        }
    }
}

/// `POST /oidc/sign-out` (the header's `#sign-out` form): the session ended here, then on to
/// the provider's own sign-out when it has one, else the signed-out page.
pub async fn sign_out(
    State(state): State<AppState>,
    Peer(peer): Peer,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let sign_in = signing_in(&state)?;
    let rules = sign_in.cookies;
    let session = cookie(&headers, rules.session_name());
    let at_provider = sign_in.sign_out(session.as_deref(), peer).await;
    let forget = rules.set_cookie(rules.session_name(), "", 0);
    let location = match at_provider {
        Some(_) => "/oidc/signing-out",
        None => "/oidc/signed-out",
    };
    Ok(see_other(location, vec![forget]))
}

/// `GET /oidc/signing-out`: signed out here; on to the provider's sign-out (at once, and by
/// a link for a browser that does not follow the page's refresh).
pub async fn signing_out(State(state): State<AppState>) -> Result<Response, WebError> {
    let sign_in = signing_in(&state)?;
    let Some(at_provider) = sign_in.provider.sign_out_url(&sign_in.after_sign_out) else {
        return Ok(see_other("/oidc/signed-out", Vec::new()));
    };
    let refresh = format!("0;url={at_provider}");
    Ok(page(
        "Signing out",
        html! {
            meta http-equiv="refresh" content=(refresh);
            h1 { "Signing out" }
            (notice("ok", Some("signing-out"), html! { "You are signed out of the console; now signing out at the identity provider." }))
            p { a id="provider-sign-out" href=(at_provider) { "Sign out at the identity provider" } }
        },
    )
    .into_response())
}

/// `GET /oidc/signed-out`: where a browser lands after signing out.
pub async fn signed_out(State(state): State<AppState>) -> Result<Response, WebError> {
    signing_in(&state)?;
    Ok(page(
        "Signed out",
        html! {
            h1 { "Signed out" }
            (notice("ok", Some("signed-out"), html! { "You are signed out of the console." }))
            p { a href="/oidc/sign-in" { "Sign in again" } }
        },
    )
    .into_response())
}
