//! Request extractors that turn raw input into domain values, or a clear error.

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;

use crate::domain::{RepoId, SeenLive, VersionNumber};

use super::errors::WebError;

/// The `{uuid}` path segment, parsed. Anything but a UUID is a 404 and never reaches upstream.
pub struct RepoPath(pub RepoId);

impl<S: Send + Sync> FromRequestParts<S> for RepoPath {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| WebError::NotFound("No such page.".into()))?;
        RepoId::parse(&raw).map(RepoPath).map_err(|_| {
            WebError::NotFound(
                "No repository has this identifier: repository identifiers are UUIDs.".into(),
            )
        })
    }
}

/// Whether the request came from htmx (`HX-Request: true`). Never fails.
pub struct HxRequest(pub bool);

impl<S: Send + Sync> FromRequestParts<S> for HxRequest {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(HxRequest(is_htmx(&parts.headers)))
    }
}

/// Whether `HX-Request: true` is among the headers.
pub fn is_htmx(headers: &axum::http::HeaderMap) -> bool {
    headers.get("hx-request").is_some_and(|v| v == "true")
}

/// Parses the `version` field: a whole number of at most 20 digits.
pub fn parse_version(raw: Option<&str>) -> Result<VersionNumber, WebError> {
    let raw = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            WebError::BadRequest("The version to deploy is missing (field 'version').".into())
        })?;
    raw.parse::<u64>().map(VersionNumber::new).map_err(|_| {
        let shown: String = raw.chars().take(24).collect();
        WebError::BadRequest(format!(
            "'{shown}' is not a version number: a version is a whole number such as 12."
        ))
    })
}

/// Parses the `live` field (what production served at preview time): absent, `none`, or a number.
pub fn parse_seen_live(raw: Option<&str>) -> Result<SeenLive, WebError> {
    match raw.map(str::trim) {
        None | Some("") => Ok(SeenLive::NotSent),
        Some("none") => Ok(SeenLive::Nothing),
        Some(number) => parse_version(Some(number)).map(SeenLive::Version),
    }
}
