//! The JSON API under `/api/v1`, for pipelines and scripts: the same use cases as the pages
//! (no rule is implemented twice), JSON in and out, errors as
//! `{"error": {"code", "message"}}` with the pages' statuses, and an OpenAPI 3.1 document
//! generated from these handlers (`/api/v1/openapi.json`). Writes need a caller: a bearer
//! token (`[[api.tokens]]`) or the trusted proxy's identity. No cookies: no CSRF surface, so
//! a bearer-token request is not subject to the pages' Origin rule.

/// Who calls (a feature's room, `web/<name>/`, writes its API handlers with it too).
pub(super) mod caller;
mod checks;
mod deployments;
mod edges;
/// The JSON error and body (a feature's room writes its API handlers with them too).
pub(super) mod error;
mod evidence;
mod exposure;
pub(super) mod outcome;
pub(super) mod releases;
mod repositories;
mod request_item;
mod requests;
pub(super) mod schedules;
mod sync;

use axum::routing::{get, post};
use axum::{Json, Router};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::app::AppState;

pub use error::ApiError;

#[derive(OpenApi)]
#[openapi(
    info(title = "repo-console API", description = "Versions of Pulp RPM repositories, deployed through environments under the console's policy."),
    paths(
        repositories::list, repositories::show, repositories::versions, repositories::changes,
        sync::start, deployments::create, deployments::show, evidence::show, evidence::keys, requests::list, requests::approve,
        releases::list, releases::show, releases::promotions,
        checks::report, checks::list, exposure::show, edges::list, edges::replicate, openapi
    ),
    modifiers(&BearerScheme),
    tags(
        (name = "repositories"), (name = "deployments"), (name = "requests"),
        (name = "releases"), (name = "schedules"), (name = "checks"), (name = "exposure"),
        (name = "edges")
    )
)]
pub struct ApiDoc;

struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// This document.
#[utoipa::path(get, path = "/api/v1/openapi.json", operation_id = "getOpenApiDocument", tag = "repositories",
    responses((status = 200, description = "The OpenAPI 3.1 document of this API", body = Object)))]
async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(super::api_document())
}

/// The API's routes, to nest under `/api/v1`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/repositories", get(repositories::list))
        .route("/repositories/{uuid}", get(repositories::show))
        .route("/repositories/{uuid}/versions", get(repositories::versions))
        .route("/repositories/{uuid}/changes", get(repositories::changes))
        .route("/repositories/{uuid}/sync", post(sync::start))
        .route(
            "/repositories/{uuid}/deployments",
            post(deployments::create),
        )
        .route("/deployments/{deploy_id}", get(deployments::show))
        .route("/deployments/{deploy_id}/evidence", get(evidence::show))
        .route("/evidence/keys", get(evidence::keys))
        .route("/releases", get(releases::list))
        .route("/releases/{name}", get(releases::show))
        .route("/releases/{name}/promotions", post(releases::promotions))
        .route("/checks", get(checks::list).post(checks::report))
        .route("/exposure", get(exposure::show))
        .route("/requests", get(requests::list))
        .route("/requests/{id}/approve", post(requests::approve))
        .route("/edges", get(edges::list))
        .route("/edges/{name}/replicate", post(edges::replicate))
        .route("/openapi.json", get(openapi))
        .fallback(|| async { ApiError::not_found("No such API route: see /api/v1/openapi.json.") })
}
