//! A check is about what an environment served: a report is recorded only for a version its
//! environment serves now or has served (the console's audit lines of that environment, and
//! Pulp's record of its distribution's changes, merged as the history page merges them).
//! A pipeline cannot vouch for a version its environment never served, so such a report
//! can neither satisfy a required check nor promote anything.

use crate::domain::deploy::versions_served;
use crate::domain::environment::EnvironmentName;
use crate::domain::history::build_history;
use crate::domain::history::timeline::versions_served_before;
use crate::domain::repository::{Repository, VersionNumber};

use crate::ports::UpstreamError;

use crate::app::environments::{some_environments_of, ProductionRecord};
use crate::app::facts::candidates_for;
use crate::app::state::AppState;

/// Why whether the environment served the version cannot be told.
#[derive(Debug)]
pub(crate) enum ServedUnknown {
    /// The environment's distribution could not be read.
    Upstream(UpstreamError),
    /// Neither the audit log nor Pulp's record of the distribution's changes could be read.
    HistoryUnreadable,
}

/// Whether `environment` of `repo` serves or has served `version`: `false` when neither Pulp
/// nor the audit says it ever did.
pub(crate) async fn has_served(
    state: &AppState,
    repo: &Repository,
    environment: &EnvironmentName,
    version: VersionNumber,
) -> Result<bool, ServedUnknown> {
    let upstream = state.manager.as_ref();
    let candidates = candidates_for(state, upstream, &repo.id).await;
    let states = some_environments_of(state, upstream, repo, &[environment], candidates)
        .await
        .map_err(ServedUnknown::Upstream)?;
    let now = states.first().and_then(|e| e.serving());
    if now == Some(version) {
        return Ok(true);
    }
    let distribution = states.first().and_then(|e| e.distribution());
    let record = ProductionRecord::read(state, &repo.id, environment, distribution).await;
    if let (Err(audit), Err(changes)) = (&record.audit, &record.changes) {
        tracing::warn!(%audit, %changes, "check not recorded: what the environment served could not be read");
        return Err(ServedUnknown::HistoryUnreadable);
    }
    let records = record.audit.as_deref().unwrap_or_default();
    let changes = record.changes.as_deref().unwrap_or_default();
    let entries = build_history(records, changes, now);
    let served = versions_served_before(&entries, now.map(VersionNumber::get))
        .contains(&version.get())
        || versions_served(records, environment, now).contains(&version);
    Ok(served)
}
