//! The web adapter: axum routes, thin handlers, maud views, embedded assets, and the HTTP
//! edge that serves them (timeouts, host and body checks, graceful shutdown).

mod accept;
mod answer;
mod api;
pub mod assets;
mod demo;
mod download;
mod edge;
mod errors;
mod exposure_params;
mod extract;
mod feature;
mod handlers;
mod htmx;
mod identity;
mod nav;
mod paging;
mod refusal_note;
mod sender;
mod sign_in_gate;
mod status;
#[cfg(test)]
mod status_tests;
pub mod views;

use axum::routing::get;
use axum::Router;

use crate::app::AppState;

pub use api::ApiDoc;
pub use edge::allowed_hosts::Site;
pub use edge::security::CSP;
pub use edge::server::{serve, serve_with, shutdown_signal};
pub use edge::EdgeSettings;
pub use errors::WebError;

/// The features whose web room declares its own routes, refusals and API document (see
/// [`feature`]): one name a feature, its room `web/<name>/`, whose `feature()` says what it
/// brings. Adding a feature to the web is adding its name here.
macro_rules! features {
    ($($room:ident),* $(,)?) => {
        $(mod $room;)*

        /// What every feature listed in `features!` brings.
        fn features() -> Vec<feature::WebFeature> {
            vec![$($room::feature()),*]
        }
    };
}

features![schedules, insights, pins];

/// The JSON API's OpenAPI document: the API's own paths, then each feature's.
pub fn api_document() -> utoipa::openapi::OpenApi {
    use utoipa::OpenApi;
    feature::document(ApiDoc::openapi(), features())
}

/// The console's routes, ready to serve (tests call this without a network too). Without
/// the edge of [`serve`]: no host check, and no body limit or timeout (the edge reads every
/// body, within 16 KiB and the body timeout, before any route sees it).
pub fn router(state: AppState) -> Router {
    outer_layers(routes(state.clone()), state)
}

fn routes(state: AppState) -> Router {
    let features = feature::assemble(features());
    pages(state.clone(), features.pages).merge(
        Router::new()
            .nest("/api/v1", api::router().merge(features.api))
            .layer(axum::middleware::from_fn_with_state(
                state.clone(),
                edge::write_limit::limit_api_writes,
            ))
            .with_state(state)
            .layer(axum::middleware::from_fn(
                edge::cross_site::refuse_cross_site_without_token,
            )),
    )
}

fn pages(state: AppState, features: Router<AppState>) -> Router {
    Router::new()
        .route("/", get(handlers::dashboard::show))
        .route("/repos/{uuid}/versions", get(handlers::versions::show))
        .route("/repos/{uuid}/history", get(handlers::history::show))
        .route(
            "/repos/{uuid}/versions/{n}/changes",
            get(handlers::changes::show),
        )
        .route(
            "/repos/{uuid}/versions/{n}/changes.json",
            get(handlers::changes_download::json),
        )
        .route(
            "/repos/{uuid}/versions/{n}/changes.csv",
            get(handlers::changes_download::csv),
        )
        .route(
            "/repos/{uuid}/deploy/confirm",
            get(handlers::deploy::confirm),
        )
        .route(
            "/repos/{uuid}/deploy",
            axum::routing::post(handlers::deploy::submit),
        )
        .route(
            "/repos/{uuid}/deploys/under-way",
            get(handlers::deploy::under_way),
        )
        .route(
            "/deploys/under-way",
            get(handlers::deploy::under_way_of_several),
        )
        .route(
            "/repos/{uuid}/sync",
            get(handlers::sync::cell).post(handlers::sync::start),
        )
        .route("/releases", get(handlers::releases::list))
        .route("/releases/{name}", get(handlers::releases::show))
        .route(
            "/releases/{name}/promote/confirm",
            get(handlers::releases::confirm),
        )
        .route(
            "/releases/{name}/promote",
            axum::routing::post(handlers::releases::submit),
        )
        .route("/exposure", get(handlers::exposure::show))
        .route("/exposure.csv", get(handlers::exposure::csv))
        .route("/requests", get(handlers::requests::list))
        .route("/requests/{id}", get(handlers::requests::show))
        .route(
            "/requests/{id}/approve",
            axum::routing::post(handlers::requests::approve),
        )
        .route(
            "/requests/{id}/reject",
            axum::routing::post(handlers::requests::reject),
        )
        .route(
            "/requests/{id}/cancel",
            axum::routing::post(handlers::requests::cancel),
        )
        .route("/oidc/sign-in", get(handlers::sign_in::begin))
        .route("/oidc/callback", get(handlers::sign_in::callback))
        .route("/edges", get(handlers::edges::list))
        .route("/edges/line", get(handlers::edges::line))
        .route(
            "/edges/{name}/replicate",
            axum::routing::post(handlers::edges::replicate),
        )
        .route(
            "/oidc/sign-out",
            axum::routing::post(handlers::sign_in::sign_out),
        )
        .route("/oidc/signing-out", get(handlers::sign_in::signing_out))
        .route("/oidc/signed-out", get(handlers::sign_in::signed_out))
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(handlers::health::metrics))
        .route("/api/docs", get(handlers::api_docs::show))
        .route("/readyz", get(handlers::health::ready))
        .route(assets::HTMX_PATH, get(assets::htmx))
        .route(assets::CSS_PATH, get(assets::css))
        .route(assets::JS_PATH, get(assets::js))
        .merge(features)
        .fallback(|| async { WebError::NotFound("No such page.".into()) })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            nav::mark,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            edge::write_limit::limit_page_writes,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            sign_in_gate::require,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            identity::resolve,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            edge::repo_names::redirect_names,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            demo::mark,
        ))
        .with_state(state)
        .layer(axum::middleware::from_fn(
            edge::cross_site::refuse_cross_site,
        ))
}

/// What every answer gets, refusals of the edge included: fragments for htmx, the security
/// headers, the request log, a correlation id.
fn outer_layers(app: Router, state: AppState) -> Router {
    let [csp, nosniff, referrer, frames] = edge::security::headers();
    app.layer(axum::middleware::from_fn_with_state(
        state.clone(),
        edge::question_limit::limit_anonymous_questions,
    ))
    .layer(axum::middleware::from_fn_with_state(
        state.clone(),
        edge::upstream_words::hide_from_the_unidentified,
    ))
    .layer(axum::middleware::from_fn(views::error_page::htmx_fragments))
    .layer(csp)
    .layer(nosniff)
    .layer(referrer)
    .layer(frames)
    .layer(axum::middleware::from_fn_with_state(
        state,
        edge::request_log::log_and_count,
    ))
    .layer(axum::middleware::from_fn(edge::correlation::assign))
    .layer(edge::request_log::layer())
}
