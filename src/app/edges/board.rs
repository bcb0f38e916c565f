//! What the console last saw of the edges, in memory: per distribution the edges copy, the
//! digest production serves and those it served before (as seen by this process), when it
//! moved; per edge and distribution, the edge's state; per edge, its last replication and
//! whether a follow-up runs.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use chrono::{DateTime, Utc};

use crate::domain::edge::{EdgeName, EdgeState, MetadataDigest, Replication, ReplicationEnd};
use crate::domain::environment::EnvironmentName;

/// Digests production served before, kept per distribution.
const EARLIER_KEPT: usize = 16;

/// A distribution the edges copy, as the central Pulp serves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub environment: EnvironmentName,
    pub base_path: String,
    /// What production serves, when read.
    pub central: Option<MetadataDigest>,
    /// What it served before, newest last.
    pub earlier: Vec<MetadataDigest>,
    /// When the console last moved it.
    pub moved_at: Option<DateTime<Utc>>,
}

/// One edge's state for one distribution, when judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub state: EdgeState,
    pub judged_at: DateTime<Utc>,
}

/// One edge's follow-up.
#[derive(Debug, Clone, Default)]
struct Run {
    following: bool,
    again: bool,
    last: Option<Replication>,
}

#[derive(Default)]
struct Inner {
    marks: BTreeMap<String, Mark>,
    cells: HashMap<(EdgeName, String), Cell>,
    runs: HashMap<EdgeName, Run>,
}

/// The board. Every method takes the lock briefly; none awaits under it.
#[derive(Default)]
pub struct Board(Mutex<Inner>);

impl Board {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Notes a distribution of an environment the edges copy; `moved_at`: the console moved
    /// it then.
    pub fn note(
        &self,
        distribution: &str,
        environment: &EnvironmentName,
        base_path: &str,
        moved_at: Option<DateTime<Utc>>,
    ) {
        let mut inner = self.inner();
        let mark = inner
            .marks
            .entry(distribution.to_owned())
            .or_insert_with(|| Mark {
                environment: environment.clone(),
                base_path: base_path.to_owned(),
                central: None,
                earlier: Vec::new(),
                moved_at: None,
            });
        mark.base_path = base_path.to_owned();
        if moved_at.is_some() {
            mark.moved_at = moved_at;
        }
    }

    /// Production moved `distribution` at `now`: an edge judged serving it served what
    /// production served before, so it is behind from now on until judged again (a page read
    /// before the next judgement never says it serves the new content).
    pub fn production_moved(&self, distribution: &str, now: DateTime<Utc>) {
        let mut inner = self.inner();
        for ((_, name), cell) in inner.cells.iter_mut() {
            if name == distribution && cell.state == EdgeState::Serving {
                cell.state = EdgeState::Behind { since: Some(now) };
                cell.judged_at = now;
            }
        }
    }

    /// Records what production serves for `distribution`; a new digest pushes the old one
    /// among the earlier ones.
    pub fn central(&self, distribution: &str, digest: Option<MetadataDigest>) {
        let mut inner = self.inner();
        let Some(mark) = inner.marks.get_mut(distribution) else {
            return;
        };
        if mark.central == digest {
            return;
        }
        if let Some(old) = mark.central.take() {
            mark.earlier.retain(|d| d != &old);
            mark.earlier.push(old);
            if mark.earlier.len() > EARLIER_KEPT {
                mark.earlier.remove(0);
            }
        }
        mark.central = digest;
    }

    /// The distributions of `environments`, by name.
    pub fn marks_of(&self, environments: &[EnvironmentName]) -> Vec<(String, Mark)> {
        self.inner()
            .marks
            .iter()
            .filter(|(_, m)| environments.contains(&m.environment))
            .map(|(name, mark)| (name.clone(), mark.clone()))
            .collect()
    }

    /// Every distribution noted.
    pub fn marks(&self) -> Vec<(String, Mark)> {
        self.marks_of_all()
    }

    fn marks_of_all(&self) -> Vec<(String, Mark)> {
        self.inner()
            .marks
            .iter()
            .map(|(name, mark)| (name.clone(), mark.clone()))
            .collect()
    }

    /// Records `edge`'s state for `distribution`; answers the state it had before.
    pub fn judged(
        &self,
        edge: &EdgeName,
        distribution: &str,
        state: EdgeState,
        now: DateTime<Utc>,
    ) -> Option<EdgeState> {
        let cell = Cell {
            state,
            judged_at: now,
        };
        self.inner()
            .cells
            .insert((edge.clone(), distribution.to_owned()), cell)
            .map(|old| old.state)
    }

    pub fn cell(&self, edge: &EdgeName, distribution: &str) -> Option<Cell> {
        self.inner()
            .cells
            .get(&(edge.clone(), distribution.to_owned()))
            .cloned()
    }

    /// Starts `edge`'s follow-up: `false` when one runs already (it then goes round once
    /// more, for what moved since).
    pub fn start_following(&self, edge: &EdgeName) -> bool {
        let mut inner = self.inner();
        let run = inner.runs.entry(edge.clone()).or_default();
        if run.following {
            run.again = true;
            return false;
        }
        run.following = true;
        run.again = false;
        true
    }

    /// Ends `edge`'s follow-up unless something moved since it began its last round:
    /// `true` when it ended.
    pub fn finish_following(&self, edge: &EdgeName) -> bool {
        let mut inner = self.inner();
        let run = inner.runs.entry(edge.clone()).or_default();
        if run.again {
            run.again = false;
            return false;
        }
        run.following = false;
        true
    }

    /// Takes the request for one more round, if any.
    pub fn take_again(&self, edge: &EdgeName) -> bool {
        let mut inner = self.inner();
        let run = inner.runs.entry(edge.clone()).or_default();
        std::mem::take(&mut run.again)
    }

    /// The edges whose follow-up runs now.
    pub fn following_edges(&self) -> Vec<EdgeName> {
        self.inner()
            .runs
            .iter()
            .filter(|(_, r)| r.following)
            .map(|(name, _)| name.clone())
            .collect()
    }

    pub fn following(&self) -> usize {
        self.inner().runs.values().filter(|r| r.following).count()
    }

    /// Records `edge`'s last replication.
    pub fn replication(&self, edge: &EdgeName, replication: Replication) {
        self.inner().runs.entry(edge.clone()).or_default().last = Some(replication);
    }

    /// Updates how `edge`'s last replication ended.
    pub fn replication_end(&self, edge: &EdgeName, end: ReplicationEnd) {
        if let Some(last) = self
            .inner()
            .runs
            .get_mut(edge)
            .and_then(|run| run.last.as_mut())
        {
            last.end = end;
        }
    }

    pub fn last_replication(&self, edge: &EdgeName) -> Option<Replication> {
        self.inner().runs.get(edge).and_then(|r| r.last.clone())
    }
}
