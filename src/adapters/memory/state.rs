//! The state of the in-memory Pulp and the rules it follows, mirroring Pulp 3:
//! hrefs of the real form, versions numbered from 0 with gaps after deletes, content
//! summaries, immutable publications, and tasks whose effects land when they finish.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::domain::content::kind::ContentType;
use crate::domain::diff::Advisory;
use crate::domain::repository::{
    Distribution, DistributionHref, DistributionRevision, Publication, PublicationHref, RemoteHref,
    RepoId, RepoVersion, Repository, TaskHref, VersionHref, VersionNumber,
};
use crate::domain::sync::TaskState;
use crate::ports::UpstreamError;

pub(super) const API: &str = "/pulp/api/v3/";

/// The plugin's segments of Pulp's addresses, as the in-memory Pulp imitates them
/// (`rpm/rpm/`, pulp_deb's `deb/apt/`).
pub(super) fn plugin_segments(content_type: ContentType) -> &'static str {
    match content_type {
        ContentType::Rpm => "rpm/rpm/",
        ContentType::Deb => "deb/apt/",
    }
}

/// How a simulated synchronization goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncScript {
    /// Runs for `duration`, reporting progress over `packages` downloads, then adds them
    /// (and removes `remove`) in a new version; with nothing to add or remove it makes no
    /// version, as Pulp (its task then names no created resource).
    Succeeds {
        duration: Duration,
        add: Vec<String>,
        remove: Vec<String>,
    },
    /// Runs for `duration`, then fails with `reason` (as Pulp's task error description).
    Fails { duration: Duration, reason: String },
}

pub(super) struct VersionEntry {
    pub number: u64,
    pub created: DateTime<Utc>,
    pub packages: BTreeSet<String>,
    /// Ids of the advisories in this version (see `content.rs`).
    pub advisories: BTreeSet<String>,
    pub added: u64,
    pub removed: u64,
}

pub(super) struct RepoEntry {
    pub repo: Repository,
    pub versions: Vec<VersionEntry>,
    pub next_number: u64,
}

pub(super) struct DistEntry {
    pub dist: Distribution,
    /// Set when the distribution follows a repository directly.
    pub repository: Option<RepoId>,
}

pub(super) enum Effect {
    Publish {
        repo: RepoId,
        number: u64,
    },
    PointDistribution {
        distribution: DistributionHref,
        publication: PublicationHref,
    },
    Sync {
        repo: RepoId,
        script: SyncScript,
    },
}

pub(super) struct TaskEntry {
    pub started: Instant,
    pub ready_at: Instant,
    pub effect: Option<Effect>,
    pub state: TaskState,
    pub error: Option<String>,
    pub created: Vec<String>,
    pub repo: Option<RepoId>,
    pub is_sync: bool,
    pub seq: u64,
    /// When the task was created, and by which user.
    pub created_at: DateTime<Utc>,
    pub by: String,
    /// The distribution the task reserved, when it changes one.
    pub distribution: Option<DistributionHref>,
    /// The request's correlation id (Pulp's `logging_cid`).
    pub correlation: Option<String>,
}

/// One advisory unit uploaded with its builds and references (see `advisory_units.rs`).
#[derive(Debug, Clone)]
pub struct AdvisoryUnit {
    pub indexed: crate::domain::exposure::IndexedAdvisory,
    pub fix: crate::domain::exposure::AdvisoryFix,
}

#[derive(Default)]
pub(super) struct State {
    pub repos: BTreeMap<RepoId, RepoEntry>,
    pub distributions: Vec<DistEntry>,
    pub publications: HashMap<PublicationHref, Publication>,
    /// The settings of the repository each publication was made with.
    pub published_with: HashMap<PublicationHref, crate::domain::repository::RepoVerification>,
    pub remotes: HashMap<RemoteHref, SyncScript>,
    pub tasks: HashMap<TaskHref, TaskEntry>,
    pub counter: u64,
    /// Every uploaded advisory, by id.
    pub advisories: HashMap<String, Advisory>,
    /// The advisories uploaded with their builds and references (see `advisory_units.rs`),
    /// oldest first.
    pub advisory_units: Vec<AdvisoryUnit>,
}

impl State {
    /// A fresh UUID-shaped identifier (deterministic, ordered like Pulp's UUIDv7).
    pub fn next_uuid(&mut self) -> String {
        self.counter += 1;
        format!("01a202de-0000-7000-8000-{:012x}", self.counter)
    }

