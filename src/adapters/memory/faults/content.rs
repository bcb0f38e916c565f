//! [`PackageCatalog`] and [`AdvisoryCatalog`] for [`FaultyPulp`]: delegates to the in-memory Pulp unless a fault is
//! set on [`Op::Packages`], [`Op::Advisories`] (every advisory read) or [`Op::PackageBuilds`].

use async_trait::async_trait;

use crate::adapters::memory::faults::{FaultyPulp, Op};
use crate::domain::diff::{Advisory, ContentRead, Package};
use crate::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use crate::domain::repository::VersionHref;
use crate::ports::{AdvisoryCatalog, PackageCatalog, Page, PageRequest, UpstreamError};

#[async_trait]
impl PackageCatalog for FaultyPulp {
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError> {
        self.check(Op::Packages)?;
        self.inner().packages(version, read).await
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

#[async_trait]
impl AdvisoryCatalog for FaultyPulp {
    async fn advisories(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        self.check(Op::Advisories)?;
        self.inner().advisories(version, read).await
    }

    async fn advisory_fixes(&self, ids: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError> {
        self.check(Op::Advisories)?;
        self.inner().advisory_fixes(ids).await
    }

    async fn advisories_held(
        &self,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Vec<String>, UpstreamError> {
        self.check(Op::Advisories)?;
        self.inner().advisories_held(version, ids).await
    }

    async fn advisory_references(
        &self,
        page: PageRequest,
    ) -> Result<Page<IndexedAdvisory>, UpstreamError> {
        self.check(Op::Advisories)?;
        self.inner().advisory_references(page).await
    }
}
