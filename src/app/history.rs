//! Use case: the history page of one repository (what production was, is, and who changed it).

use std::collections::BTreeSet;

use crate::domain::{build_history, Drift, HistoryEntry, RepoId, VersionNumber};

use super::facts::{deploy_facts, ReadError};
use super::production_record::ProductionRecord;
use super::state::AppState;

/// Everything the history page shows.
#[derive(Debug, Clone)]
pub struct HistoryPage {
    pub repo_name: String,
    pub uuid: RepoId,
    /// The production distribution's name; `None` when there is none.
    pub distribution: Option<String>,
    /// The version production serves now.
    pub serving: Option<VersionNumber>,
    /// Newest first.
    pub entries: Vec<HistoryEntry>,
    /// The version numbers Pulp still has (a rollback target must be one of them).
    pub existing: BTreeSet<u64>,
    /// Why the console's own record is missing from the page, when it is.
    pub audit_unreadable: Option<String>,
    /// Why upstream's record is missing from the page, when it is.
    pub upstream_unreadable: Option<String>,
    pub drift: Option<Drift>,
}

/// Reads the repository and production (the deploy's facts), then the audit lines and
/// upstream's changes at once: a constant number of upstream calls.
#[tracing::instrument(skip_all, fields(repo = %id))]
pub async fn history_page(state: &AppState, id: &RepoId) -> Result<HistoryPage, ReadError> {
    let facts = deploy_facts(state, state.reads.as_ref(), id).await?;
    let production = facts.production.as_ref().ok().map(|p| p.distribution());
    let record = ProductionRecord::read(state, id, production).await;
    let serving = facts.deployed.as_ref().map(|d| d.number);
    let records = record.audit.as_deref().unwrap_or_default();
    let changes = record.changes.as_deref().unwrap_or_default();
    Ok(HistoryPage {
        repo_name: facts.repo.display_name().to_owned(),
        uuid: id.clone(),
        distribution: production.map(|d| d.name.clone()),
        serving,
        entries: build_history(records, changes, serving),
        existing: facts
            .versions
            .iter()
            .filter_map(|v| v.number())
            .map(VersionNumber::get)
            .collect(),
        audit_unreadable: record.audit.as_ref().err().map(ToString::to_string),
        upstream_unreadable: record.changes.as_ref().err().map(ToString::to_string),
        drift: production.and_then(|p| record.drift(p)),
    })
}
