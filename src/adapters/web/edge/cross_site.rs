//! Refuses cross-site requests that change something. An operator's browser carries an
//! ambient identity (the proxy's session, or an OIDC session cookie), so no other site's page
//! may drive it: an unsafe request whose `Origin` is not one of the
//! console's own sites (same scheme, host and port), or is unreadable, or that the browser
//! marks `Sec-Fetch-Site: cross-site`, gets a 403. A client that sends neither (curl,
//! scripts) is allowed.

use std::sync::Arc;

use axum::extract::Request;
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::adapters::web::edge::allowed_hosts::{AllowedHosts, Site};
use crate::adapters::web::edge::host_check::request_authority;
use crate::adapters::web::errors::WebError;

pub async fn refuse_cross_site(request: Request, next: Next) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if safe || same_site(&request) {
        return next.run(request).await;
    }
    tracing::warn!(origin = ?request.headers().get(header::ORIGIN), "cross-site request refused");
    WebError::Rejected {
        status: StatusCode::FORBIDDEN,
        message: "This request came from another site and was refused. Use the console's own \
                  pages."
            .into(),
    }
    .into_response()
}

/// The API's rule: a request carrying a bearer token sends no ambient credential (no
/// cookie, no proxy session is what vouches for it), so another site's page cannot forge
/// it; any other request is held to the pages' rule (its identity may come from the
/// proxy's session).
pub async fn refuse_cross_site_without_token(request: Request, next: Next) -> Response {
    let bearer = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("bearer "));
    if bearer {
        return next.run(request).await;
    }
    refuse_cross_site(request, next).await
}

fn same_site(request: &Request) -> bool {
    let headers = request.headers();
    if headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes() == b"cross-site")
    {
        return false;
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Some(origin) = origin.to_str().ok().and_then(Site::parse_origin) else {
        return false;
    };
    let served = request_authority(request)
        .ok()
        .flatten()
        .map(|authority| Site::served_at(&authority));
    served.as_ref() == Some(&origin)
        || request
            .extensions()
            .get::<Arc<AllowedHosts>>()
            .is_some_and(|allowed| allowed.admits_origin(&origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str, headers: &[(&str, &[u8])]) -> Request {
        let mut builder = Request::builder().method(Method::POST).uri(uri);
        for (k, v) in headers {
            builder = builder.header(*k, *v);
        }
        builder.body(axum::body::Body::empty()).unwrap()
    }

    fn post(headers: &[(&str, &[u8])]) -> Request {
        request("/repos/x/deploy", headers)
    }

    const HOST: (&str, &[u8]) = ("host", b"127.0.0.1:8080");

    #[test]
    fn same_origin_and_originless_requests_pass() {
        assert!(same_site(&post(&[
            HOST,
            ("origin", b"http://127.0.0.1:8080")
        ])));
        assert!(same_site(&post(&[HOST])));
        assert!(same_site(&post(&[
            ("host", b"c.example"),
            ("sec-fetch-site", b"same-origin")
        ])));
        assert!(same_site(&post(&[
            ("host", b"LOCALHOST"),
            ("origin", b"http://localhost:80")
        ])));
    }

    #[test]
    fn over_http2_the_host_is_the_uri_authority() {
        let h2 = request(
            "http://127.0.0.1:8080/repos/x/deploy",
            &[("origin", b"http://127.0.0.1:8080")],
        );
        assert!(same_site(&h2));
    }

    #[test]
    fn behind_a_proxy_the_public_origin_must_be_an_allowed_host() {
        let proxied = [
            HOST,
            ("x-forwarded-host", b"console.example"),
            ("origin", b"https://console.example"),
        ];
        assert!(
            !same_site(&post(&proxied)),
            "X-Forwarded-Host is not trusted"
        );
        let mut request = post(&proxied);
        let entry = Site::parse_entry("https://console.example").unwrap();
        let allowed = AllowedHosts::for_listener("127.0.0.1:8080".parse().unwrap(), &[entry]);
        request.extensions_mut().insert(Arc::new(allowed));
        assert!(same_site(&request));
    }

    #[test]
    fn other_origins_and_cross_site_fetches_are_refused() {
        for refused in [
            post(&[HOST, ("origin", b"http://evil.example")]),
            post(&[HOST, ("origin", b"null")]),
            post(&[HOST, ("sec-fetch-site", b"cross-site")]),
            post(&[HOST, ("origin", b"http://127.0.0.1:8081")]),
            post(&[HOST, ("origin", b"https://127.0.0.1:8080")]),
            post(&[HOST, ("origin", b"http://127.0.0.1:8080\xff")]),
            post(&[HOST, ("origin", b"http://127.0.0.1:8080/")]),
            post(&[("host", b"\xff"), ("origin", b"http://127.0.0.1:8080")]),
        ] {
            assert!(!same_site(&refused), "{:?}", refused.headers());
        }
    }
}
