//! Upstream's record of a change of a distribution: who, when, through which task.

use chrono::{DateTime, Utc};

use crate::domain::repository::{DistributionRevision, TaskHref};

/// How upstream's work on a change ended (or that it has not yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeState {
    Completed,
    Failed,
    Canceled,
    /// Waiting or running.
    Unfinished,
}

/// One change of a distribution as upstream recorded it (a Pulp task that reserved it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistributionChange {
    /// When upstream received the request.
    pub at: DateTime<Utc>,
    /// The upstream user who asked for it.
    pub by: String,
    pub task: TaskHref,
    /// The correlation the request carried: the console's deploy id for its own changes.
    pub correlation: Option<String>,
    pub state: ChangeState,
}

/// Upstream's record of a distribution's changes (newest first) that stays whole while the
/// distribution stays at `revision`: it was read after the distribution was seen at
/// `revision`, and none of its changes was under way. A later change writes the
/// distribution (so its revision moves) before it completes; a change under way when the
/// record was read could complete later without another write, so such a record is not kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WholeRecord {
    revision: DistributionRevision,
    changes: Vec<DistributionChange>,
}

impl WholeRecord {
    /// `changes`, read after the distribution was seen at `revision`, when none is under way.
    pub fn of(revision: DistributionRevision, changes: &[DistributionChange]) -> Option<Self> {
        let finished = changes.iter().all(|c| c.state != ChangeState::Unfinished);
        finished.then(|| Self {
            revision,
            changes: changes.to_vec(),
        })
    }

    /// The record, when it is still whole for the distribution now at `now`.
    pub fn at(&self, now: Option<&DistributionRevision>) -> Option<&[DistributionChange]> {
        (now == Some(&self.revision)).then_some(self.changes.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn change(state: ChangeState) -> DistributionChange {
        DistributionChange {
            at: Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap(),
            by: "bob".into(),
            task: TaskHref::new("/tasks/1/"),
            correlation: None,
            state,
        }
    }

    #[test]
    fn a_record_is_whole_while_the_distribution_is_unwritten_and_nothing_was_under_way() {
        let seen = DistributionRevision::new("2026-11-24T09:00:00.1Z");
        let finished = [change(ChangeState::Completed), change(ChangeState::Failed)];
        let record = WholeRecord::of(seen.clone(), &finished).expect("kept");
        assert_eq!(record.at(Some(&seen)), Some(&finished[..]));
        let written = DistributionRevision::new("2026-11-24T09:05:00.2Z");
        assert_eq!(record.at(Some(&written)), None, "written since: read again");
        assert_eq!(record.at(None), None, "a revision upstream does not say");
        assert!(
            WholeRecord::of(seen, &[change(ChangeState::Unfinished)]).is_none(),
            "a change under way may complete without moving the revision"
        );
    }
}
