//! `InMemoryPulp`: a Pulp 3 that lives in the process, with a builder for tests and the demo.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use chrono::{DateTime, Utc};

pub use super::state::SyncScript;
use super::state::{plugin_segments, DistEntry, RepoEntry, State, API};
use crate::domain::content::kind::ContentType;
use crate::domain::repository::{
    Distribution, DistributionHref, PublicationHref, RemoteHref, RepoId, RepoVerification,
    Repository, VersionNumber,
};

/// How the in-memory Pulp behaves in time.
#[derive(Debug, Clone, Copy)]
pub struct MemoryOptions {
    /// How long a publish or distribution task takes before its effect lands.
    pub task_delay: Duration,
    /// How long `wait_for_task` waits before answering `Timeout`.
    pub task_timeout: Duration,
    /// How long every call takes (a network round trip), so concurrency shows.
    pub latency: Duration,
}

impl Default for MemoryOptions {
    fn default() -> Self {
        Self {
            task_delay: Duration::from_millis(20),
            task_timeout: Duration::from_secs(30),
            latency: Duration::ZERO,
        }
    }
}

/// How many port calls [`InMemoryPulp::calls`] remembers.
pub const CALL_LOG_LIMIT: usize = 10_000;

/// A Pulp 3 (pulp_rpm) held in memory. Cheap to build; safe to share between tasks.
pub struct InMemoryPulp {
    pub(super) state: Mutex<State>,
    pub(super) options: MemoryOptions,
    calls: Mutex<std::collections::VecDeque<String>>,
    in_flight: AtomicUsize,
    most_in_flight: AtomicUsize,
}

/// Counts a call as in flight until dropped.
pub(super) struct InFlight<'a>(&'a AtomicUsize);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Default for InMemoryPulp {
    fn default() -> Self {
        Self::new(MemoryOptions::default())
    }
}

impl InMemoryPulp {
    pub fn new(options: MemoryOptions) -> Self {
        Self {
            state: Mutex::new(State::default()),
            options,
            calls: Mutex::new(std::collections::VecDeque::new()),
            in_flight: AtomicUsize::new(0),
            most_in_flight: AtomicUsize::new(0),
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state.settle();
        state
    }

    /// Notes one port call (operation and argument), for tests that check what reached
    /// upstream, and holds it in flight for the configured latency. Only the last
    /// [`CALL_LOG_LIMIT`] calls are kept: the demo runs for weeks.
    pub(super) async fn enter(&self, call: String) -> InFlight<'_> {
        {
            let mut calls = self.calls.lock().unwrap_or_else(|p| p.into_inner());
            if calls.len() == CALL_LOG_LIMIT {
                calls.pop_front();
            }
            calls.push_back(call);
        }
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_in_flight.fetch_max(now, Ordering::SeqCst);
        let guard = InFlight(&self.in_flight);
        if !self.options.latency.is_zero() {
            tokio::time::sleep(self.options.latency).await;
        }
        guard
    }

    /// The most calls that were ever in flight at once (resets to zero).
    pub fn take_most_in_flight(&self) -> usize {
        self.most_in_flight.swap(0, Ordering::SeqCst)
    }

    /// The port calls made so far (the last [`CALL_LOG_LIMIT`]), as `operation argument`.
    pub fn calls(&self) -> Vec<String> {
        let calls = self.calls.lock().unwrap_or_else(|p| p.into_inner());
        calls.iter().cloned().collect()
    }

    /// Adds a repository with version 0 (empty), as Pulp does; of the content type its
    /// `verification` names (a Debian repository has pulp_deb's addresses).
    pub fn add_repo(&self, name: &str, verification: RepoVerification) -> RepoId {
        self.add_repo_at(name, verification, Utc::now())
    }

    /// Like [`Self::add_repo`], with version 0 created at `at`.
    pub fn add_repo_at(
        &self,
        name: &str,
        verification: RepoVerification,
        at: DateTime<Utc>,
    ) -> RepoId {
        let mut state = self.lock();
        let uuid = state.next_uuid();
        let id = RepoId::parse(&uuid).expect("generated ids are UUIDs");
        let repo = Repository {
            id: id.clone(),
            href: format!(
                "{API}repositories/{}{uuid}/",
                plugin_segments(verification.content_type)
            ),
            name: Some(name.to_owned()),
            verification,
            latest_version: None,
            remote: None,
            retain_versions: None,
        };
        state.repos.insert(
            id.clone(),
            RepoEntry {
                repo,
                versions: Vec::new(),
                next_number: 0,
            },
        );
        state
            .add_version(&id, &[], &[], at)
            .expect("the repository was just added");
        id
    }

    /// Adds a version with `add` and `remove` applied to the latest one; answers its number.
    pub fn add_version(&self, id: &RepoId, add: &[&str], remove: &[&str]) -> VersionNumber {
        self.add_version_at(id, add, remove, Utc::now())
    }

