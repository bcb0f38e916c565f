//! Pins on the web: what this feature brings ([`feature`]: the versions page's unpin form's
//! route, and the JSON API's unpin with its OpenAPI path) and how its refusals answer
//! ([`refusals`]). The pins themselves are shown by the versions page
//! (`views/pins.rs`) and told in the repository's JSON answer (`api/repositories.rs`); the
//! use cases are [`crate::app::pins`].

mod api;
mod page;
mod refusals;

use axum::routing::post;
use axum::Router;
use utoipa::OpenApi;

use super::feature::WebFeature;

/// The JSON API's paths of this feature, merged into `/api/v1/openapi.json`.
#[derive(OpenApi)]
#[openapi(paths(api::unpin))]
struct ApiPaths;

/// The pins' page and API routes.
pub(super) fn feature() -> WebFeature {
    WebFeature::new()
        .pages(Router::new().route(
            "/repos/{uuid}/environments/{env}/unpin",
            post(page::unpin),
        ))
        .api(
            Router::new().route(
                "/repositories/{uuid}/environments/{env}/unpin",
                post(api::unpin),
            ),
            ApiPaths::openapi(),
        )
}
