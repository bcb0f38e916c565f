//! [`ContentCatalog`] for [`PulpClient`]: what one version holds that another does not, in
//! one filtered list per content type (`q=repository_version="A" AND NOT
//! repository_version="B"`), with only the fields shown. The cost is one request per page
//! of the answer, whatever the number of versions in between.

use async_trait::async_trait;
use serde::de::DeserializeOwned;

use super::content_dto::{AdvisoryDto, PackageDto, ADVISORY_FIELDS, PACKAGE_FIELDS};
use super::pagination::with_query;
use super::PulpClient;
use crate::domain::{Advisory, Package, VersionHref};
use crate::ports::{ContentCatalog, UpstreamError};

/// Content units per request: rows are small (a few fields), and Pulp sets no maximum.
const CONTENT_PAGE_SIZE: u64 = 1000;

#[async_trait]
impl ContentCatalog for PulpClient {
    async fn packages_not_in(
        &self,
        version: &VersionHref,
        other: Option<&VersionHref>,
    ) -> Result<Vec<Package>, UpstreamError> {
        let found: Vec<PackageDto> = self
            .content_not_in("content/rpm/packages/", PACKAGE_FIELDS, version, other)
            .await?;
        Ok(found.into_iter().map(Package::from).collect())
    }

    async fn advisories_not_in(
        &self,
        version: &VersionHref,
        other: Option<&VersionHref>,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        let found: Vec<AdvisoryDto> = self
            .content_not_in("content/rpm/advisories/", ADVISORY_FIELDS, version, other)
            .await?;
        Ok(found.into_iter().map(Advisory::from).collect())
    }
}

impl PulpClient {
    async fn content_not_in<T: DeserializeOwned>(
        &self,
        list: &str,
        fields: &str,
        version: &VersionHref,
        other: Option<&VersionHref>,
    ) -> Result<Vec<T>, UpstreamError> {
        let path = with_query(
            list,
            &[
                ("q", &not_in_query(version, other)),
                ("fields", fields),
                // A stable order, so that pages neither repeat nor skip a unit.
                ("ordering", "pulp_id"),
            ],
        );
        self.get_all_by(&path, CONTENT_PAGE_SIZE).await
    }
}

/// `repository_version="A" AND NOT repository_version="B"` (complexity 3 of Pulp's 8).
fn not_in_query(version: &VersionHref, other: Option<&VersionHref>) -> String {
    let mut q = format!("repository_version=\"{}\"", version.as_str());
    if let Some(other) = other {
        q.push_str(&format!(
            " AND NOT repository_version=\"{}\"",
            other.as_str()
        ));
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_names_both_versions_or_only_one() {
        let a = VersionHref::new("/pulp/api/v3/repositories/rpm/rpm/r/versions/5/");
        let b = VersionHref::new("/pulp/api/v3/repositories/rpm/rpm/r/versions/1/");
        assert_eq!(
            not_in_query(&a, Some(&b)),
            "repository_version=\"/pulp/api/v3/repositories/rpm/rpm/r/versions/5/\" \
             AND NOT repository_version=\"/pulp/api/v3/repositories/rpm/rpm/r/versions/1/\""
        );
        assert_eq!(
            not_in_query(&a, None),
            "repository_version=\"/pulp/api/v3/repositories/rpm/rpm/r/versions/5/\""
        );
    }
}
