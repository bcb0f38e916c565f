//! [`PackageCatalog`] and [`AdvisoryCatalog`] for [`PulpClient`]: a version's content as one of Pulp's list
//! filters selects it (`repository_version=`, `repository_version_added=`,
//! `repository_version_removed=`, or `q=repository_version="A" AND NOT
//! repository_version="B"`), and the builds of given names (`name__in=`, batched to fit
//! Pulp's request line), with only the fields shown.

use async_trait::async_trait;
use futures::stream::{self, StreamExt, TryStreamExt};
use serde::de::DeserializeOwned;

use super::content_dto::{AdvisoryDto, PackageDto, ADVISORY_FIELDS};
use super::plugins::{plugin_of_href, ADVISORIES};
use super::PulpClient;
use crate::adapters::pulp::pagination::{encode, with_query};
use crate::domain::diff::{Advisory, ContentRead, Package};
use crate::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use crate::domain::repository::VersionHref;
use crate::ports::{AdvisoryCatalog, PackageCatalog, Page, PageRequest, UpstreamError};

/// Content units per request for what a version changed and for builds by name: small
/// answers, read in one page or a few concurrent ones.
const CONTENT_PAGE_SIZE: u64 = 1000;
/// Units per request for the lists that may be a whole version (its plain list, or the
/// filtered difference of versions far apart), and pages in flight at once. Measured on a
/// 30,000-package version (scripts/bench/realsize/README.md): 5,000 rows a page, 2 at a
/// time, read it in 34 s where 1,000 rows, 8 at a time, took 42 s; Pulp evaluates `A AND NOT
/// B` whole on every request (7–9 s, even for one row), so fewer pages are cheaper. Larger
/// pages risk Pulp's API worker timeout (gunicorn's 30 s: two 10,000-row pages got a 500).
const BIG_PAGE_SIZE: u64 = 5000;
const BIG_PAGES_IN_FLIGHT: usize = 2;
/// Bytes of names (encoded) per `name__in=` request: Pulp's API server refuses a request
/// line over 4,094 bytes, and the rest of the line takes a few hundred.
const NAMES_BYTES_PER_REQUEST: usize = 3000;
/// `name__in=` requests in flight at once.
const CONCURRENT_NAME_BATCHES: usize = 4;

#[async_trait]
impl PackageCatalog for PulpClient {
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError> {
        let plugin = plugin_of_href(version.as_str());
        let found: Vec<PackageDto> = self
            .content(plugin.packages, plugin.package_fields, version, read)
            .await?;
        Ok(found
            .into_iter()
            .map(|p| p.into_package(plugin.content_type))
            .collect())
    }

    async fn package_builds(
        &self,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Vec<Package>, UpstreamError> {
        let plugin = plugin_of_href(version.as_str());
        let batches = name_batches(names, NAMES_BYTES_PER_REQUEST);
        let pages: Vec<Vec<PackageDto>> = stream::iter(batches)
            .map(|batch| async move {
                let path = with_query(
                    plugin.packages,
                    &[
                        ("repository_version", version.as_str()),
                        ("fields", plugin.package_fields),
                        ("ordering", "pulp_id"),
                    ],
                );
                // The names are encoded one by one, the commas between them kept.
                let path = format!("{path}&{}={batch}", plugin.package_names_filter);
                self.get_all_by::<PackageDto>(&path, CONTENT_PAGE_SIZE)
                    .await
            })
            .buffer_unordered(CONCURRENT_NAME_BATCHES)
            .try_collect()
            .await?;
        Ok(pages
            .into_iter()
            .flatten()
            .map(|p| p.into_package(plugin.content_type))
            .collect())
    }
}

#[async_trait]
impl AdvisoryCatalog for PulpClient {
    async fn advisories(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        // Asked only of a type that carries advisories (the port's contract): pulp_rpm's.
        let found: Vec<AdvisoryDto> = self
            .content(ADVISORIES, ADVISORY_FIELDS, version, read)
            .await?;
        Ok(found.into_iter().map(Advisory::from).collect())
    }

