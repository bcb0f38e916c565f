//! Publications that may be served again: those of a version whose `repo_config` and
//! `checksum_type` (pulp_rpm), or `signing_service` (pulp_deb), copied from the repository
//! when Pulp published it, equal the repository's now. Read at once: the repository's
//! fields, and the version's publications, newest first (`<plugin's
//! publications>?repository_version=`).

use serde::Deserialize;
use serde_json::Value;

use super::dto::PageDto;
use super::plugins::plugin_of_href;
use super::PulpClient;
use crate::adapters::pulp::pagination::with_query;
use crate::domain::repository::{PublicationHref, RepoId, VersionHref};
use crate::ports::UpstreamError;

/// What a repository publishes with, and what a publication was made with.
#[derive(Debug, Deserialize, PartialEq)]
struct PublishedWith {
    #[serde(default)]
    repo_config: Value,
    #[serde(default)]
    checksum_type: Option<String>,
    #[serde(default)]
    signing_service: Option<String>,
}

#[derive(Debug, Deserialize)]
struct PublicationWith {
    pulp_href: String,
    #[serde(flatten)]
    with: PublishedWith,
}

/// Publications of one version are few; more than this is not looked through.
const LIMIT: &str = "20";

impl PulpClient {
    pub(super) async fn publications_like_now(
        &self,
        repo: &RepoId,
        version: &VersionHref,
    ) -> Result<Vec<PublicationHref>, UpstreamError> {
        let repo_url = with_query(
            &self.url_for(&self.repo_href(repo).await?)?,
            &[("fields", "repo_config,checksum_type,signing_service")],
        );
        let list_url = with_query(
            &self.url_for(plugin_of_href(version.as_str()).publications)?,
            &[
                ("repository_version", version.as_str()),
                ("ordering", "-pulp_created"),
                (
                    "fields",
                    "pulp_href,repo_config,checksum_type,signing_service",
                ),
                ("limit", LIMIT),
            ],
        );
        let (now, made) = futures::join!(
            self.get_json::<PublishedWith>(&repo_url),
            self.get_json::<PageDto<PublicationWith>>(&list_url)
        );
        let now = now?;
        Ok(made?
            .results
            .into_iter()
            .filter(|p| p.with == now)
            .map(|p| PublicationHref::new(p.pulp_href))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_publication_is_like_now_only_with_the_same_repo_config_and_checksum_type() {
        let now: PublishedWith = serde_json::from_str(
            r#"{"repo_config":{"gpgcheck":1,"repo_gpgcheck":1},"checksum_type":"sha256"}"#,
        )
        .unwrap();
        let same: PublicationWith = serde_json::from_str(
            r#"{"pulp_href":"/p/1/","repo_config":{"repo_gpgcheck":1,"gpgcheck":1},"checksum_type":"sha256"}"#,
        )
        .unwrap();
        let other_checksum: PublicationWith = serde_json::from_str(
            r#"{"pulp_href":"/p/2/","repo_config":{"gpgcheck":1,"repo_gpgcheck":1},"checksum_type":"sha512"}"#,
        )
        .unwrap();
        let other_config: PublicationWith = serde_json::from_str(
            r#"{"pulp_href":"/p/3/","repo_config":{"gpgcheck":0,"repo_gpgcheck":1},"checksum_type":"sha256"}"#,
        )
        .unwrap();
        assert_eq!(same.with, now, "key order does not matter");
        assert_ne!(other_checksum.with, now);
        assert_ne!(other_config.with, now);
    }

    #[test]
    fn a_debian_publication_is_like_now_only_with_the_same_signing_service() {
        let now: PublishedWith = serde_json::from_str(r#"{"signing_service":"/s/1/"}"#).unwrap();
        let same: PublicationWith =
            serde_json::from_str(r#"{"pulp_href":"/p/1/","signing_service":"/s/1/"}"#).unwrap();
        let unsigned: PublicationWith =
            serde_json::from_str(r#"{"pulp_href":"/p/2/","signing_service":null}"#).unwrap();
        assert_eq!(same.with, now);
        assert_ne!(unsigned.with, now);
    }
}
