//! Static assets compiled into the binary (no CDN: the console works offline).

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

/// htmx 2.0.11 from the npm package htmx.org (dist/htmx.min.js), unmodified.
const HTMX: &str = include_str!("assets/htmx-2.0.11.min.js");
const CSS: &str = include_str!("assets/console.css");
const JS: &str = include_str!("assets/console.js");

/// Paths carry a version so that browsers may cache them for a long time.
pub const HTMX_PATH: &str = "/assets/htmx-2.0.11.min.js";
pub const CSS_PATH: &str = concat!("/assets/console-", env!("CARGO_PKG_VERSION"), ".css");
pub const JS_PATH: &str = concat!("/assets/console-", env!("CARGO_PKG_VERSION"), ".js");

fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=86400"),
            ),
        ],
        body,
    )
        .into_response()
}

pub async fn htmx() -> Response {
    asset(HTMX, "text/javascript; charset=utf-8")
}

pub async fn css() -> Response {
    asset(CSS, "text/css; charset=utf-8")
}

pub async fn js() -> Response {
    asset(JS, "text/javascript; charset=utf-8")
}
