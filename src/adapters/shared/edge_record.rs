//! The written form of the edge state store's records, one type for every store that writes
//! text (a line of `edges.jsonl`, a row's JSONB in PostgreSQL), and the book of the latest
//! record under each key (the memory and file stores fold into it).
//!
//! Every record a store writes is read back by the same type ([`Record`]): what does not read
//! back as one (a damaged line, a state word this version does not know, a name no longer
//! valid) is refused as a whole, so that it never stands for another state.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::edge::{
    EdgeName, EdgeState, MetadataDigest, Replication, ReplicationEnd, ReplicationTask,
};
use crate::domain::environment::EnvironmentName;
use crate::ports::edge_state_store::{EdgeRecords, StoredCell, StoredMark, StoredRun};

/// One record as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case", deny_unknown_fields)]
pub enum Record {
    Mark {
        distribution: String,
        environment: EnvironmentName,
        base_path: String,
        central: Option<String>,
        moved_at: Option<DateTime<Utc>>,
        earlier: Vec<String>,
    },
    Cell {
        edge: String,
        distribution: String,
        state: WrittenState,
        served: Option<String>,
        served_since: Option<DateTime<Utc>>,
        judged_at: DateTime<Utc>,
    },
    Run {
        edge: String,
        last: Option<WrittenReplication>,
        next_retry: Option<DateTime<Utc>>,
    },
}

/// An edge's state as written: its word, and its details.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
pub enum WrittenState {
    Serving,
    Behind { since: Option<DateTime<Utc>> },
    Replicating,
    Other,
    Failed { error: String },
    Unreachable { error: String },
    Missing,
}

/// A replication as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenReplication {
    pub task: String,
    pub started_at: DateTime<Utc>,
    /// `running`, `completed` or `failed`.
    pub end: String,
    /// Pulp's words, when it failed.
    pub error: Option<String>,
}

/// A record read back, in the port's types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    Mark(StoredMark),
    Cell(StoredCell),
    Run(StoredRun),
}

/// Why a written record does not read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

impl Kept {
    /// The key it is kept under: one record per distribution, per edge and distribution, per
    /// edge.
    pub fn key(&self) -> String {
        match self {
            Self::Mark(mark) => mark_key(&mark.distribution),
            Self::Cell(cell) => cell_key(&cell.edge, &cell.distribution),
            Self::Run(run) => run_key(&run.edge),
        }
    }

    pub fn written(&self) -> Record {
        match self {
            Self::Mark(m) => Record::Mark {
                distribution: m.distribution.clone(),
                environment: m.environment.clone(),
                base_path: m.base_path.clone(),
                central: m.central.as_ref().map(|d| d.to_string()),
                moved_at: m.moved_at,
                earlier: m.earlier.iter().map(|d| d.to_string()).collect(),
            },
            Self::Cell(c) => Record::Cell {
                edge: c.edge.to_string(),
                distribution: c.distribution.clone(),
                state: written_state(&c.state),
                served: c.served.as_ref().map(|d| d.to_string()),
                served_since: c.served_since,
                judged_at: c.judged_at,
            },
            Self::Run(r) => Record::Run {
                edge: r.edge.to_string(),
                last: r.last.as_ref().map(|l| WrittenReplication {
                    task: l.task.as_str().to_owned(),
                    started_at: l.started_at,
                    end: match &l.end {
                        ReplicationEnd::Running => "running",
                        ReplicationEnd::Completed => "completed",
                        ReplicationEnd::Failed(_) => "failed",
                    }
                    .to_owned(),
                    error: match &l.end {
                        ReplicationEnd::Failed(error) => Some(error.clone()),
                        _ => None,
                    },
                }),
                next_retry: r.next_retry,
            },
        }
    }

    /// Reads a written record back, or says why it does not read.
    pub fn read(record: Record) -> Result<Self, Unreadable> {
        Ok(match record {
            Record::Mark {
                distribution,
                environment,
                base_path,
                central,
                moved_at,
                earlier,
            } => Self::Mark(StoredMark {
                distribution,
                environment,
                base_path,
                central: central.as_deref().map(digest).transpose()?,
                moved_at,
                earlier: earlier
                    .iter()
                    .map(|d| digest(d))
                    .collect::<Result<_, _>>()?,
            }),
            Record::Cell {
                edge,
                distribution,
                state,
                served,
                served_since,
                judged_at,
            } => Self::Cell(StoredCell {
                edge: name(&edge)?,
                distribution,
                state: read_state(state),
                served: served.as_deref().map(digest).transpose()?,
                served_since,
                judged_at,
            }),
            Record::Run {
                edge,
                last,
                next_retry,
            } => Self::Run(StoredRun {
                edge: name(&edge)?,
                last: last.map(read_replication).transpose()?,
                next_retry,
            }),
        })
    }

