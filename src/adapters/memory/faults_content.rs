//! [`ContentCatalog`] for [`FaultyPulp`]: delegates to the in-memory Pulp unless a fault is
//! set on [`Op::PackagesNotIn`] or [`Op::AdvisoriesNotIn`].

use async_trait::async_trait;

use super::faults::{FaultyPulp, Op};
use crate::domain::{Advisory, Package, VersionHref};
use crate::ports::{ContentCatalog, UpstreamError};

#[async_trait]
impl ContentCatalog for FaultyPulp {
    async fn packages_not_in(
        &self,
        version: &VersionHref,
        other: Option<&VersionHref>,
    ) -> Result<Vec<Package>, UpstreamError> {
        self.check(Op::PackagesNotIn)?;
        self.inner().packages_not_in(version, other).await
    }

    async fn advisories_not_in(
        &self,
        version: &VersionHref,
        other: Option<&VersionHref>,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        self.check(Op::AdvisoriesNotIn)?;
        self.inner().advisories_not_in(version, other).await
    }
}
