//! `Counting<M>`: a decorator of the upstream ports (`RepositoryManager`, `PackageCatalog`, `AdvisoryCatalog`)
//! that records the name of every call, then forwards it to the port it wraps. The
//! forwarding is written once, by `forward!` from each method's signature, so a method the
//! port gains is a compile error here until it is listed. Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

use std::collections::HashMap;
use std::sync::Mutex;

use repo_console::domain::diff::{Advisory, ContentRead, Package};
use repo_console::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use repo_console::domain::repository::{
    Distribution, DistributionChange, DistributionHref, Publication, PublicationHref, RemoteHref,
    RepoId, RepoVersion, Repository, VersionHref, VersionNumber,
};
use repo_console::domain::sync::SyncState;
use repo_console::ports::{
    AdvisoryCatalog, PackageCatalog, Page, PageRequest, RepositoryManager, UpstreamError,
    WriteOutcome,
};

/// An upstream port that records the name of every call, then forwards it to `inner`.
pub struct Counting<M> {
    pub inner: M,
    calls: Mutex<Vec<&'static str>>,
}

impl<M> Counting<M> {
    pub fn new(inner: M) -> Self {
        Self {
            inner,
            calls: Mutex::new(Vec::new()),
        }
    }

    /// The calls recorded since the last `take`.
    pub fn take(&self) -> Vec<&'static str> {
        std::mem::take(&mut *self.calls.lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn note(&self, name: &'static str) {
        self.calls
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(name);
    }
}

/// `impl $port for Counting<M>`: each listed method notes its name, then calls `inner`'s.
macro_rules! forward {
    ($port:ident { $(fn $method:ident(&self $(, $arg:ident: $ty:ty)*) -> $out:ty;)* }) => {
        #[async_trait::async_trait]
        impl<M: $port> $port for Counting<M> {
            $(
                async fn $method(&self $(, $arg: $ty)*) -> $out {
                    self.note(stringify!($method));
                    self.inner.$method($($arg),*).await
                }
            )*
        }
    };
}

forward!(PackageCatalog {
    fn packages(&self, version: &VersionHref, read: &ContentRead) -> Result<Vec<Package>, UpstreamError>;
    fn package_builds(&self, version: &VersionHref, names: &[String]) -> Result<Vec<Package>, UpstreamError>;
});

forward!(AdvisoryCatalog {
    fn advisories(&self, version: &VersionHref, read: &ContentRead) -> Result<Vec<Advisory>, UpstreamError>;
    fn advisory_fixes(&self, ids: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError>;
    fn advisories_held(&self, version: &VersionHref, ids: &[String]) -> Result<Vec<String>, UpstreamError>;
    fn advisory_references(&self, page: PageRequest) -> Result<Page<IndexedAdvisory>, UpstreamError>;
});

forward!(RepositoryManager {
    fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError>;
    fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError>;
    fn version_page(&self, id: &RepoId, page: PageRequest) -> Result<Page<RepoVersion>, UpstreamError>;
    fn versions_numbered(&self, id: &RepoId, numbers: &[VersionNumber]) -> Result<Vec<RepoVersion>, UpstreamError>;
    fn versions_newer_than(&self, id: &RepoId, number: VersionNumber) -> Result<u64, UpstreamError>;
    fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError>;
    fn distributions_named(&self, names: &[String]) -> Result<Vec<Distribution>, UpstreamError>;
    fn get_distribution(&self, href: &DistributionHref) -> Result<Distribution, UpstreamError>;
    fn get_publication(&self, href: &PublicationHref) -> Result<Publication, UpstreamError>;
    fn publications(&self, hrefs: &[PublicationHref]) -> Result<Vec<Publication>, UpstreamError>;
    fn reusable_publications(&self, repo: &RepoId, version: &VersionHref) -> Result<Vec<PublicationHref>, UpstreamError>;
    fn publish(&self, version: &VersionHref) -> WriteOutcome<PublicationHref>;
    fn point_distribution(&self, distribution: &DistributionHref, publication: &PublicationHref) -> WriteOutcome<()>;
    fn distribution_changes(&self, distribution: &DistributionHref, limit: u64) -> Result<Vec<DistributionChange>, UpstreamError>;
    fn start_sync(&self, id: &RepoId, remote: &RemoteHref) -> Result<SyncState, UpstreamError>;
    fn sync_states(&self, ids: &[RepoId]) -> Result<HashMap<RepoId, SyncState>, UpstreamError>;
});