    /// Reads one written line (or JSON value's text).
    pub fn parse(text: &str) -> Result<Self, Unreadable> {
        let record: Record =
            serde_json::from_str(text).map_err(|e| Unreadable(format!("not a record: {e}")))?;
        Self::read(record)
    }

    /// The line written for it (no line break).
    pub fn line(&self) -> String {
        serde_json::to_string(&self.written()).expect("a record always serializes")
    }
}

pub fn mark_key(distribution: &str) -> String {
    format!("mark:{distribution}")
}

pub fn cell_key(edge: &EdgeName, distribution: &str) -> String {
    format!("cell:{edge}:{distribution}")
}

pub fn run_key(edge: &EdgeName) -> String {
    format!("run:{edge}")
}

fn digest(text: &str) -> Result<MetadataDigest, Unreadable> {
    MetadataDigest::parse(text).map_err(|e| Unreadable(e.to_string()))
}

fn name(text: &str) -> Result<EdgeName, Unreadable> {
    EdgeName::parse(text).map_err(|e| Unreadable(e.to_string()))
}

fn written_state(state: &EdgeState) -> WrittenState {
    match state.clone() {
        EdgeState::Serving => WrittenState::Serving,
        EdgeState::Behind { since } => WrittenState::Behind { since },
        EdgeState::Replicating => WrittenState::Replicating,
        EdgeState::Other => WrittenState::Other,
        EdgeState::Failed { error } => WrittenState::Failed { error },
        EdgeState::Unreachable { error } => WrittenState::Unreachable { error },
        EdgeState::Missing => WrittenState::Missing,
    }
}

fn read_state(state: WrittenState) -> EdgeState {
    match state {
        WrittenState::Serving => EdgeState::Serving,
        WrittenState::Behind { since } => EdgeState::Behind { since },
        WrittenState::Replicating => EdgeState::Replicating,
        WrittenState::Other => EdgeState::Other,
        WrittenState::Failed { error } => EdgeState::Failed { error },
        WrittenState::Unreachable { error } => EdgeState::Unreachable { error },
        WrittenState::Missing => EdgeState::Missing,
    }
}

fn read_replication(written: WrittenReplication) -> Result<Replication, Unreadable> {
    let end = match (written.end.as_str(), written.error) {
        ("running", None) => ReplicationEnd::Running,
        ("completed", None) => ReplicationEnd::Completed,
        ("failed", Some(error)) => ReplicationEnd::Failed(error),
        (end, error) => {
            return Err(Unreadable(format!(
            "a replication that ended '{end}' with error {error:?} is not one the console writes"
        )))
        }
    };
    Ok(Replication {
        task: ReplicationTask::new(written.task),
        started_at: written.started_at,
        end,
    })
}

/// The latest record under each key.
#[derive(Debug, Default, Clone)]
pub struct EdgeBook(BTreeMap<String, Kept>);

impl EdgeBook {
    /// Keeps `record` under its key; answers the record it replaced.
    pub fn keep(&mut self, record: Kept) -> Option<Kept> {
        self.0.insert(record.key(), record)
    }

    /// Every record, in the port's shape.
    pub fn records(&self) -> EdgeRecords {
        let mut records = EdgeRecords::default();
        for kept in self.0.values() {
            match kept.clone() {
                Kept::Mark(m) => records.marks.push(m),
                Kept::Cell(c) => records.cells.push(c),
                Kept::Run(r) => records.runs.push(r),
            }
        }
        records
    }

    /// Every record, each once (to rewrite a file with).
    pub fn all(&self) -> impl Iterator<Item = &Kept> {
        self.0.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_end_without_its_error_or_an_unknown_state_word_does_not_read() {
        let bad_end = r#"{"record":"run","edge":"dc1","last":{"task":"/t/","started_at":"2026-11-28T00:00:00Z","end":"failed","error":null},"next_retry":null}"#;
        assert!(Kept::parse(bad_end).is_err());
        let unknown_state = r#"{"record":"cell","edge":"dc1","distribution":"d","state":{"state":"fine"},"served":null,"served_since":null,"judged_at":"2026-11-28T00:00:00Z"}"#;
        assert!(Kept::parse(unknown_state).is_err());
        let bad_name = r#"{"record":"run","edge":"DC 1","last":null,"next_retry":null}"#;
        assert!(Kept::parse(bad_name).is_err());
    }
}