    pub fn add_version_at(
        &self,
        id: &RepoId,
        add: &[&str],
        remove: &[&str],
        at: DateTime<Utc>,
    ) -> VersionNumber {
        let owned = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let number = self
            .lock()
            .add_version(id, &owned(add), &owned(remove), at)
            .expect("known repository");
        VersionNumber::new(number)
    }

    /// Deletes a version (its changes fold into the next, as in Pulp).
    pub fn delete_version(&self, id: &RepoId, number: VersionNumber) {
        self.lock()
            .delete_version(id, number.get())
            .expect("known version");
    }

    /// Publishes a version at once (no task), answering the publication.
    pub fn publish(&self, id: &RepoId, number: VersionNumber) -> PublicationHref {
        self.lock()
            .publish(id, number.get())
            .expect("known version")
    }

    /// Adds a distribution serving `publication` (or nothing).
    pub fn add_distribution(
        &self,
        name: &str,
        publication: Option<&PublicationHref>,
    ) -> DistributionHref {
        self.insert_distribution(name, publication.cloned(), None)
    }

    /// Adds a distribution of a Debian repository (pulp_deb's address), serving `publication`.
    pub fn add_deb_distribution(
        &self,
        name: &str,
        publication: Option<&PublicationHref>,
    ) -> DistributionHref {
        let href = self.insert_distribution(name, publication.cloned(), None);
        let deb = DistributionHref::new(href.as_str().replace(
            plugin_segments(ContentType::Rpm),
            plugin_segments(ContentType::Deb),
        ));
        let mut state = self.lock();
        if let Some(entry) = state.distributions.iter_mut().find(|d| d.dist.href == href) {
            entry.dist.href = deb.clone();
        }
        deb
    }

    /// Adds a distribution that follows a repository directly (no publication).
    pub fn add_repo_distribution(&self, name: &str, repo: &RepoId) -> DistributionHref {
        self.insert_distribution(name, None, Some(repo.clone()))
    }

    fn insert_distribution(
        &self,
        name: &str,
        publication: Option<PublicationHref>,
        repository: Option<RepoId>,
    ) -> DistributionHref {
        let mut state = self.lock();
        let href =
            DistributionHref::new(format!("{API}distributions/rpm/rpm/{}/", state.next_uuid()));
        let dist = Distribution {
            href: href.clone(),
            name: name.to_owned(),
            base_path: name.to_owned(),
            publication,
            revision: Some(state.next_revision()),
        };
        state.distributions.push(DistEntry { dist, repository });
        href
    }

    /// Deletes a distribution by name (as an operator might, between two calls).
    pub fn remove_distribution(&self, name: &str) {
        self.lock().distributions.retain(|d| d.dist.name != name);
    }

    /// The distribution named `name`, as it is now.
    pub fn distribution(&self, name: &str) -> Option<Distribution> {
        self.lock()
            .distributions
            .iter()
            .find(|d| d.dist.name == name)
            .map(|d| d.dist.clone())
    }

    /// The version number a publication was made from.
    pub fn publication_version(&self, href: &PublicationHref) -> Option<VersionNumber> {
        self.lock()
            .publications
            .get(href)
            .and_then(|p| p.repository_version.number())
    }

    /// The version the distribution named `name` serves now, when it serves a publication.
    pub fn serving_version(&self, name: &str) -> Option<VersionNumber> {
        let publication = self.distribution(name)?.publication?;
        self.publication_version(&publication)
    }

    /// Gives a repository a remote whose synchronizations follow `script`.
    pub fn add_remote(&self, id: &RepoId, script: SyncScript) -> RemoteHref {
        let mut state = self.lock();
        let href = RemoteHref::new(format!("{API}remotes/rpm/rpm/{}/", state.next_uuid()));
        state.remotes.insert(href.clone(), script);
        if let Ok(entry) = state.repo_mut(id) {
            entry.repo.remote = Some(href.clone());
        }
        href
    }
}

impl InMemoryPulp {
    /// Sets a repository's `retain_repo_versions` (the versions are not deleted here).
    pub fn set_retain_versions(&self, id: &crate::domain::repository::RepoId, retain: Option<u64>) {
        if let Ok(entry) = self.lock().repo_mut(id) {
            entry.repo.retain_versions = retain;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_call_log_keeps_the_last_calls_only() {
        let pulp = InMemoryPulp::default();
        for n in 0..CALL_LOG_LIMIT + 5 {
            drop(pulp.enter(format!("call {n}")).await);
        }
        let calls = pulp.calls();
        assert_eq!(calls.len(), CALL_LOG_LIMIT);
        assert_eq!(calls[0], "call 5");
        assert_eq!(
            calls.last().unwrap(),
            &format!("call {}", CALL_LOG_LIMIT + 4)
        );
    }
}
