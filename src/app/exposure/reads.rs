//! The reads of one served version for a question: its builds of the question's package
//! names (one filtered request, `name__in=` chunked by the adapter) and, for advisories,
//! which of them it holds. Versions never change, so each read is kept (bounded: the oldest
//! reads are forgotten first) and a warm question costs no request for them. Also kept: the
//! distributions the last question needed, so that the next reads them while it lists the
//! repositories (checked against what it then needs).

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use crate::app::parts::StatePart;
use crate::app::state::AppState;
use crate::domain::diff::Package;
use crate::domain::repository::VersionHref;
use crate::ports::{AdvisoryCatalog, PackageCatalog, UpstreamError};

/// Reads kept of each kind, at most.
const KEPT: usize = 20_000;

/// Reads of one kind, by version and the names (or ids) asked.
type Kept<V> = Arc<Mutex<Bounded<(VersionHref, Vec<String>), Arc<V>>>>;

/// The reads kept, shared by every question (cheap to clone).
#[derive(Clone, Default)]
pub struct ExposureReads {
    builds: Kept<Vec<Package>>,
    held: Kept<Vec<String>>,
    last_needed: Arc<Mutex<Option<Needed>>>,
}

/// The distributions a question needed: every one, or those named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Needed {
    Every,
    Named(BTreeSet<String>),
}

impl ExposureReads {
    /// The builds `version` holds of `names` (sorted, each once).
    pub async fn builds(
        &self,
        content: &dyn PackageCatalog,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Arc<Vec<Package>>, UpstreamError> {
        if names.is_empty() {
            return Ok(Arc::default());
        }
        let key = (version.clone(), names.to_vec());
        if let Some(kept) = lock(&self.builds).get(&key) {
            return Ok(kept);
        }
        let read = Arc::new(content.package_builds(version, names).await?);
        lock(&self.builds).put(key, read.clone());
        Ok(read)
    }

    /// Which of the advisories `ids` (sorted, each once) `version` holds.
    pub async fn held(
        &self,
        content: &dyn AdvisoryCatalog,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Arc<Vec<String>>, UpstreamError> {
        if ids.is_empty() {
            return Ok(Arc::default());
        }
        let key = (version.clone(), ids.to_vec());
        if let Some(kept) = lock(&self.held).get(&key) {
            return Ok(kept);
        }
        let read = Arc::new(content.advisories_held(version, ids).await?);
        lock(&self.held).put(key, read.clone());
        Ok(read)
    }

    /// The distributions the last question needed (none asked yet: `None`).
    pub fn last_needed(&self) -> Option<Needed> {
        lock(&self.last_needed).clone()
    }

    /// Keeps what this question needed, for the next.
    pub fn needed(&self, needed: Needed) {
        *lock(&self.last_needed) = Some(needed);
    }

    /// Reads kept now (both kinds).
    pub fn kept(&self) -> usize {
        lock(&self.builds).len() + lock(&self.held).len()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// A map that forgets its oldest entries beyond [`KEPT`].
struct Bounded<K, V> {
    map: HashMap<K, V>,
    order: VecDeque<K>,
}

impl<K, V> Default for Bounded<K, V> {
    fn default() -> Self {
        Self {
            map: HashMap::new(),
            order: VecDeque::new(),
        }
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Bounded<K, V> {
    fn get(&self, key: &K) -> Option<V> {
        self.map.get(key).cloned()
    }

    fn put(&mut self, key: K, value: V) {
        if self.map.insert(key.clone(), value).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > KEPT {
            if let Some(oldest) = self.order.pop_front() {
                self.map.remove(&oldest);
            }
        }
    }

    fn len(&self) -> usize {
        self.map.len()
    }
}

impl StatePart for ExposureReads {}

impl AppState {
    /// The exposure's reads of versions, kept (versions are immutable).
    pub(crate) fn exposure_reads(&self) -> Arc<ExposureReads> {
        self.part()
    }

    /// How many version reads the exposure keeps (benchmarks report it).
    pub fn exposure_reads_kept(&self) -> usize {
        self.exposure_reads().kept()
    }
}
