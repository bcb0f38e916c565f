//! The state of the in-memory Pulp and the rules it follows, mirroring Pulp 3:
//! hrefs of the real form, versions numbered from 0 with gaps after deletes, content
//! summaries, immutable publications, and tasks whose effects land when they finish.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::domain::{
    Distribution, DistributionHref, Publication, PublicationHref, RemoteHref, RepoId, RepoVersion,
    Repository, TaskHref, VersionHref, VersionNumber,
};
use crate::ports::{ProgressReport, TaskReport, TaskState, UpstreamError};

pub(super) const API: &str = "/pulp/api/v3/";

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
}

#[derive(Default)]
pub(super) struct State {
    pub repos: BTreeMap<RepoId, RepoEntry>,
    pub distributions: Vec<DistEntry>,
    pub publications: HashMap<PublicationHref, Publication>,
    pub remotes: HashMap<RemoteHref, SyncScript>,
    pub tasks: HashMap<TaskHref, TaskEntry>,
    pub counter: u64,
}

impl State {
    /// A fresh UUID-shaped identifier (deterministic, ordered like Pulp's UUIDv7).
    pub fn next_uuid(&mut self) -> String {
        self.counter += 1;
        format!("01a202de-0000-7000-8000-{:012x}", self.counter)
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
        let mut packages = entry
            .versions
            .last()
            .map(|v| v.packages.clone())
            .unwrap_or_default();
        let removed = remove.iter().filter(|p| packages.remove(*p)).count() as u64;
        let added = add.iter().filter(|p| packages.insert((*p).clone())).count() as u64;
        let number = entry.next_number;
        entry.next_number += 1;
        entry.versions.push(VersionEntry {
            number,
            created: at,
            packages,
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
        let href = PublicationHref::new(format!("{API}publications/rpm/rpm/{}/", self.next_uuid()));
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

    /// Starts a task whose effect lands after `delay`.
    pub fn start_task(
        &mut self,
        delay: Duration,
        effect: Effect,
        repo: Option<RepoId>,
    ) -> TaskHref {
        let is_sync = matches!(effect, Effect::Sync { .. });
        let href = TaskHref::new(format!("{API}tasks/{}/", self.next_uuid()));
        let now = Instant::now();
        let entry = TaskEntry {
            started: now,
            ready_at: now + delay,
            effect: Some(effect),
            state: TaskState::Running,
            error: None,
            created: Vec::new(),
            repo,
            is_sync,
            seq: self.counter,
        };
        self.tasks.insert(href.clone(), entry);
        href
    }

    /// Lands the effects of every task whose time has come, oldest first.
    pub fn settle(&mut self) {
        let now = Instant::now();
        let mut due: Vec<(u64, TaskHref)> = self
            .tasks
            .iter()
            .filter(|(_, t)| t.effect.is_some() && t.ready_at <= now)
            .map(|(h, t)| (t.seq, h.clone()))
            .collect();
        due.sort();
        for (_, href) in due {
            let effect = self.tasks.get_mut(&href).and_then(|t| t.effect.take());
            let result = effect.map(|e| self.apply(e));
            if let (Some(task), Some(result)) = (self.tasks.get_mut(&href), result) {
                match result {
                    Ok(created) => {
                        task.state = TaskState::Completed;
                        task.created = created;
                    }
                    Err(reason) => {
                        task.state = TaskState::Failed;
                        task.error = Some(reason);
                    }
                }
            }
        }
    }

    fn apply(&mut self, effect: Effect) -> Result<Vec<String>, String> {
        match effect {
            Effect::Publish { repo, number } => {
                let href = self.publish(&repo, number).map_err(|e| e.to_string())?;
                Ok(vec![href.as_str().to_owned()])
            }
            Effect::PointDistribution {
                distribution,
                publication,
            } => {
                let entry = self
                    .distribution_mut(&distribution)
                    .map_err(|e| e.to_string())?;
                entry.dist.publication = Some(publication);
                entry.repository = None;
                Ok(Vec::new())
            }
            Effect::Sync { repo, script } => match script {
                SyncScript::Fails { reason, .. } => Err(reason),
                // As Pulp: a sync that changes nothing makes no version and names none.
                SyncScript::Succeeds { add, remove, .. } if add.is_empty() && remove.is_empty() => {
                    Ok(Vec::new())
                }
                SyncScript::Succeeds { add, remove, .. } => {
                    let number = self
                        .add_version(&repo, &add, &remove, Utc::now())
                        .map_err(|e| e.to_string())?;
                    let entry = self.repo(&repo).map_err(|e| e.to_string())?;
                    Ok(vec![version_href(&entry.repo, number).as_str().to_owned()])
                }
            },
        }
    }

    pub fn task_report(&self, href: &TaskHref) -> Result<TaskReport, UpstreamError> {
        let task = self.tasks.get(href).ok_or_else(not_found("Task"))?;
        let progress = match (&task.effect, task.state) {
            (Some(Effect::Sync { script, .. }), TaskState::Running) => {
                sync_progress(script, task.started)
            }
            _ => Vec::new(),
        };
        Ok(TaskReport {
            href: href.clone(),
            state: task.state,
            progress,
            error: task.error.clone(),
            created_resources: task.created.clone(),
        })
    }
}

/// Progress of a simulated sync: metadata first, then artifacts downloaded over time.
fn sync_progress(script: &SyncScript, started: Instant) -> Vec<ProgressReport> {
    let (duration, total) = match script {
        SyncScript::Succeeds { duration, add, .. } => (*duration, add.len() as u64),
        SyncScript::Fails { duration, .. } => (*duration, 0),
    };
    let elapsed = started.elapsed().as_secs_f64() / duration.as_secs_f64().max(0.001);
    let metadata = ProgressReport {
        code: "sync.downloading.metadata".into(),
        message: "Downloading Metadata Files".into(),
        done: 1,
        total: None,
    };
    if total == 0 {
        return vec![metadata];
    }
    let done = ((elapsed.min(1.0)) * total as f64) as u64;
    let artifacts = ProgressReport {
        code: "sync.downloading.artifacts".into(),
        message: "Downloading Artifacts".into(),
        done,
        total: Some(total),
    };
    vec![metadata, artifacts]
}

pub(super) fn version_href(repo: &Repository, number: u64) -> VersionHref {
    repo.version_href(VersionNumber::new(number))
}

pub(super) fn not_found(kind: &'static str) -> impl Fn() -> UpstreamError {
    move || UpstreamError::Http {
        status: 404,
        message: format!("No {kind} matches the given query."),
    }
}

pub(super) fn bad_request(field: &str, message: &str) -> UpstreamError {
    UpstreamError::Http {
        status: 400,
        message: format!("{field}: {message}"),
    }
}
