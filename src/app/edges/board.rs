//! What the console last saw of the edges, in memory: per distribution the edges copy, the
//! digest production serves and those it served before, when it moved; per edge and
//! distribution, the edge's state; per edge, its last replication and whether a follow-up
//! runs. What must outlive a restart is written through to the edge state store and read
//! back into the board ([`super::keep`]); the board is this process's copy of it.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use chrono::{DateTime, Utc};

use crate::domain::edge::{EdgeName, EdgeState, MetadataDigest, Replication, ReplicationEnd};
use crate::domain::environment::EnvironmentName;
use crate::ports::edge_state_store::EdgeRecords;

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
    /// The digest its content app served then, when it served one.
    pub served: Option<MetadataDigest>,
    /// Since when it serves `served`.
    pub served_since: Option<DateTime<Utc>>,
}

/// One edge's follow-up.
#[derive(Debug, Clone, Default)]
struct Run {
    following: bool,
    again: bool,
    last: Option<Replication>,
    next_retry: Option<DateTime<Utc>>,
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
    /// among the earlier ones. `true` when the mark changed.
    pub fn central(&self, distribution: &str, digest: Option<MetadataDigest>) -> bool {
        let mut inner = self.inner();
        let Some(mark) = inner.marks.get_mut(distribution) else {
            return false;
        };
        if mark.central == digest {
            return false;
        }
        if let Some(old) = mark.central.take() {
            mark.earlier.retain(|d| d != &old);
            mark.earlier.push(old);
            if mark.earlier.len() > EARLIER_KEPT {
                mark.earlier.remove(0);
            }
        }
        mark.central = digest;
        true
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

    /// The distribution's mark, when noted.
    pub fn mark(&self, distribution: &str) -> Option<Mark> {
        self.inner().marks.get(distribution).cloned()
    }

    /// Records `edge`'s cell for `distribution`; answers the cell it replaced.
    pub fn judged(&self, edge: &EdgeName, distribution: &str, cell: Cell) -> Option<Cell> {
        self.inner()
            .cells
            .insert((edge.clone(), distribution.to_owned()), cell)
    }

    /// Every cell of `distribution`, by edge.
    pub fn cells_of(&self, distribution: &str) -> Vec<(EdgeName, Cell)> {
        self.inner()
            .cells
            .iter()
            .filter(|((_, d), _)| d == distribution)
            .map(|((edge, _), cell)| (edge.clone(), cell.clone()))
            .collect()
    }

    /// Takes what the store keeps: its marks, cells and runs replace this process's copies
    /// (the store is the later word: other replicas write it too).
    pub fn restore(&self, records: &EdgeRecords) {
        let mut inner = self.inner();
        for kept in &records.marks {
            inner.marks.insert(
                kept.distribution.clone(),
                Mark {
                    environment: kept.environment.clone(),
                    base_path: kept.base_path.clone(),
                    central: kept.central.clone(),
                    earlier: kept.earlier.clone(),
                    moved_at: kept.moved_at,
                },
            );
        }
        for kept in &records.cells {
            inner.cells.insert(
                (kept.edge.clone(), kept.distribution.clone()),
                Cell {
                    state: kept.state.clone(),
                    judged_at: kept.judged_at,
                    served: kept.served.clone(),
                    served_since: kept.served_since,
                },
            );
        }
        for kept in &records.runs {
            let run = inner.runs.entry(kept.edge.clone()).or_default();
            run.last = kept.last.clone();
            run.next_retry = kept.next_retry;
        }
    }

    /// When `edge` is tried again.
    pub fn retry_at(&self, edge: &EdgeName, at: Option<DateTime<Utc>>) {
        self.inner()
            .runs
            .entry(edge.clone())
            .or_default()
            .next_retry = at;
    }

    pub fn next_retry(&self, edge: &EdgeName) -> Option<DateTime<Utc>> {
        self.inner().runs.get(edge).and_then(|r| r.next_retry)
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
