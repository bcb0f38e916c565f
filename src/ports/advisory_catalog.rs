//! The advisory catalog port: what RPM adds to the content every type has (advisories,
//! errata). Only versions of a type that carries advisories are asked
//! ([`crate::domain::content::kind::ContentType::advisories`]): a Debian version is answered
//! [`crate::domain::content::Advisories::NotApplicable`] by its type before any read, so an
//! adapter never decides it.

use async_trait::async_trait;

use crate::domain::diff::{Advisory, ContentRead};
use crate::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use crate::domain::repository::VersionHref;

use super::repository_manager::{Page, PageRequest, UpstreamError};

/// Reads the advisories of repository versions whose type carries them. Each method costs
/// upstream requests that follow the size of its answer.
#[async_trait]
pub trait AdvisoryCatalog: Send + Sync {
    /// The advisories of `version` that `read` selects.
    async fn advisories(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError>;

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
