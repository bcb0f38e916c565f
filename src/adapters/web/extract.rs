//! Request extractors that turn raw input into domain values, or a clear error.

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;

use crate::domain::deploy::SeenLive;
use crate::domain::environment::{EnvironmentName, EnvironmentPath};
use crate::domain::repository::{RepoId, VersionNumber};

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

/// Parses the `version` field: a whole number of at most 20 digits.
pub fn parse_version(raw: Option<&str>) -> Result<VersionNumber, WebError> {
    version_number(
        raw,
        None,
        "The version to deploy is missing (field 'version').",
    )
}

/// Parses a version number the request names: a whole number of at most 20 digits. `which`
/// names the field in the message when the page takes more than one; `missing` is what to say
/// when it is absent or blank.
pub fn version_number(
    raw: Option<&str>,
    which: Option<&str>,
    missing: &str,
) -> Result<VersionNumber, WebError> {
    let raw = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| WebError::BadRequest(missing.to_owned()))?;
    raw.parse::<u64>().map(VersionNumber::new).map_err(|_| {
        let shown: String = raw.chars().take(24).collect();
        let which = which.map(|w| format!(" ({w})")).unwrap_or_default();
        WebError::BadRequest(format!(
            "'{shown}' is not a version number{which}: a version is a whole number such as 12."
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

/// Parses the `env` field: an environment of the path; absent or blank, the last one
/// (production). An unknown one is a bad field (400).
pub fn parse_environment(
    path: &EnvironmentPath,
    raw: Option<&str>,
) -> Result<EnvironmentName, WebError> {
    let name = raw.map(str::trim).filter(|s| !s.is_empty());
    path.chosen(name)
        .map(|environment| environment.name.clone())
        .map_err(|unknown| WebError::BadRequest(format!("Field 'env': {unknown}.")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_number_is_a_trimmed_whole_number_and_a_bad_one_is_named() {
        assert_eq!(parse_version(Some(" 12 ")).unwrap(), VersionNumber::new(12));
        let missing = |raw| version_number(raw, Some("against"), "say which").unwrap_err();
        assert_eq!(missing(None).to_string(), "say which");
        assert_eq!(missing(Some("  ")).to_string(), "say which");
        assert_eq!(
            missing(Some("x")).to_string(),
            "'x' is not a version number (against): a version is a whole number such as 12."
        );
        assert_eq!(
            parse_version(Some("-1")).unwrap_err().to_string(),
            "'-1' is not a version number: a version is a whole number such as 12."
        );
    }
}
