//! The queue of diffs to compute ahead (see [`crate::app::diffs::ahead`]): bounded, each diff
//! queued once until it is computed, the overflow dropped (the next page asks again).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use crate::domain::content::kind::ContentType;
use crate::domain::diff::DiffEnd;
use crate::domain::repository::VersionHref;

use crate::app::diffs::cache::{DiffCache, DiffKey};
use crate::app::parts::StatePart;
use crate::app::state::{AppState, AppStateBuilder};

/// Diffs waiting to be computed, at most.
const QUEUE: usize = 32;

/// One end of a diff to compute: the version, and its package count when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AheadEnd {
    pub href: VersionHref,
    pub packages: Option<u64>,
}

impl AheadEnd {
    pub(crate) fn end(&self) -> DiffEnd<'_> {
        DiffEnd {
            href: &self.href,
            count: self.packages,
        }
    }
}

/// A diff to compute: from what production serves to the newest version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AheadJob {
    /// The repository's type: whether its advisories are read too.
    pub content_type: ContentType,
    pub from: AheadEnd,
    pub to: AheadEnd,
}

impl AheadJob {
    pub(crate) fn key(&self) -> DiffKey {
        (Some(self.from.href.clone()), self.to.href.clone())
    }
}

/// The queue of diffs to compute ahead. Cheap to clone.
#[derive(Clone)]
pub struct DiffAhead {
    queue: mpsc::Sender<AheadJob>,
    /// Taken by the worker when it starts.
    jobs: Arc<Mutex<Option<mpsc::Receiver<AheadJob>>>>,
    /// Asked and not yet computed (so a diff is queued once).
    asked: Arc<Mutex<HashSet<DiffKey>>>,
}

impl Default for DiffAhead {
    fn default() -> Self {
        let (queue, jobs) = mpsc::channel(QUEUE);
        Self {
            queue,
            jobs: Arc::new(Mutex::new(Some(jobs))),
            asked: Arc::default(),
        }
    }
}

impl DiffAhead {
    fn asked(&self) -> std::sync::MutexGuard<'_, HashSet<DiffKey>> {
        self.asked.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues `job` unless `known` has it, it is queued already, or the queue is full.
    pub(crate) fn ask(&self, known: &DiffCache, job: AheadJob) {
        let key = job.key();
        if known.get(&key).is_some() || !self.asked().insert(key.clone()) {
            return;
        }
        if self.queue.try_send(job).is_err() {
            self.asked().remove(&key);
            tracing::debug!("the queue of diffs to compute ahead is full: dropped");
        }
    }

    /// The queued jobs, for the one worker that takes them (`None` once taken).
    pub(crate) fn take_jobs(&self) -> Option<mpsc::Receiver<AheadJob>> {
        self.jobs.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    /// `job` was computed (or failed): it may be asked again.
    pub(crate) fn done(&self, job: &AheadJob) {
        self.asked().remove(&job.key());
    }
}

/// Given by the composition root when the console computes diffs ahead.
impl StatePart for DiffAhead {
    const ANEW_ON_REBUILD: bool = true;
}

impl AppState {
    /// Diffs to compute in the background, when the console does (see
    /// [`crate::app::diffs::ahead`]).
    pub(crate) fn diff_ahead(&self) -> Option<Arc<DiffAhead>> {
        self.given()
    }
}

impl AppStateBuilder {
    /// Computes diffs in the background before they are asked for (run the worker with
    /// [`crate::app::diffs::ahead::work`]).
    pub fn diff_ahead(self, ahead: DiffAhead) -> Self {
        self.part(ahead)
    }
}
