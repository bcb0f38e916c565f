//! The content catalog port: what repository versions contain (packages, advisories),
//! read as a version's whole content, what it changed against its predecessor, or what it
//! holds that another version does not (see [`crate::domain::diff::plan`] for which is
//! cheapest when).

use async_trait::async_trait;

use crate::domain::diff::{Advisory, ContentRead, Package};
use crate::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use crate::domain::repository::VersionHref;

use super::repository_manager::{Page, PageRequest, UpstreamError};

/// Reads the content of repository versions. Each method costs upstream requests that
/// follow the size of its answer, never the number of versions in between.
#[async_trait]
pub trait ContentCatalog: Send + Sync {
    /// The packages of `version` that `read` selects.
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError>;

    /// The advisories of `version` that `read` selects.
    async fn advisories(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError>;

    /// Every build `version` holds of packages with these names (any arch), in requests
    /// that batch the names.
    async fn package_builds(
        &self,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Vec<Package>, UpstreamError>;

    /// The advisories with these ids (every unit of an id merged), with the builds their
    /// package lists name; an id Pulp does not hold is left out. Requests batch the ids.
    async fn advisory_fixes(&self, ids: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError>;

    /// Which of the advisories `ids` `version` holds (their ids), in requests that batch them.
    async fn advisories_held(
        &self,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Vec<String>, UpstreamError>;

    /// One page of every advisory upstream holds, newest created first, with the CVEs each
    /// one's references name (for the CVE index).
    async fn advisory_references(
        &self,
        page: PageRequest,
    ) -> Result<Page<IndexedAdvisory>, UpstreamError>;
}
