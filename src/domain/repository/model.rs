//! What the console reads from upstream, in domain terms.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::content::kind::ContentType;
use crate::domain::repository::{
    DistributionHref, PublicationHref, RemoteHref, RepoId, RepoVerification, VersionHref,
    VersionNumber,
};

/// A repository of one content type (RPM or Debian: [`Repository::content_type`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repository {
    pub id: RepoId,
    /// Upstream address of the repository itself.
    pub href: String,
    pub name: Option<String>,
    pub verification: RepoVerification,
    pub latest_version: Option<VersionHref>,
    /// The remote it synchronizes from, when one is set.
    pub remote: Option<RemoteHref>,
    /// Pulp's `retain_repo_versions`: the versions Pulp keeps (`None`: all).
    pub retain_versions: Option<u64>,
}

impl Repository {
    /// The name to show: the name, or the uuid when the name is absent or blank.
    pub fn display_name(&self) -> &str {
        match self.name.as_deref() {
            Some(name) if !name.trim().is_empty() => name,
            _ => self.id.as_str(),
        }
    }

    /// The kind of packages it holds, as upstream says: the rules its versions and its
    /// verification follow. Kept once, in its verification settings.
    pub fn content_type(&self) -> ContentType {
        self.verification.content_type
    }

    /// The address of version `n` of this repository.
    pub fn version_href(&self, n: VersionNumber) -> VersionHref {
        VersionHref::new(format!("{}versions/{}/", self.href, n.get()))
    }
}

/// One repository version with its package counts (from upstream's content summary).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoVersion {
    pub href: VersionHref,
    pub created: DateTime<Utc>,
    /// Packages present in this version.
    pub package_count: u64,
    /// Packages added against the previous version.
    pub added: u64,
    /// Packages removed against the previous version.
    pub removed: u64,
}

impl RepoVersion {
    pub fn number(&self) -> Option<VersionNumber> {
        self.href.number()
    }

    /// Added minus removed.
    pub fn net_change(&self) -> i64 {
        saturating_i64(self.added) - saturating_i64(self.removed)
    }
}

fn saturating_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A distribution: what a content URL serves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Distribution {
    pub href: DistributionHref,
    pub name: String,
    pub base_path: String,
    /// The publication served, when the distribution points at one.
    pub publication: Option<PublicationHref>,
    /// Its revision when read; `None` when upstream does not say.
    pub revision: Option<DistributionRevision>,
}

/// Upstream's mark of a distribution's last write (Pulp's `pulp_last_updated`): every write
/// of the distribution changes it, so an unchanged revision means nothing wrote it since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DistributionRevision(String);

impl DistributionRevision {
    pub fn new(mark: impl Into<String>) -> Self {
        Self(mark.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A publication: the published metadata of one repository version. Immutable upstream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Publication {
    pub href: PublicationHref,
    pub repository_version: VersionHref,
}
