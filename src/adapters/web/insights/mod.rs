//! Delivery insights on the web: the `/insights` page (filters, SVG charts drawn here with
//! their numbers as tables), the section on each versions page, and
//! `GET /api/v1/insights` (JSON, or CSV with `format=csv` or `Accept: text/csv`). The
//! figures are [`crate::app::insights`]'s.

mod api;
mod charts;
mod page;
mod refusals;
pub(super) mod section;

use axum::routing::get;
use axum::Router;
use utoipa::OpenApi;

use super::feature::WebFeature;

/// The JSON API's paths of this feature, merged into `/api/v1/openapi.json`.
#[derive(OpenApi)]
#[openapi(paths(api::insights), tags((name = "insights")))]
struct ApiPaths;

/// The insights page and API route.
pub(super) fn feature() -> WebFeature {
    WebFeature::new()
        .pages(
            Router::new()
                .route("/insights", get(page::insights))
                .route("/insights/section", get(section::section)),
        )
        .api(
            Router::new().route("/insights", get(api::insights)),
            ApiPaths::openapi(),
        )
}
