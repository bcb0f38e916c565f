//! The ledger: every arrival of a version in an environment, folded from the audit's
//! outcome lines one at a time, in the order they were written, so that a view never reads
//! the whole audit again (see [`crate::app::insights`] for where each fold starts).

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::domain::approval::{RequestEvent, RequestLog};
use crate::domain::deploy::{AuditOutcome, DeployKind, DeployRecord};
use crate::domain::environment::{EnvironmentName, EnvironmentPath};
use crate::domain::ids::ReleaseName;

/// Whether an arrival was a deploy or a rollback (rollbacks are not deploys in the frequency
/// or the lead time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrivalKind {
    Deploy,
    Rollback,
}

/// A version arriving in an environment: one `deployed` line, with what was learnt of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    pub repository_uuid: String,
    pub repository_name: String,
    pub release: Option<ReleaseName>,
    pub environment: EnvironmentName,
    pub version: u64,
    /// When its `deployed` line was written.
    pub at: DateTime<Utc>,
    pub kind: ArrivalKind,
    /// From the version's creation in Pulp to `at` (unknown when Pulp no longer has it).
    pub lead_seconds: Option<i64>,
    /// From the version's arrival in the environment before to `at` (none for the first
    /// environment, or when the audit does not say it arrived there).
    pub soak_seconds: Option<i64>,
    /// From the approval request's creation to its completing approval (none without one).
    pub approval_wait_seconds: Option<i64>,
    /// From `at` to the rollback that undid it, for a deploy that was rolled back.
    pub undone_after_seconds: Option<i64>,
}

impl Arrival {
    /// Whether a rollback undid it within `window_seconds` (only deploys fail).
    pub fn failed_within(&self, window_seconds: i64) -> bool {
        self.kind == ArrivalKind::Deploy
            && self
                .undone_after_seconds
                .is_some_and(|after| after <= window_seconds)
    }
}

/// What the console learnt, around one outcome line, from outside the audit: the version's
/// creation time in Pulp and the request it ran for.
#[derive(Debug, Clone, Default)]
pub struct LineFacts {
    pub version_created: Option<DateTime<Utc>>,
    pub request: Option<RequestLog>,
}

/// Every arrival folded so far, and the indexes that let a later line find the arrival it
/// speaks of.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    arrivals: Vec<Arrival>,
    /// The newest deploy (not rollback) of each (repository, environment, version).
    deploy_of: HashMap<(String, EnvironmentName, u64), usize>,
    /// When each version first arrived in each environment.
    first_arrival: HashMap<(String, EnvironmentName, u64), DateTime<Utc>>,
}

impl Ledger {
    pub fn arrivals(&self) -> &[Arrival] {
        &self.arrivals
    }

    /// Folds one outcome line (a `started` or `failed` line changes nothing: a deploy arrives
    /// with its `deployed` line). A rollback marks the deploy it undid: the newest deploy of
    /// the version it rolled back from, in the same environment and repository.
    pub fn fold(&mut self, line: &DeployRecord, facts: LineFacts, path: &EnvironmentPath) {
        if line.outcome != AuditOutcome::Deployed {
            return;
        }
        let kind = match line.kind {
            DeployKind::Deploy => ArrivalKind::Deploy,
            DeployKind::Rollback => ArrivalKind::Rollback,
        };
        let uuid = line.repository_uuid.clone();
        let env = line.environment.clone();
        if kind == ArrivalKind::Rollback {
            if let Some(undone) = line.previous_version.and_then(|from| {
                self.deploy_of
                    .get(&(uuid.clone(), env.clone(), from))
                    .copied()
            }) {
                let deploy = &mut self.arrivals[undone];
                if deploy.undone_after_seconds.is_none() && deploy.at <= line.timestamp {
                    deploy.undone_after_seconds = Some((line.timestamp - deploy.at).num_seconds());
                }
            }
        }
        let soak_seconds = path.previous(&env).and_then(|before| {
            let key = (uuid.clone(), before.name.clone(), line.target_version);
            let there = self.first_arrival.get(&key)?;
            (*there <= line.timestamp).then(|| (line.timestamp - *there).num_seconds())
        });
        let lead_seconds = match kind {
            ArrivalKind::Deploy => facts
                .version_created
                .filter(|created| *created <= line.timestamp)
                .map(|created| (line.timestamp - created).num_seconds()),
            ArrivalKind::Rollback => None,
        };
        let arrival = Arrival {
            repository_uuid: uuid.clone(),
            repository_name: line.repository_name.clone(),
            release: line.release.as_ref().map(|r| r.name.clone()),
            environment: env.clone(),
            version: line.target_version,
            at: line.timestamp,
            kind,
            lead_seconds,
            soak_seconds,
            approval_wait_seconds: facts.request.as_ref().and_then(approval_wait),
            undone_after_seconds: None,
        };
        let key = (uuid, env, line.target_version);
        self.first_arrival
            .entry(key.clone())
            .or_insert(line.timestamp);
        if kind == ArrivalKind::Deploy {
            self.deploy_of.insert(key, self.arrivals.len());
        }
        self.arrivals.push(arrival);
    }
}

/// How long a request waited for its approvals: from its creation to the approval that
/// completed it (the last approval before it ran; the last approval when it has not run).
pub fn approval_wait(log: &RequestLog) -> Option<i64> {
    let mut completing = None;
    for event in &log.events {
        match event {
            RequestEvent::Approved { at, .. } => completing = Some(*at),
            RequestEvent::Executed { .. } => break,
            _ => {}
        }
    }
    completing
        .filter(|at| *at >= log.request.created)
        .map(|at| (at - log.request.created).num_seconds())
}
