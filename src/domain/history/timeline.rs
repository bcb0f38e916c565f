//! Production's history: the console's audit lines merged with upstream's record of the
//! distribution's changes, and drift (production changed behind the console's back).

use std::collections::BTreeSet;
use std::collections::HashSet;

use chrono::{DateTime, Utc};

use crate::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord, ProductionChanged};
use crate::domain::ids::ReleaseRef;
use crate::domain::repository::{
    ChangeState, DistributionChange, PublicationHref, TaskHref, VersionNumber,
};

/// Where a change of production came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A deploy or rollback through the console (its audit lines).
    Console {
        deploy_id: DeployId,
        kind: DeployKind,
        reason: Option<String>,
        /// The release promotion it was part of.
        release: Option<ReleaseRef>,
    },
    /// A change upstream records and the console did not make.
    Outside,
}

/// How a change ended, as far as it is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryOutcome {
    Deployed,
    Failed(ProductionChanged),
    /// The console wrote `started` and no outcome (under way, or the console stopped).
    Unfinished,
    /// An outside change: how upstream's task ended.
    Upstream(ChangeState),
}

/// One change of the production distribution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    pub at: DateTime<Utc>,
    /// The console's operator, or the upstream user.
    pub who: String,
    /// Versions before and after; `None` when not known.
    pub from: Option<u64>,
    pub to: Option<u64>,
    pub outcome: EntryOutcome,
    pub origin: Origin,
    /// Upstream's task of the change, when known.
    pub task: Option<TaskHref>,
}

impl HistoryEntry {
    /// Whether production served `to` after this change (a version one may roll back to).
    pub fn served(&self) -> Option<u64> {
        match self.outcome {
            EntryOutcome::Deployed | EntryOutcome::Upstream(ChangeState::Completed) => self.to,
            _ => None,
        }
    }

    /// The version this entry offers to roll back to, given what production serves now:
    /// the version it set, when that is not the live one; for the change that set the live
    /// version, the version served before it (undo).
    pub fn rollback_target(&self, serving: Option<u64>) -> Option<u64> {
        match self.served() {
            Some(set) if Some(set) != serving => Some(set),
            Some(_) => self.from.filter(|from| Some(*from) != serving),
            None => None,
        }
    }
}

/// Every version a rollback may go back to: the rollback targets the history offers (see
/// [`HistoryEntry::rollback_target`]), and every version an entry says the environment served.
pub fn versions_served_before(entries: &[HistoryEntry], serving: Option<u64>) -> BTreeSet<u64> {
    entries
        .iter()
        .flat_map(|e| [e.rollback_target(serving), e.served(), e.from])
        .flatten()
        .collect()
}

/// Merges the audit lines of one repository (newest first) with upstream's changes of its
/// production distribution (newest first), newest first. A change whose correlation id is
/// a deploy id of the audit lines is that deploy's; any other is an outside change. Only
/// the newest outside change, when it is also upstream's newest completed one, is known to
/// have set what production serves now (`serving_now`); other outside versions are unknown.
pub fn build_history(
    records: &[DeployRecord],
    changes: &[DistributionChange],
    serving_now: Option<VersionNumber>,
) -> Vec<HistoryEntry> {
    let mut seen = HashSet::new();
    let mut entries: Vec<HistoryEntry> = records
        .iter()
        .filter(|r| seen.insert(r.deploy_id.clone()))
        .map(|r| console_entry(r, changes))
        .collect();
    let newest_completed = changes.iter().find(|c| c.state == ChangeState::Completed);
    let outside = changes.iter().filter(|c| !is_console(c, &seen));
    entries.extend(outside.map(|change| {
        HistoryEntry {
            at: change.at,
            who: change.by.clone(),
            from: None,
            to: (Some(change) == newest_completed)
                .then_some(serving_now.map(VersionNumber::get))
                .flatten(),
            outcome: EntryOutcome::Upstream(change.state),
            origin: Origin::Outside,
            task: Some(change.task.clone()),
        }
    }));
    entries.sort_by_key(|e| std::cmp::Reverse(e.at));
    entries
}

fn is_console(change: &DistributionChange, deploy_ids: &HashSet<DeployId>) -> bool {
    change
        .correlation
        .as_ref()
        .is_some_and(|c| deploy_ids.contains(&DeployId::new(c.clone())))
}

fn console_entry(record: &DeployRecord, changes: &[DistributionChange]) -> HistoryEntry {
    let task = changes
        .iter()
        .find(|c| c.correlation.as_deref() == Some(record.deploy_id.as_str()))
        .map(|c| c.task.clone());
    HistoryEntry {
        at: record.timestamp,
        who: record.operator.clone(),
        from: record.previous_version,
        to: Some(record.target_version),
        outcome: match &record.outcome {
            AuditOutcome::Started => EntryOutcome::Unfinished,
            AuditOutcome::Deployed => EntryOutcome::Deployed,
            AuditOutcome::Failed {
                production_changed, ..
            } => EntryOutcome::Failed(*production_changed),
        },
        origin: Origin::Console {
            deploy_id: record.deploy_id.clone(),
            kind: record.kind,
            reason: record.reason.clone(),
            release: record.release.clone(),
        },
        task,
    }
}

/// Production changed behind the console's back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drift {
    /// Upstream's record of the outside change, when it has one.
    pub change: Option<DistributionChange>,
}

/// Drift: production no longer serves the publication the console's last change of it set
/// (the newest audit line whose deploy changed production), or upstream records a completed
/// change of the distribution after that deploy's own that the console did not make (only
/// judged when that deploy's change is among `changes`). Who and when come from the newest
/// such change. Nothing is claimed when the audit
/// lines hold no change of production by the console (there is nothing to drift from).
pub fn detect_drift(
    records: &[DeployRecord],
    changes: &[DistributionChange],
    serving: Option<&PublicationHref>,
) -> Option<Drift> {
    let last = drift_baseline(records)?;
    let ids: HashSet<DeployId> = records.iter().map(|r| r.deploy_id.clone()).collect();
    let own = changes
        .iter()
        .position(|c| c.correlation.as_deref() == Some(last.deploy_id.as_str()));
    // Changes after the console's own; all of them when its own is beyond the window.
    let window = &changes[..own.unwrap_or(changes.len())];
    let outside = window
        .iter()
        .find(|c| c.state == ChangeState::Completed && !is_console(c, &ids))
        .cloned();
    let moved = last.publication.as_ref() != serving;
    let changed_after = own.is_some() && outside.is_some();
    (moved || changed_after).then_some(Drift { change: outside })
}

/// What drift is judged from: the newest of these audit lines (newest first) whose deploy
/// changed production. Without one, [`detect_drift`] claims nothing whatever upstream
/// records, so upstream's record need not be read to judge drift.
pub fn drift_baseline(records: &[DeployRecord]) -> Option<&DeployRecord> {
    records.iter().find(|r| changed_production(&r.outcome))
}

fn changed_production(outcome: &AuditOutcome) -> bool {
    matches!(
        outcome,
        AuditOutcome::Deployed
            | AuditOutcome::Failed {
                production_changed: ProductionChanged::Yes,
                ..
            }
    )
}

#[cfg(test)]
#[path = "timeline_tests.rs"]
mod tests;