    /// A new revision for a distribution just written (as Pulp's `pulp_last_updated`).
    pub fn next_revision(&mut self) -> DistributionRevision {
        self.counter += 1;
        DistributionRevision::new(format!("revision-{}", self.counter))
    }

    pub fn repo(&self, id: &RepoId) -> Result<&RepoEntry, UpstreamError> {
        self.repos.get(id).ok_or_else(not_found("RpmRepository"))
    }

    pub fn repo_mut(&mut self, id: &RepoId) -> Result<&mut RepoEntry, UpstreamError> {
        self.repos
            .get_mut(id)
            .ok_or_else(not_found("RpmRepository"))
    }

    /// Adds a version with the given changes against the latest one; answers its number.
    pub fn add_version(
        &mut self,
        id: &RepoId,
        add: &[String],
        remove: &[String],
        at: DateTime<Utc>,
    ) -> Result<u64, UpstreamError> {
        let entry = self.repo_mut(id)?;
        let (mut packages, advisories) = entry
            .versions
            .last()
            .map(|v| (v.packages.clone(), v.advisories.clone()))
            .unwrap_or_default();
        let removed = remove.iter().filter(|p| packages.remove(*p)).count() as u64;
        let added = add.iter().filter(|p| packages.insert((*p).clone())).count() as u64;
        let number = entry.next_number;
        entry.next_number += 1;
        entry.versions.push(VersionEntry {
            number,
            created: at,
            packages,
            advisories,
            added,
            removed,
        });
        entry.repo.latest_version = Some(version_href(&entry.repo, number));
        Ok(number)
    }

    /// Deletes a version; its changes fold into the next one, as in Pulp.
    pub fn delete_version(&mut self, id: &RepoId, number: u64) -> Result<(), UpstreamError> {
        let entry = self.repo_mut(id)?;
        let index = entry
            .versions
            .iter()
            .position(|v| v.number == number)
            .ok_or_else(not_found("RepositoryVersion"))?;
        entry.versions.remove(index);
        let previous = index
            .checked_sub(1)
            .map(|i| entry.versions[i].packages.clone())
            .unwrap_or_default();
        if let Some(next) = entry.versions.get_mut(index) {
            next.added = next.packages.difference(&previous).count() as u64;
            next.removed = previous.difference(&next.packages).count() as u64;
        }
        Ok(())
    }

    pub fn versions(&self, id: &RepoId) -> Result<Vec<RepoVersion>, UpstreamError> {
        let entry = self.repo(id)?;
        Ok(entry
            .versions
            .iter()
            .rev()
            .map(|v| RepoVersion {
                href: version_href(&entry.repo, v.number),
                created: v.created,
                package_count: v.packages.len() as u64,
                added: v.added,
                removed: v.removed,
            })
            .collect())
    }

    /// Creates a publication of an existing version (immutable from then on).
    pub fn publish(&mut self, id: &RepoId, number: u64) -> Result<PublicationHref, UpstreamError> {
        let entry = self.repo(id)?;
        if !entry.versions.iter().any(|v| v.number == number) {
            return Err(bad_request(
                "repository_version",
                "Invalid hyperlink - Object does not exist.",
            ));
        }
        let version = version_href(&entry.repo, number);
        let settings = entry.repo.verification.clone();
        let href = PublicationHref::new(format!(
            "{API}publications/{}{}/",
            plugin_segments(settings.content_type),
            self.next_uuid()
        ));
        self.published_with.insert(href.clone(), settings);
        self.publications.insert(
            href.clone(),
            Publication {
                href: href.clone(),
                repository_version: version,
            },
        );
        Ok(href)
    }

    pub fn distribution_mut(
        &mut self,
        href: &DistributionHref,
    ) -> Result<&mut DistEntry, UpstreamError> {
        self.distributions
            .iter_mut()
            .find(|d| &d.dist.href == href)
            .ok_or_else(not_found("RpmDistribution"))
    }
}

pub(super) fn version_href(repo: &Repository, number: u64) -> VersionHref {
    repo.version_href(VersionNumber::new(number))
}

pub(super) fn not_found(kind: &'static str) -> impl Fn() -> UpstreamError {
    move || {
        UpstreamError::Http {
            status: 404,
            message: format!("No {kind} matches the given query."),
        }
        .logged()
    }
}

pub(super) fn bad_request(field: &str, message: &str) -> UpstreamError {
    UpstreamError::Http {
        status: 400,
        message: format!("{field}: {message}"),
    }
    .logged()
}
