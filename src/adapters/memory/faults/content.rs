//! [`ContentCatalog`] for [`FaultyPulp`]: delegates to the in-memory Pulp unless a fault is
//! set on [`Op::Packages`], [`Op::Advisories`] or [`Op::PackageBuilds`].

use async_trait::async_trait;

use crate::adapters::memory::faults::{FaultyPulp, Op};
use crate::domain::{Advisory, ContentRead, Package, VersionHref};
use crate::ports::{ContentCatalog, UpstreamError};

#[async_trait]
impl ContentCatalog for FaultyPulp {
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError> {
        self.check(Op::Packages)?;
        self.inner().packages(version, read).await
    }

    async fn advisories(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        self.check(Op::Advisories)?;
        self.inner().advisories(version, read).await
    }

    async fn package_builds(
        &self,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Vec<Package>, UpstreamError> {
        self.check(Op::PackageBuilds)?;
        self.inner().package_builds(version, names).await
    }
}
