//! The content catalog port: what repository versions contain (packages, advisories),
//! answered as differences so that the cost follows the size of the change, not of the
//! repository.

use async_trait::async_trait;

use crate::domain::{Advisory, Package, VersionHref};

use super::repository_manager::UpstreamError;

/// Reads the content of repository versions. Each method costs a bounded number of upstream
/// requests: one per page of its answer, whatever the number of versions in between.
#[async_trait]
pub trait ContentCatalog: Send + Sync {
    /// The packages in `version` that are not in `other` (every package of `version` when
    /// `other` is `None`).
    async fn packages_not_in(
        &self,
        version: &VersionHref,
        other: Option<&VersionHref>,
    ) -> Result<Vec<Package>, UpstreamError>;

    /// The advisories in `version` that are not in `other` (all of them when `None`).
    async fn advisories_not_in(
        &self,
        version: &VersionHref,
        other: Option<&VersionHref>,
    ) -> Result<Vec<Advisory>, UpstreamError>;
}
