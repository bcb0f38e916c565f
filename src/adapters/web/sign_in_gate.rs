//! With `[identity] mode = "oidc"`, a page asked for by a browser that is not signed in (or
//! whose session ended) is not shown: the browser is sent to sign in, and comes back to
//! that page afterwards. The sign-in routes themselves, health, metrics and the assets are
//! open; writes are refused by their handlers as for any unidentified sender (401); the JSON
//! API keeps its bearer tokens.

use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, LOCATION};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::app::AppState;
use crate::ports::Unidentified;

use super::htmx::is_htmx;
use super::identity::Identified;

/// Paths shown to anyone: signing in, probes, metrics, the API's reference, the assets.
fn open(path: &str) -> bool {
    path.starts_with("/oidc/")
        || path.starts_with("/assets/")
        || matches!(path, "/healthz" | "/readyz" | "/metrics" | "/api/docs")
}

/// Middleware (after the identity middleware): to the provider when not signed in.
pub async fn require(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if state.signing_in().is_none()
        || !matches!(*request.method(), Method::GET | Method::HEAD)
        || open(request.uri().path())
    {
        return next.run(request).await;
    }
    let signed_out = matches!(
        request.extensions().get::<Identified>(),
        Some(Identified(Err(
            Unidentified::NotSignedIn | Unidentified::SessionEnded { .. }
        )))
    );
    if !signed_out {
        return next.run(request).await;
    }
    let asked = request
        .uri()
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    let encoded: String = url::form_urlencoded::byte_serialize(asked.as_bytes()).collect();
    let sign_in = format!("/oidc/sign-in?return={encoded}");
    if is_htmx(request.headers()) {
        // htmx follows HX-Redirect with a full page load (a fragment cannot sign in).
        return (
            StatusCode::UNAUTHORIZED,
            [("HX-Redirect", "/oidc/sign-in".to_owned())],
        )
            .into_response();
    }
    (
        StatusCode::SEE_OTHER,
        [(LOCATION, sign_in), (CACHE_CONTROL, "no-store".to_owned())],
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::open;

    #[test]
    fn only_signing_in_probes_metrics_and_assets_are_open() {
        for path in [
            "/oidc/callback",
            "/healthz",
            "/readyz",
            "/metrics",
            "/assets/app.css",
        ] {
            assert!(open(path), "{path}");
        }
        for path in ["/", "/releases", "/repos/x/versions", "/oidc", "/metricsx"] {
            assert!(!open(path), "{path}");
        }
    }
}
