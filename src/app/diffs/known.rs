//! Diffs already computed, wherever they are kept: in this process's memory
//! ([`crate::app::diffs::cache`]) and, when one is configured, in the diff store shared with later
//! runs and the other replicas ([`crate::ports::DiffStore`]). Versions never change, so a diff
//! found in either is right; the store is only ever a shortcut: its failures are logged and
//! the diff is computed again, never a failed page.

use std::sync::Arc;

use crate::domain::diff::{DiffKey, VersionDiff};

use crate::app::state::AppState;

/// The diff `key` names, if it was computed before: from memory, else from the diff store
/// (then kept in memory too). `None` means compute it (and hand it to [`remember_diff`]). A
/// store that cannot be read is logged (`tracing::warn`) and answers `None`.
#[tracing::instrument(skip_all, fields(from = ?key.0.as_ref().map(|h| h.as_str()), to = %key.1))]
pub async fn known_diff(state: &AppState, key: &DiffKey) -> Option<Arc<VersionDiff>> {
    if let Some(diff) = state.diffs().get(key) {
        return Some(diff);
    }
    let store = state.diff_store.as_ref()?;
    match store.get(key).await {
        Ok(Some(mut diff)) => {
            diff.shrink_to_fit();
            let diff = Arc::new(diff);
            state.diffs().insert(key.clone(), diff.clone());
            Some(diff)
        }
        Ok(None) => None,
        Err(error) => {
            tracing::warn!(%error, "the diff store could not be read; computing the diff");
            None
        }
    }
}

/// Keeps a diff just computed and answers it, shared: in memory, and in the diff store when
/// there is one (awaited, so a diff remembered is found by the next [`known_diff`] of any
/// process sharing the store). Its lists are first shrunk to fit ([`VersionDiff::shrink_to_fit`]),
/// which the memory budget counts on. A store that cannot be written is logged
/// (`tracing::warn`), never an error: the diff is answered all the same.
#[tracing::instrument(skip_all, fields(from = ?key.0.as_ref().map(|h| h.as_str()), to = %key.1))]
pub async fn remember_diff(
    state: &AppState,
    key: DiffKey,
    mut diff: VersionDiff,
) -> Arc<VersionDiff> {
    diff.shrink_to_fit();
    if let Some(store) = &state.diff_store {
        if let Err(error) = store.put(&key, &diff).await {
            tracing::warn!(%error, "the diff could not be stored; it is kept in memory only");
        }
    }
    let diff = Arc::new(diff);
    state.diffs().insert(key, diff.clone());
    diff
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use async_trait::async_trait;

    use super::*;
    use crate::adapters::identity::fixed::FixedOperator;
    use crate::adapters::memory::{FixedClock, InMemoryPulp, RecordingAuditSink};
    use crate::domain::diff::AdvisoryDiff;
    use crate::domain::repository::VersionHref;
    use crate::ports::{DiffStore, DiffStoreError};

    /// Keeps diffs in a map and counts its reads; or fails every call.
    #[derive(Default)]
    struct MapStore {
        diffs: Mutex<HashMap<DiffKey, VersionDiff>>,
        gets: Mutex<usize>,
        broken: bool,
    }

    #[async_trait]
    impl DiffStore for MapStore {
        async fn get(&self, key: &DiffKey) -> Result<Option<VersionDiff>, DiffStoreError> {
            *self.gets.lock().unwrap() += 1;
            self.check()?;
            Ok(self.diffs.lock().unwrap().get(key).cloned())
        }
        async fn put(&self, key: &DiffKey, diff: &VersionDiff) -> Result<(), DiffStoreError> {
            self.check()?;
            self.diffs.lock().unwrap().insert(key.clone(), diff.clone());
            Ok(())
        }
        fn target(&self) -> String {
            "a map".into()
        }
    }

    impl MapStore {
        fn check(&self) -> Result<(), DiffStoreError> {
            match self.broken {
                true => Err(DiffStoreError {
                    target: self.target(),
                    reason: "disk full".into(),
                }),
                false => Ok(()),
            }
        }
    }

    fn state_with(store: Option<Arc<MapStore>>) -> AppState {
        let pulp = Arc::new(InMemoryPulp::default());
        let clock = Arc::new(FixedClock(chrono::Utc::now()));
        let builder = AppState::builder(
            pulp.clone(),
            pulp,
            Arc::new(RecordingAuditSink::default()),
            clock,
            Arc::new(FixedOperator::default()),
        );
        match store {
            Some(store) => builder.diff_store(store).build(),
            None => builder.build(),
        }
    }

    fn key() -> DiffKey {
        let to = VersionHref::new("/pulp/api/v3/repositories/rpm/rpm/r/versions/2/");
        (None, to)
    }

    fn diff() -> VersionDiff {
        let mut advisories = AdvisoryDiff::default();
        advisories.updated.reserve(10);
        VersionDiff {
            packages: Vec::with_capacity(10),
            advisories,
        }
    }

    #[tokio::test]
    async fn a_diff_remembered_is_known_to_every_state_sharing_the_store() {
        let store = Arc::new(MapStore::default());
        let first = state_with(Some(store.clone()));
        assert!(known_diff(&first, &key()).await.is_none());
        let kept = remember_diff(&first, key(), diff()).await;
        assert_eq!(kept.packages.capacity(), 0, "shrunk to fit");
        let second = state_with(Some(store.clone()));
        let gets = *store.gets.lock().unwrap();
        assert_eq!(known_diff(&second, &key()).await, Some(kept.clone()));
        assert_eq!(known_diff(&second, &key()).await, Some(kept));
        assert_eq!(
            *store.gets.lock().unwrap(),
            gets + 1,
            "read from the store once, then from memory"
        );
    }

    #[tokio::test]
    async fn a_failing_store_is_a_miss_and_a_diff_is_still_remembered_in_memory() {
        let broken = Arc::new(MapStore {
            broken: true,
            ..MapStore::default()
        });
        let state = state_with(Some(broken));
        assert!(known_diff(&state, &key()).await.is_none());
        let kept = remember_diff(&state, key(), diff()).await;
        assert_eq!(known_diff(&state, &key()).await, Some(kept));
        let alone = state_with(None);
        remember_diff(&alone, key(), diff()).await;
        assert!(known_diff(&alone, &key()).await.is_some(), "memory only");
    }
}
