//! The content catalog ports: what repository versions contain, read as a version's whole
//! content, what it changed against its predecessor, or what it holds that another version
//! does not (see [`crate::domain::diff::plan`] for which is cheapest when). The content every
//! type has (packages by name, architecture and version) is [`PackageCatalog`]; what RPM adds
//! (advisories) is [`AdvisoryCatalog`]; an upstream serves both as a [`ContentCatalog`].

use async_trait::async_trait;

use crate::domain::diff::{ContentRead, Package};
use crate::domain::repository::VersionHref;

use super::advisory_catalog::AdvisoryCatalog;
use super::repository_manager::UpstreamError;

/// Reads the packages of repository versions, of every content type. Each method costs
/// upstream requests that follow the size of its answer, never the number of versions in
/// between.
#[async_trait]
pub trait PackageCatalog: Send + Sync {
    /// The packages of `version` that `read` selects.
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError>;

    /// Every build `version` holds of packages with these names (any arch), in requests
    /// that batch the names.
    async fn package_builds(
        &self,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Vec<Package>, UpstreamError>;
}

/// An upstream's whole content: the packages of every type and the advisories of the types
/// that carry them. Implemented by every adapter that implements both.
pub trait ContentCatalog: PackageCatalog + AdvisoryCatalog {}

impl<T: PackageCatalog + AdvisoryCatalog + ?Sized> ContentCatalog for T {}
