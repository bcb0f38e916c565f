//! What a new publication of a version is made with.
//!
//! pulp_rpm copies the repository's settings into the publication by itself, so it is given
//! the version alone. pulp_deb is told its layouts and signer: `simple` and `structured` as
//! the repository's newest publication had them (both when it has none, so that apt finds the
//! packages under the `default` distribution and under the releases they came with), and the
//! repository's `signing_service`, so that the `Release` files are signed when the repository
//! says they should be. Two calls at once, for Debian only.

use serde::Deserialize;
use serde_json::{json, Value};

use super::dto::PageDto;
use super::plugins::plugin_of_href;
use super::PulpClient;
use crate::adapters::pulp::pagination::with_query;
use crate::domain::content::kind::ContentType;
use crate::domain::repository::VersionHref;
use crate::ports::UpstreamError;

/// The layouts of a pulp_deb publication.
#[derive(Debug, Deserialize, PartialEq, Eq)]
struct Layouts {
    #[serde(default)]
    simple: bool,
    #[serde(default)]
    structured: bool,
}

#[derive(Debug, Deserialize)]
struct SignedBy {
    #[serde(default)]
    signing_service: Option<String>,
}

/// The layouts of a repository that was never published: both.
const FIRST_LAYOUTS: Layouts = Layouts {
    simple: true,
    structured: true,
};

/// The body of a pulp_deb publication.
fn deb_body(version: &VersionHref, layouts: &Layouts, signer: Option<&str>) -> Value {
    let mut body = json!({
        "repository_version": version.as_str(),
        "simple": layouts.simple,
        "structured": layouts.structured,
    });
    if let Some(signer) = signer {
        body["signing_service"] = json!(signer);
    }
    body
}

/// The repository's href inside a version's href (`…/<uuid>/versions/<n>/` → `…/<uuid>/`).
fn repository_of(version: &VersionHref) -> Option<&str> {
    let trimmed = version.as_str().trim_end_matches('/');
    let (head, _) = trimmed.rsplit_once('/')?;
    let repo = head.strip_suffix("versions")?;
    Some(repo)
}

impl PulpClient {
    /// The publication's endpoint and body for `version`.
    pub(super) async fn publication_request(
        &self,
        version: &VersionHref,
    ) -> Result<(String, Value), UpstreamError> {
        let plugin = plugin_of_href(version.as_str());
        let url = self.url_for(plugin.publications)?;
        if plugin.content_type == ContentType::Rpm {
            return Ok((url, json!({ "repository_version": version.as_str() })));
        }
        let repo = repository_of(version).ok_or_else(|| {
            UpstreamError::BadResponse(format!("'{version}' is not a repository version's address"))
                .logged()
        })?;
        let repo_url = with_query(&self.url_for(repo)?, &[("fields", "signing_service")]);
        let last_url = with_query(
            &url,
            &[
                ("repository", repo),
                ("ordering", "-pulp_created"),
                ("limit", "1"),
                ("fields", "simple,structured"),
            ],
        );
        let (signer, last) = futures::join!(
            self.get_json::<SignedBy>(&repo_url),
            self.get_json::<PageDto<Layouts>>(&last_url)
        );
        let layouts = last?.results.into_iter().next().unwrap_or(FIRST_LAYOUTS);
        let body = deb_body(version, &layouts, signer?.signing_service.as_deref());
        Ok((url, body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_debian_publication_takes_the_last_layouts_and_the_signer_when_there_is_one() {
        let v = VersionHref::new("/pulp/api/v3/repositories/deb/apt/01a2/versions/3/");
        let simple_only = Layouts {
            simple: true,
            structured: false,
        };
        assert_eq!(
            deb_body(&v, &simple_only, Some("/pulp/api/v3/signing-services/s/")),
            json!({
                "repository_version": v.as_str(), "simple": true, "structured": false,
                "signing_service": "/pulp/api/v3/signing-services/s/"
            })
        );
        let unsigned = deb_body(&v, &FIRST_LAYOUTS, None);
        assert_eq!(
            unsigned,
            json!({"repository_version": v.as_str(), "simple": true, "structured": true})
        );
    }

    #[test]
    fn the_repository_is_the_version_s_address_without_its_number() {
        let v = VersionHref::new("/pulp/api/v3/repositories/deb/apt/01a2/versions/3/");
        assert_eq!(
            repository_of(&v),
            Some("/pulp/api/v3/repositories/deb/apt/01a2/")
        );
        assert_eq!(
            repository_of(&VersionHref::new("/pulp/api/v3/tasks/3/")),
            None
        );
    }
}
