//! The seam a feature plugs into the web. A feature's room `web/<name>/` declares, in its own
//! files, what it brings ([`WebFeature`]: its pages, its JSON API routes and their OpenAPI
//! paths) and how each of its refusals answers ([`FeatureRefusal`]: the HTTP status and the
//! JSON code, each by a match naming every variant, so a new variant does not compile until it
//! has both). The web assembles every feature in one list, `features!` in `web/mod.rs`: adding a
//! feature is adding its name there, not editing the status table (`status.rs`), the error
//! mapping (`api/error.rs`) or the route lists.
//!
//! A feature's part of the application state is declared the same way, in its room of `app`
//! (see [`crate::app::parts`]).

use axum::http::StatusCode;
use axum::Router;
use utoipa::openapi::OpenApi;

use crate::app::AppState;

use super::status::HttpStatus;

/// What one feature brings to the web.
pub struct WebFeature {
    /// Its pages, served with the console's other pages (their identity, navigation, write
    /// limit and same-site rule).
    pub(super) pages: Router<AppState>,
    /// Its JSON API routes, relative to `/api/v1` (their bearer callers, write limit and
    /// error shape).
    pub(super) api: Router<AppState>,
    /// The OpenAPI paths of its API routes, merged into `/api/v1/openapi.json`.
    pub(super) api_doc: OpenApi,
}

impl WebFeature {
    /// A feature that brings nothing yet.
    pub fn new() -> Self {
        Self {
            pages: Router::new(),
            api: Router::new(),
            api_doc: OpenApi::default(),
        }
    }

    /// Its pages (paths from the site's root).
    pub fn pages(mut self, routes: Router<AppState>) -> Self {
        self.pages = self.pages.merge(routes);
        self
    }

    /// Its JSON API routes (paths relative to `/api/v1`), and their OpenAPI document (a
    /// `#[derive(utoipa::OpenApi)]` naming the handlers' `#[utoipa::path]`s).
    pub fn api(mut self, routes: Router<AppState>, doc: OpenApi) -> Self {
        self.api = self.api.merge(routes);
        self.api_doc.merge(doc);
        self
    }
}

impl Default for WebFeature {
    fn default() -> Self {
        Self::new()
    }
}

/// A refusal of a feature, declared in the feature's own web room: its HTTP status and the
/// stable word scripts read in the JSON API's `{"error": {"code"}}`. Both renderers take it
/// with `?` (it converts into the pages' `WebError` and the API's `ApiError`), and its
/// message is its `Display`, in words that say what happened and what to do.
pub trait FeatureRefusal: std::fmt::Display {
    /// The answer's status (a match naming every variant).
    fn status(&self) -> StatusCode;
    /// The JSON API's code (a match naming every variant): a word of the feature's own, or
    /// `None` for the general word of its status (`not_found`, `conflict`, `unavailable`...).
    fn code(&self) -> Option<&'static str>;
}

/// A feature's refusal has its status where every other error has: the pages, the API and
/// the edge read [`HttpStatus`] alone.
impl<R: FeatureRefusal> HttpStatus for R {
    fn status(&self) -> StatusCode {
        FeatureRefusal::status(self)
    }
}

/// The features' pages and API routes, merged (an empty list gives empty routers).
pub(super) struct Assembled {
    pub(super) pages: Router<AppState>,
    pub(super) api: Router<AppState>,
}

/// Merges `features` (their routes; their documents are merged by [`document`]).
pub(super) fn assemble(features: Vec<WebFeature>) -> Assembled {
    features.into_iter().fold(
        Assembled {
            pages: Router::new(),
            api: Router::new(),
        },
        |all, feature| Assembled {
            pages: all.pages.merge(feature.pages),
            api: all.api.merge(feature.api),
        },
    )
}

/// `base` with every feature's OpenAPI paths after its own.
pub(super) fn document(mut base: OpenApi, features: Vec<WebFeature>) -> OpenApi {
    for feature in features {
        base.merge(feature.api_doc);
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::web::api::ApiError;
    use crate::adapters::web::errors::WebError;

    /// A feature's refusal, as a feature's room declares one.
    #[derive(Debug)]
    enum Held {
        Locked,
        Gone,
    }

    impl std::fmt::Display for Held {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("held: clear it first")
        }
    }

    impl FeatureRefusal for Held {
        fn status(&self) -> StatusCode {
            match self {
                Self::Locked => StatusCode::LOCKED,
                Self::Gone => StatusCode::GONE,
            }
        }

        fn code(&self) -> Option<&'static str> {
            match self {
                Self::Locked => Some("held"),
                Self::Gone => None,
            }
        }
    }

    #[test]
    fn a_features_refusal_answers_its_status_and_code_in_both_renderers() {
        let api = ApiError::from(Held::Locked);
        assert_eq!((api.status, api.code), (StatusCode::LOCKED, "held"));
        assert_eq!(api.message, "held: clear it first");
        let general = ApiError::from(Held::Gone);
        assert_eq!((general.status, general.code), (StatusCode::GONE, "gone"));
        assert_eq!(WebError::from(Held::Locked).status(), StatusCode::LOCKED);
    }

    #[test]
    fn every_features_paths_join_the_apis_document() {
        let base = utoipa::openapi::OpenApiBuilder::new()
            .paths(utoipa::openapi::Paths::builder().path("/a", Default::default()))
            .build();
        let doc = utoipa::openapi::OpenApiBuilder::new()
            .paths(utoipa::openapi::Paths::builder().path("/b", Default::default()))
            .build();
        let feature = WebFeature::new().api(Router::new(), doc);
        let merged = document(base, vec![feature]);
        let paths: Vec<&String> = merged.paths.paths.keys().collect();
        assert_eq!(paths, ["/a", "/b"]);
    }
}
