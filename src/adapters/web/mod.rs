//! The web adapter: axum routes, thin handlers, maud views, embedded assets.

pub mod assets;
mod cross_site;
mod errors;
mod extract;
mod handlers;
mod identity;
mod request_log;
mod security;
mod server;
mod status;
pub mod views;

use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use axum::Router;

use crate::app::AppState;

pub use errors::WebError;
pub use security::CSP;
pub use server::{serve, shutdown_signal};

/// Request bodies larger than this are refused (413): a deploy form is a few bytes.
const BODY_LIMIT: usize = 16 * 1024;

/// The console's routes, ready to serve (tests call this without a network too).
pub fn router(state: AppState) -> Router {
    let [csp, nosniff, referrer, frames] = security::headers();
    Router::new()
        .route("/", get(handlers::dashboard::show))
        .route("/repos/{uuid}/versions", get(handlers::versions::show))
        .route(
            "/repos/{uuid}/deploy/confirm",
            get(handlers::deploy::confirm),
        )
        .route(
            "/repos/{uuid}/deploy",
            axum::routing::post(handlers::deploy::submit),
        )
        .route(
            "/repos/{uuid}/sync",
            get(handlers::sync::cell).post(handlers::sync::start),
        )
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(handlers::health::metrics))
        .route("/readyz", get(handlers::health::ready))
        .route(assets::HTMX_PATH, get(assets::htmx))
        .route(assets::CSS_PATH, get(assets::css))
        .route(assets::JS_PATH, get(assets::js))
        .fallback(|| async { WebError::NotFound("No such page.".into()) })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            identity::resolve,
        ))
        .with_state(state)
        .layer(axum::middleware::from_fn(cross_site::refuse_cross_site))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(csp)
        .layer(nosniff)
        .layer(referrer)
        .layer(frames)
        .layer(axum::middleware::from_fn(request_log::count))
        .layer(request_log::layer())
}
