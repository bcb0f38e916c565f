//! What pages saw of each repository's environments: per environment the distribution, its
//! revision and the version it served when last read, so that a page reads an environment's
//! record, and a deploy's facts the live version, at once with the rest (checked against
//! the environment as read, and read again when it moved), and upstream's record of its
//! changes while it stays whole (see [`WholeRecord`]); and each repository's name, which
//! the environments' distribution patterns need before the repository is read. Hints only:
//! never a fact a deploy relies on.

use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;

use crate::domain::environment::EnvironmentName;
use crate::domain::repository::{
    Distribution, DistributionChange, DistributionHref, DistributionRevision, RepoId,
    VersionNumber, WholeRecord,
};
use std::sync::Arc;

use crate::app::parts::StatePart;
use crate::app::state::AppState;

/// Environments of repositories remembered, at most: the least recently read go first.
const SEEN_KEPT: NonZeroUsize = NonZeroUsize::new(10_000).expect("not zero");

/// One environment of one repository.
type Key = (RepoId, EnvironmentName);

/// One environment of one repository when last read.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub distribution: DistributionHref,
    pub revision: Option<DistributionRevision>,
    /// The version of the repository it served.
    pub serving: Option<VersionNumber>,
    /// Upstream's record of `distribution`, when one was kept.
    pub record: Option<WholeRecord>,
}

impl Seen {
    /// Whether the kept record is whole at the revision last seen (so probably still is:
    /// [`Self::record_of`] tells once production is read again).
    pub fn record_current(&self) -> bool {
        self.record
            .as_ref()
            .is_some_and(|record| record.at(self.revision.as_ref()).is_some())
    }

    /// The kept record of `production` as read now, when it is still whole.
    pub fn record_of(&self, production: &Distribution) -> Option<Vec<DistributionChange>> {
        if self.distribution != production.href {
            return None;
        }
        let record = self.record.as_ref()?;
        record.at(production.revision.as_ref()).map(<[_]>::to_vec)
    }
}

/// The distribution of each environment of each repository when last read, and the
/// repositories' names.
pub struct SeenEnvironments {
    seen: Mutex<LruCache<Key, Seen>>,
    names: Mutex<LruCache<RepoId, String>>,
}

impl Default for SeenEnvironments {
    fn default() -> Self {
        Self {
            seen: Mutex::new(LruCache::new(SEEN_KEPT)),
            names: Mutex::new(LruCache::new(SEEN_KEPT)),
        }
    }
}

impl SeenEnvironments {
    pub(crate) fn get(&self, id: &RepoId, environment: &EnvironmentName) -> Option<Seen> {
        self.lock().get(&key(id, environment)).cloned()
    }

    /// The repository's name when last read.
    pub(crate) fn name(&self, id: &RepoId) -> Option<String> {
        let mut names = self.names.lock().unwrap_or_else(|p| p.into_inner());
        names.get(id).cloned()
    }

    pub(crate) fn saw_name(&self, id: &RepoId, name: &str) {
        let mut names = self.names.lock().unwrap_or_else(|p| p.into_inner());
        if names.peek(id).map(String::as_str) != Some(name) {
            names.put(id.clone(), name.to_owned());
        }
    }

    /// Production of `id` as read now, serving version `serving` of it; the record kept
    /// stays while it is the same distribution (whether it is still whole is judged on its
    /// revision when used).
    pub(crate) fn saw(
        &self,
        id: &RepoId,
        environment: &EnvironmentName,
        production: Option<&Distribution>,
        serving: Option<VersionNumber>,
    ) {
        let mut seen = self.lock();
        let id = &key(id, environment);
        let Some(production) = production else {
            seen.pop(id);
            return;
        };
        let record = seen
            .peek(id)
            .filter(|s| s.distribution == production.href)
            .and_then(|s| s.record.clone());
        seen.put(
            id.clone(),
            Seen {
                distribution: production.href.clone(),
                revision: production.revision.clone(),
                serving,
                record,
            },
        );
    }

    /// Keeps `record`, upstream's record of `distribution` (production of `id`).
    pub(crate) fn keep(
        &self,
        id: &RepoId,
        environment: &EnvironmentName,
        distribution: &DistributionHref,
        record: WholeRecord,
    ) {
        let mut seen = self.lock();
        let id = &key(id, environment);
        let same = seen.peek(id).filter(|s| &s.distribution == distribution);
        let (revision, serving) = same.map_or((None, None), |s| (s.revision.clone(), s.serving));
        seen.put(
            id.clone(),
            Seen {
                distribution: distribution.clone(),
                revision,
                serving,
                record: Some(record),
            },
        );
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<Key, Seen>> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn key(id: &RepoId, environment: &EnvironmentName) -> Key {
    (id.clone(), environment.clone())
}

/// What a state saw: a rebuilt state (another upstream, in tests) has seen nothing yet.
impl StatePart for SeenEnvironments {
    const ANEW_ON_REBUILD: bool = true;
}

impl AppState {
    /// Each environment's distribution of each repository when last read, and the
    /// repositories' names (hints, so that records and distributions are read at once with
    /// the rest; checked against what is read).
    pub(crate) fn seen(&self) -> Arc<SeenEnvironments> {
        self.part()
    }
}
