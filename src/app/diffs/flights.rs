//! Diffs being computed right now, by their key, so that a confirm step opened while the
//! same diff is computed ahead (or for another operator) waits for that computation instead
//! of asking upstream again (single flight). A computation dropped half-way (its request
//! went away, or the console is stopping) lets the next one that waits start again.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::domain::diff::VersionDiff;
use crate::ports::UpstreamError;

use crate::app::diffs::cache::DiffKey;
use crate::app::parts::StatePart;
use crate::app::state::AppState;

type Answer = Option<Result<Arc<VersionDiff>, UpstreamError>>;

/// Shared by every clone of the state.
#[derive(Clone, Default)]
pub struct DiffFlights(Arc<Mutex<HashMap<DiffKey, watch::Receiver<Answer>>>>);

/// Removes a flight when its computation ends or is dropped.
struct Landing<'a> {
    flights: &'a DiffFlights,
    key: &'a DiffKey,
}

impl Drop for Landing<'_> {
    fn drop(&mut self) {
        self.flights.lock().remove(self.key);
    }
}

impl DiffFlights {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<DiffKey, watch::Receiver<Answer>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The answer of the computation of `key` under way, or of `compute`, run here when
    /// none is.
    pub async fn share<F, Fut>(
        &self,
        key: &DiffKey,
        compute: F,
    ) -> Result<Arc<VersionDiff>, UpstreamError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<Arc<VersionDiff>, UpstreamError>>,
    {
        loop {
            let joined = {
                let mut flights = self.lock();
                match flights.get(key) {
                    Some(under_way) => Err(under_way.clone()),
                    None => {
                        let (tx, rx) = watch::channel(None);
                        flights.insert(key.clone(), rx);
                        Ok(tx)
                    }
                }
            };
            match joined {
                Ok(tx) => {
                    let _landing = Landing { flights: self, key };
                    let answer = compute().await;
                    tx.send_replace(Some(answer.clone()));
                    return answer;
                }
                Err(mut rx) => {
                    if let Ok(answer) = rx.wait_for(Option::is_some).await {
                        if let Some(answer) = answer.clone() {
                            return answer;
                        }
                    }
                    // The computation was dropped before it answered: try again.
                }
            }
        }
    }

    /// How many computations are under way.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl StatePart for DiffFlights {
    const ANEW_ON_REBUILD: bool = true;
}

impl AppState {
    /// Diffs being computed now.
    pub(crate) fn diff_flights(&self) -> Arc<DiffFlights> {
        self.part()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;
    use crate::domain::repository::VersionHref;

    fn key() -> DiffKey {
        (None, VersionHref::new("/r/versions/1/"))
    }

    #[tokio::test]
    async fn concurrent_askers_share_one_computation() {
        let flights = DiffFlights::default();
        let runs = AtomicUsize::new(0);
        let compute = || async {
            runs.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(30)).await;
            Ok(Arc::new(VersionDiff::default()))
        };
        let k = key();
        let (a, b, c) = tokio::join!(
            flights.share(&k, compute),
            flights.share(&k, compute),
            flights.share(&k, compute)
        );
        assert!(a.is_ok() && b.is_ok() && c.is_ok());
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert!(flights.is_empty(), "landed");
    }

    #[tokio::test]
    async fn a_computation_dropped_half_way_lets_the_one_waiting_compute() {
        let flights = DiffFlights::default();
        let k = key();
        let leader = {
            let (flights, k) = (flights.clone(), k.clone());
            tokio::spawn(async move {
                flights
                    .share(&k, || async {
                        tokio::time::sleep(Duration::from_secs(60)).await;
                        Ok(Arc::new(VersionDiff::default()))
                    })
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        let waiter = {
            let (flights, k) = (flights.clone(), k.clone());
            tokio::spawn(async move {
                flights
                    .share(&k, || async { Ok(Arc::new(VersionDiff::default())) })
                    .await
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(
            !waiter.is_finished(),
            "it waits for the computation under way"
        );
        leader.abort();
        let answer = tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("not left waiting")
            .expect("no panic");
        assert!(answer.is_ok());
        assert!(flights.is_empty());
    }
}
