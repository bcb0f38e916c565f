//! Scheduled deploys on the web: what this feature brings ([`feature`]: the schedules page,
//! its cancel button's route, and the JSON API's list and cancel with their OpenAPI paths)
//! and how its refusals answer ([`refusals`]). The handlers themselves are the pages' and the
//! API's (`handlers/schedules.rs`, `api/schedules.rs`); the use cases are
//! [`crate::app::schedules`].

mod refusals;

use axum::routing::{get, post};
use axum::Router;
use utoipa::OpenApi;

use super::api::schedules as api;
use super::feature::WebFeature;
use super::handlers::schedules as pages;

/// The JSON API's paths of this feature, merged into `/api/v1/openapi.json`.
#[derive(OpenApi)]
#[openapi(paths(api::list, api::cancel))]
struct ApiPaths;

/// The schedules' pages and API routes.
pub(super) fn feature() -> WebFeature {
    WebFeature::new()
        .pages(
            Router::new()
                .route("/schedules", get(pages::list))
                .route("/schedules/{id}/cancel", post(pages::cancel)),
        )
        .api(
            Router::new()
                .route("/schedules", get(api::list))
                .route("/schedules/{id}/cancel", post(api::cancel)),
            ApiPaths::openapi(),
        )
}
