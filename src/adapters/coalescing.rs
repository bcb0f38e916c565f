//! `Coalescing`: a [`RepositoryManager`] in front of another that turns identical reads made
//! at the same time into one upstream call (single flight): twenty operators opening the
//! same page cost about what one does. Nothing is kept once a call has answered, so no
//! answer is older than the call that gave it. Changes and `get_distribution` (the fresh
//! re-read a deploy depends on) always go through.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::sync::watch;

use crate::domain::repository::{
    Distribution, DistributionChange, DistributionHref, Publication, PublicationHref, RemoteHref,
    RepoId, RepoVersion, Repository, VersionHref, VersionNumber,
};
use crate::domain::sync::SyncState;
use crate::ports::{Page, PageRequest, RepositoryManager, UpstreamError, WriteOutcome};

type Answer<V> = Option<Result<V, UpstreamError>>;

/// The calls in flight for one kind of read, by their arguments.
struct Flights<K, V>(Mutex<HashMap<K, watch::Receiver<Answer<V>>>>);

impl<K, V> Default for Flights<K, V> {
    fn default() -> Self {
        Self(Mutex::new(HashMap::new()))
    }
}

/// Takes the flight off the board when its leader ends, answered or dropped.
struct Landing<'a, K: Eq + Hash, V>(&'a Flights<K, V>, K);

impl<K: Eq + Hash, V> Drop for Landing<'_, K, V> {
    fn drop(&mut self) {
        let mut board = self.0 .0.lock().unwrap_or_else(|p| p.into_inner());
        board.remove(&self.1);
    }
}

impl<K: Eq + Hash + Clone, V: Clone> Flights<K, V> {
    /// `fetch`'s answer, shared with every identical call made while it runs.
    async fn run<F>(&self, key: K, fetch: F) -> Result<V, UpstreamError>
    where
        F: Future<Output = Result<V, UpstreamError>>,
    {
        let joined = {
            let mut board = self.0.lock().unwrap_or_else(|p| p.into_inner());
            match board.get(&key) {
                Some(flight) => Err(flight.clone()),
                None => {
                    let (leader, flight) = watch::channel(None);
                    board.insert(key.clone(), flight);
                    Ok(leader)
                }
            }
        };
        match joined {
            Ok(leader) => {
                let landing = Landing(self, key);
                let answer = fetch.await;
                drop(landing);
                let _ = leader.send(Some(answer.clone()));
                answer
            }
            Err(mut flight) => {
                let shared = flight
                    .wait_for(Option::is_some)
                    .await
                    .ok()
                    .and_then(|answer| answer.clone());
                match shared {
                    // A failure is logged again under this caller's correlation id.
                    Some(answer) => answer.map_err(UpstreamError::logged),
                    // The leader was dropped before answering (its client went away).
                    None => fetch.await,
                }
            }
        }
    }
}

/// Coalesces identical concurrent reads of `inner`.
pub struct Coalescing {
    inner: Arc<dyn RepositoryManager>,
    repo_pages: Flights<(u64, u64), Page<Repository>>,
    repos: Flights<RepoId, Repository>,
    version_pages: Flights<(RepoId, u64, u64), Page<RepoVersion>>,
    numbered: Flights<(RepoId, Vec<VersionNumber>), Vec<RepoVersion>>,
    newer: Flights<(RepoId, VersionNumber), u64>,
    distributions: Flights<(), Vec<Distribution>>,
    named: Flights<Vec<String>, Vec<Distribution>>,
    publication: Flights<PublicationHref, Publication>,
    some_publications: Flights<Vec<PublicationHref>, Vec<Publication>>,
    changes: Flights<(DistributionHref, u64), Vec<DistributionChange>>,
    syncs: Flights<Vec<RepoId>, HashMap<RepoId, SyncState>>,
}

impl Coalescing {
    pub fn new(inner: Arc<dyn RepositoryManager>) -> Self {
        Self {
            inner,
            repo_pages: Flights::default(),
            repos: Flights::default(),
            version_pages: Flights::default(),
            numbered: Flights::default(),
            newer: Flights::default(),
            distributions: Flights::default(),
            named: Flights::default(),
            publication: Flights::default(),
            some_publications: Flights::default(),
            changes: Flights::default(),
            syncs: Flights::default(),
        }
    }
}

#[async_trait]
impl RepositoryManager for Coalescing {
    async fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError> {
        let key = (page.offset, page.limit);
        self.repo_pages.run(key, self.inner.list_repos(page)).await
    }

    async fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError> {
        self.repos.run(id.clone(), self.inner.get_repo(id)).await
    }

