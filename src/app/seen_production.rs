//! What pages saw of each repository's production distribution: the distribution, its
//! revision and the version it served when last read, so that a page reads production's
//! record, and a deploy's facts the live version, at once with the rest (checked against
//! production as read, and read again when it moved), and upstream's record of its changes
//! while it stays whole (see [`WholeRecord`]). Hints only: never a fact a deploy relies on.

use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;

use crate::domain::{
    Distribution, DistributionChange, DistributionHref, DistributionRevision, RepoId,
    VersionNumber, WholeRecord,
};

/// Repositories whose production is remembered, at most: the least recently read go first.
const SEEN_KEPT: NonZeroUsize = NonZeroUsize::new(10_000).expect("not zero");

/// Production of one repository when last read.
#[derive(Debug, Clone)]
pub(super) struct Seen {
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

/// The production distribution of each repository when last read.
pub struct SeenProduction(Mutex<LruCache<RepoId, Seen>>);

impl Default for SeenProduction {
    fn default() -> Self {
        Self(Mutex::new(LruCache::new(SEEN_KEPT)))
    }
}

impl SeenProduction {
    pub(super) fn get(&self, id: &RepoId) -> Option<Seen> {
        self.lock().get(id).cloned()
    }

    /// Production of `id` as read now, serving version `serving` of it; the record kept
    /// stays while it is the same distribution (whether it is still whole is judged on its
    /// revision when used).
    pub(super) fn saw(
        &self,
        id: &RepoId,
        production: Option<&Distribution>,
        serving: Option<VersionNumber>,
    ) {
        let mut seen = self.lock();
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
    pub(super) fn keep(&self, id: &RepoId, distribution: &DistributionHref, record: WholeRecord) {
        let mut seen = self.lock();
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

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<RepoId, Seen>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}
