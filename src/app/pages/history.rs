//! Use case: the history page of one environment of a repository (what it served, serves,
//! and who changed it).

use std::collections::{BTreeSet, HashSet};

use crate::domain::deploy::{DeployId, DeployRecord};
use crate::domain::environment::EnvironmentName;
use crate::domain::history::{build_history, Drift, HistoryEntry, Origin};
use crate::domain::identity::Operator;
use crate::domain::repository::{RepoId, VersionNumber};
use crate::ports::{AuditReadError, UpstreamError};

use crate::app::environments::ProductionRecord;
use crate::app::facts::{environment_facts, existing_versions, ReadError};
use crate::app::promotion::policy_gate::{blocked, freeze_shown, Blocked};
use crate::app::state::AppState;

/// Everything the history page shows.
#[derive(Debug, Clone)]
pub struct HistoryPage {
    pub repo_name: String,
    pub uuid: RepoId,
    /// The environment whose history this is.
    pub environment: EnvironmentName,
    /// Its distribution's name; `None` when there is none.
    pub distribution: Option<String>,
    /// The version production serves now.
    pub serving: Option<VersionNumber>,
    /// Newest first.
    pub entries: Vec<HistoryEntry>,
    /// The versions offered to roll back to that Pulp still has (a rollback target must be
    /// one of them).
    pub existing: BTreeSet<u64>,
    /// The entries' deploys whose signed evidence is kept (each links to it).
    pub attested: HashSet<DeployId>,
    /// Why the console's own record is missing from the page, when it is.
    pub audit_unreadable: Option<AuditReadError>,
    /// Why upstream's record is missing from the page, when it is.
    pub upstream_unreadable: Option<UpstreamError>,
    pub drift: Option<Drift>,
    /// Frozen now by the policy: until when, and by which window.
    pub frozen: Option<String>,
    /// Why the viewer cannot roll this environment back now (see [`blocked`]).
    pub blocked: Option<Blocked>,
}

/// Reads the repository and production, then at once the audit lines and upstream's
/// changes, then which of the versions the entries offer to roll back to Pulp still has and,
/// at the same time, which entries have signed evidence (one question to the evidence
/// store): a constant number of calls, whatever the number of versions. `viewer`: who the
/// rollback buttons are for.
#[tracing::instrument(skip_all, fields(repo = %id))]
pub async fn history_page(
    state: &AppState,
    id: &RepoId,
    environment: &EnvironmentName,
    viewer: Option<&Operator>,
) -> Result<HistoryPage, ReadError> {
    let reads = state.reads.as_ref();
    let (repo, production) = environment_facts(state, reads, id, environment).await?;
    let distribution = production.target.as_ref().ok().map(|p| p.distribution());
    let record = ProductionRecord::read(state, id, environment, distribution).await;
    let serving = production.deployed.as_ref().map(|d| d.number);
    let records = record.audit.as_deref().unwrap_or_default();
    let changes = record.changes.as_deref().unwrap_or_default();
    let entries = build_history(records, changes, serving);
    // Repeated numbers are asked for once (the port takes care of it).
    let offered: Vec<VersionNumber> = entries
        .iter()
        .filter_map(|e| e.rollback_target(serving.map(VersionNumber::get)))
        .map(VersionNumber::new)
        .collect();
    let deploys: Vec<DeployId> = entries
        .iter()
        .filter_map(|e| match &e.origin {
            Origin::Console { deploy_id, .. } => Some(deploy_id.clone()),
            Origin::Outside => None,
        })
        .collect();
    let (existing, attested) = tokio::join!(
        existing_versions(reads, id, &offered),
        crate::app::evidence::attested(state, &deploys)
    );
    let existing = existing?;
    let now = state.clock.now().await;
    Ok(HistoryPage {
        repo_name: repo.display_name().to_owned(),
        uuid: id.clone(),
        environment: environment.clone(),
        distribution: distribution.map(|d| d.name.clone()),
        serving,
        entries,
        existing: existing
            .iter()
            .filter_map(|v| v.number())
            .map(VersionNumber::get)
            .collect(),
        attested,
        audit_unreadable: record.audit.as_ref().err().cloned(),
        upstream_unreadable: record.changes.as_ref().err().cloned(),
        drift: distribution.and_then(|p| record.drift(p)),
        frozen: freeze_shown(state, environment, now),
        blocked: blocked(state, environment, viewer, now),
    })
}

/// The audit lines of one deploy (started, then its outcome), oldest first.
pub async fn deploy_lines(
    state: &AppState,
    id: &DeployId,
) -> Result<Vec<DeployRecord>, AuditReadError> {
    state.audit.lines_of(id).await
}
