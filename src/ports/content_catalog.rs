//! The content catalog port: what repository versions contain (packages, advisories),
//! read as a version's whole content, what it changed against its predecessor, or what it
//! holds that another version does not (see [`crate::domain::diff::plan`] for which is
//! cheapest when).

use async_trait::async_trait;

use crate::domain::{Advisory, ContentRead, Package, VersionHref};

use super::repository_manager::UpstreamError;

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
}
