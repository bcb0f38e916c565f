//! A bounded in-memory cache of computed diffs. Repository versions are immutable, so a diff
//! between two of them never changes; the cache holds at most a budget of changes (packages
//! plus advisories) and forgets the oldest diffs first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use crate::app::parts::StatePart;
use crate::app::state::AppState;
pub use crate::domain::diff::DiffKey;
use crate::domain::diff::VersionDiff;

/// Shared by every clone of the state.
#[derive(Clone)]
pub struct DiffCache {
    inner: Arc<Mutex<Entries>>,
    budget: usize,
}

#[derive(Default)]
struct Entries {
    diffs: HashMap<DiffKey, Arc<VersionDiff>>,
    /// Oldest first.
    order: VecDeque<DiffKey>,
    weight: usize,
}

/// Changes held by default: two diffs of 30,000 package changes, or hundreds of typical ones.
/// Set so that a console whose cache is full of 30,000-change diffs stays within 64 MiB
/// resident (`cargo bench --bench diff_store`, glibc malloc): a change held costs ~400 bytes
/// (its 104-byte entry, name, arch and one build a side, 128 bytes each with its two strings),
/// so 64,000 changes are ~24 MiB live; with the holes freed diffs leave in the heap and a diff
/// being read while the cache is full, the process peaked at 46.7 MiB (from 2.8 MiB before
/// filling), and the console itself takes ~11 MiB: ~55 MiB. 100,000 peaked at 58 MiB
/// (~66 MiB with the console), 200,000 (the earlier budget) at 92–97 MiB.
pub const DEFAULT_BUDGET: usize = 64_000;

impl Default for DiffCache {
    fn default() -> Self {
        Self::with_budget(DEFAULT_BUDGET)
    }
}

fn weight(diff: &VersionDiff) -> usize {
    let a = &diff.advisories;
    1 + diff.packages.len() + a.added.len() + a.dropped.len() + a.updated.len()
}

impl DiffCache {
    pub fn with_budget(budget: usize) -> Self {
        Self {
            inner: Arc::default(),
            budget,
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn get(&self, key: &DiffKey) -> Option<Arc<VersionDiff>> {
        self.entries().diffs.get(key).cloned()
    }

    /// Keeps `diff` unless it alone is over the budget, then forgets the oldest diffs until
    /// the budget holds.
    pub fn insert(&self, key: DiffKey, diff: Arc<VersionDiff>) {
        let size = weight(&diff);
        if size > self.budget {
            return;
        }
        let mut entries = self.entries();
        if let Some(old) = entries.diffs.insert(key.clone(), diff) {
            entries.weight -= weight(&old);
            entries.order.retain(|k| k != &key);
        }
        entries.weight += size;
        entries.order.push_back(key);
        while entries.weight > self.budget {
            let Some(oldest) = entries.order.pop_front() else {
                break;
            };
            if let Some(gone) = entries.diffs.remove(&oldest) {
                entries.weight -= weight(&gone);
            }
        }
    }

    /// How many changes the held diffs count (what the budget bounds).
    pub fn weight(&self) -> usize {
        self.entries().weight
    }

    /// How many diffs are held.
    pub fn len(&self) -> usize {
        self.entries().diffs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Diffs a state holds: a rebuilt state (another upstream, in tests) starts empty.
impl StatePart for DiffCache {
    const ANEW_ON_REBUILD: bool = true;
}

impl AppState {
    /// Diffs already computed (versions are immutable).
    pub(crate) fn diffs(&self) -> Arc<DiffCache> {
        self.part()
    }

    /// How many changes the diffs held in memory count (benchmarks report it).
    pub fn diffs_held(&self) -> usize {
        self.diffs().weight()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::{ChangeKind, Evr, PackageChange};
    use crate::domain::repository::VersionHref;

    fn diff_of(n: usize) -> Arc<VersionDiff> {
        let change = PackageChange {
            name: "p".into(),
            arch: "noarch".into(),
            kind: ChangeKind::Added,
            old: vec![],
            new: vec![Evr::new(0, "1", "1")],
            security: false,
            kept: None,
        };
        Arc::new(VersionDiff {
            packages: vec![change; n],
            ..VersionDiff::default()
        })
    }

    fn key(n: u64) -> DiffKey {
        (None, VersionHref::new(format!("/r/versions/{n}/")))
    }

    #[test]
    fn keeps_diffs_within_the_budget_and_forgets_the_oldest_first() {
        let cache = DiffCache::with_budget(30);
        cache.insert(key(1), diff_of(9));
        cache.insert(key(2), diff_of(9));
        cache.insert(key(3), diff_of(9));
        assert_eq!(cache.len(), 3);
        cache.insert(key(4), diff_of(9));
        assert_eq!(cache.len(), 3);
        assert!(cache.get(&key(1)).is_none());
        assert!(cache.get(&key(4)).is_some() && cache.get(&key(2)).is_some());
    }

    #[test]
    fn a_diff_bigger_than_the_budget_is_not_kept_and_keeps_nothing_out() {
        let cache = DiffCache::with_budget(10);
        cache.insert(key(1), diff_of(5));
        cache.insert(key(2), diff_of(50));
        assert!(cache.get(&key(2)).is_none());
        assert_eq!(cache.len(), 1);
        cache.insert(key(1), diff_of(5));
        assert_eq!(cache.len(), 1, "re-inserting replaces");
    }
}
