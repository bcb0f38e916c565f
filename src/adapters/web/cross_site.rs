//! Refuses cross-site requests that change something. The console has no operator login,
//! so no other site's page may drive it: an unsafe request whose `Origin` names another
//! host, or that the browser marks `Sec-Fetch-Site: cross-site`, gets a 403. A client
//! that sends neither (curl, scripts) is allowed.

use axum::extract::Request;
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use maud::html;

use super::views::layout::{notice, page};

pub async fn refuse_cross_site(request: Request, next: Next) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if safe || same_site(&request) {
        return next.run(request).await;
    }
    tracing::warn!(origin = ?request.headers().get(header::ORIGIN), "cross-site request refused");
    let body = page(
        "Forbidden",
        html! {
            h1 { "403 Forbidden" }
            (notice("error", Some("page-error"), html! {
                "This request came from another site and was refused. Use the console's own pages."
            }))
        },
    );
    (StatusCode::FORBIDDEN, body).into_response()
}

fn same_site(request: &Request) -> bool {
    let headers = request.headers();
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &axum::http::HeaderValue| v.to_str().ok())
    };
    if text("sec-fetch-site") == Some("cross-site") {
        return false;
    }
    let Some(origin) = text(header::ORIGIN.as_str()) else {
        return true;
    };
    let Some(origin) = origin_host(origin) else {
        return false;
    };
    // Behind a reverse proxy the browser's host arrives as X-Forwarded-Host.
    [text(header::HOST.as_str()), text("x-forwarded-host")]
        .into_iter()
        .flatten()
        .any(|host| host.eq_ignore_ascii_case(origin))
}

/// `http://host:port` → `host:port`; `null` and anything unparsable → `None`.
fn origin_host(origin: &str) -> Option<&str> {
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))?;
    Some(rest.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: Method, headers: &[(&str, &str)]) -> Request {
        let mut builder = Request::builder().method(method).uri("/repos/x/deploy");
        for (k, v) in headers {
            builder = builder.header(*k, *v);
        }
        builder.body(axum::body::Body::empty()).unwrap()
    }

    #[test]
    fn same_origin_and_originless_requests_pass() {
        assert!(same_site(&request(
            Method::POST,
            &[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:8080")
            ]
        )));
        assert!(same_site(&request(
            Method::POST,
            &[("host", "127.0.0.1:8080")]
        )));
        assert!(same_site(&request(
            Method::POST,
            &[("host", "c.example"), ("sec-fetch-site", "same-origin")]
        )));
        let proxied = [
            ("host", "127.0.0.1:8080"),
            ("x-forwarded-host", "console.example"),
            ("origin", "https://console.example"),
        ];
        assert!(same_site(&request(Method::POST, &proxied)));
    }

    #[test]
    fn other_origins_and_cross_site_fetches_are_refused() {
        assert!(!same_site(&request(
            Method::POST,
            &[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://evil.example")
            ]
        )));
        assert!(!same_site(&request(
            Method::POST,
            &[("host", "127.0.0.1:8080"), ("origin", "null")]
        )));
        assert!(!same_site(&request(
            Method::POST,
            &[("host", "127.0.0.1:8080"), ("sec-fetch-site", "cross-site")]
        )));
        assert!(!same_site(&request(
            Method::POST,
            &[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:8081")
            ]
        )));
    }
}