    async fn version_page(
        &self,
        id: &RepoId,
        page: PageRequest,
    ) -> Result<Page<RepoVersion>, UpstreamError> {
        let key = (id.clone(), page.offset, page.limit);
        self.version_pages
            .run(key, self.inner.version_page(id, page))
            .await
    }

    async fn versions_numbered(
        &self,
        id: &RepoId,
        numbers: &[VersionNumber],
    ) -> Result<Vec<RepoVersion>, UpstreamError> {
        let key = (id.clone(), numbers.to_vec());
        self.numbered
            .run(key, self.inner.versions_numbered(id, numbers))
            .await
    }

    async fn versions_newer_than(
        &self,
        id: &RepoId,
        number: VersionNumber,
    ) -> Result<u64, UpstreamError> {
        self.newer
            .run(
                (id.clone(), number),
                self.inner.versions_newer_than(id, number),
            )
            .await
    }

    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError> {
        self.distributions
            .run((), self.inner.list_distributions())
            .await
    }

    async fn distributions_named(
        &self,
        names: &[String],
    ) -> Result<Vec<Distribution>, UpstreamError> {
        let fetch = self.inner.distributions_named(names);
        self.named.run(names.to_vec(), fetch).await
    }

    async fn get_distribution(
        &self,
        href: &DistributionHref,
    ) -> Result<Distribution, UpstreamError> {
        self.inner.get_distribution(href).await
    }

    async fn get_publication(&self, href: &PublicationHref) -> Result<Publication, UpstreamError> {
        let fetch = self.inner.get_publication(href);
        self.publication.run(href.clone(), fetch).await
    }

    async fn publications(
        &self,
        hrefs: &[PublicationHref],
    ) -> Result<Vec<Publication>, UpstreamError> {
        let fetch = self.inner.publications(hrefs);
        self.some_publications.run(hrefs.to_vec(), fetch).await
    }

    /// Read for a promotion, fresh: never shared.
    async fn reusable_publications(
        &self,
        repo: &RepoId,
        version: &VersionHref,
    ) -> Result<Vec<PublicationHref>, UpstreamError> {
        self.inner.reusable_publications(repo, version).await
    }

    async fn publish(&self, version: &VersionHref) -> WriteOutcome<PublicationHref> {
        self.inner.publish(version).await
    }

    async fn point_distribution(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> WriteOutcome<()> {
        self.inner
            .point_distribution(distribution, publication)
            .await
    }

    async fn distribution_changes(
        &self,
        distribution: &DistributionHref,
        limit: u64,
    ) -> Result<Vec<DistributionChange>, UpstreamError> {
        let fetch = self.inner.distribution_changes(distribution, limit);
        self.changes.run((distribution.clone(), limit), fetch).await
    }

    async fn start_sync(
        &self,
        id: &RepoId,
        remote: &RemoteHref,
    ) -> Result<SyncState, UpstreamError> {
        self.inner.start_sync(id, remote).await
    }

    async fn sync_states(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, SyncState>, UpstreamError> {
        self.syncs
            .run(ids.to_vec(), self.inner.sync_states(ids))
            .await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn identical_concurrent_calls_share_one_answer_and_later_ones_ask_again() {
        let flights: Flights<u8, usize> = Flights::default();
        let calls = AtomicUsize::new(0);
        let fetch = || async {
            let n = calls.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(30)).await;
            Ok(n)
        };
        let together = futures::future::join_all((0..20).map(|_| flights.run(1, fetch()))).await;
        assert!(together.iter().all(|a| a == &Ok(0)), "{together:?}");
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert_eq!(flights.run(1, fetch()).await, Ok(1), "nothing is kept");
        assert_eq!(
            flights.run(2, fetch()).await,
            Ok(2),
            "other arguments, other call"
        );
    }

    #[tokio::test]
    async fn a_failure_is_shared_too_and_not_kept() {
        let flights: Flights<u8, usize> = Flights::default();
        let failing = || async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Err(UpstreamError::Timeout("slow".into()))
        };
        let (a, b) = futures::join!(flights.run(1, failing()), flights.run(1, failing()));
        assert_eq!(a, b);
        assert!(a.is_err());
        assert_eq!(flights.run(1, async { Ok(7) }).await, Ok(7));
    }

    #[tokio::test]
    async fn a_follower_whose_leader_went_away_asks_itself() {
        let flights: Arc<Flights<u8, usize>> = Arc::default();
        let leader = {
            let flights = flights.clone();
            tokio::spawn(async move {
                flights
                    .run(1, async {
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        Ok(0)
                    })
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        let follower = {
            let flights = flights.clone();
            tokio::spawn(async move { flights.run(1, async { Ok(9) }).await })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        leader.abort();
        assert_eq!(follower.await.unwrap(), Ok(9));
    }
}