    async fn advisory_fixes(&self, ids: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError> {
        self.read_advisory_fixes(ids).await
    }

    async fn advisories_held(
        &self,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Vec<String>, UpstreamError> {
        self.read_advisories_held(version, ids).await
    }

    async fn advisory_references(
        &self,
        page: PageRequest,
    ) -> Result<Page<IndexedAdvisory>, UpstreamError> {
        self.read_advisory_references(page).await
    }
}

impl PulpClient {
    async fn content<T: DeserializeOwned>(
        &self,
        list: &str,
        fields: &str,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<T>, UpstreamError> {
        let (filter, value, page_size, in_flight) = match read {
            ContentRead::All => (
                "repository_version",
                version.to_string(),
                BIG_PAGE_SIZE,
                BIG_PAGES_IN_FLIGHT,
            ),
            ContentRead::Added => (
                "repository_version_added",
                version.to_string(),
                CONTENT_PAGE_SIZE,
                CONCURRENT_NAME_BATCHES,
            ),
            ContentRead::Removed => (
                "repository_version_removed",
                version.to_string(),
                CONTENT_PAGE_SIZE,
                CONCURRENT_NAME_BATCHES,
            ),
            ContentRead::NotIn(other) => (
                "q",
                not_in_query(version, other),
                BIG_PAGE_SIZE,
                BIG_PAGES_IN_FLIGHT,
            ),
        };
        let path = with_query(
            list,
            &[
                (filter, &value),
                ("fields", fields),
                // A stable order, so that pages neither repeat nor skip a unit.
                ("ordering", "pulp_id"),
            ],
        );
        self.get_all_paced(&path, page_size, in_flight).await
    }
}

/// `repository_version="A" AND NOT repository_version="B"` (complexity 3 of Pulp's 8).
fn not_in_query(version: &VersionHref, other: &VersionHref) -> String {
    format!(
        "repository_version=\"{}\" AND NOT repository_version=\"{}\"",
        version.as_str(),
        other.as_str()
    )
}

/// The names, encoded and joined by commas, in batches of at most `max_bytes` (a name
/// longer than that goes alone).
pub(super) fn name_batches(names: &[String], max_bytes: usize) -> Vec<String> {
    let mut batches = Vec::new();
    let mut current = String::new();
    for name in names {
        let encoded = encode(name);
        if !current.is_empty() && current.len() + 1 + encoded.len() > max_bytes {
            batches.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(',');
        }
        current.push_str(&encoded);
    }
    if !current.is_empty() {
        batches.push(current);
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_names_both_versions() {
        let a = VersionHref::new("/pulp/api/v3/repositories/rpm/rpm/r/versions/5/");
        let b = VersionHref::new("/pulp/api/v3/repositories/rpm/rpm/r/versions/1/");
        assert_eq!(
            not_in_query(&a, &b),
            "repository_version=\"/pulp/api/v3/repositories/rpm/rpm/r/versions/5/\" \
             AND NOT repository_version=\"/pulp/api/v3/repositories/rpm/rpm/r/versions/1/\""
        );
    }

    #[test]
    fn names_are_batched_within_the_byte_budget_and_encoded() {
        let names: Vec<String> = (0..10).map(|i| format!("pkg-{i:02}")).collect();
        let batches = name_batches(&names, 20);
        assert_eq!(
            batches,
            [
                "pkg-00,pkg-01,pkg-02",
                "pkg-03,pkg-04,pkg-05",
                "pkg-06,pkg-07,pkg-08",
                "pkg-09"
            ]
        );
        assert!(batches.iter().all(|b| b.len() <= 20));
        assert_eq!(
            name_batches(&["libstdc++".into()], 5),
            ["libstdc%2B%2B"],
            "alone when too long"
        );
        assert!(name_batches(&[], 20).is_empty());
    }
}
