//! Every deploy counted by how it ended, through the metrics port of the state
//! (`repo_console_deploys_total{outcome, environment}` and the duration of those that
//! started): deploys from the pages, the API and approvals alike, since all run here.

use std::time::Instant;

use crate::domain::EnvironmentName;
use crate::ports::DeployEnd;

use crate::app::deploy::outcome::DeployOutcome;
use crate::app::state::AppState;

/// Counts `outcome`, for `environment`; a deploy that started also reports how long it took
/// since `began`.
pub(crate) fn record(
    state: &AppState,
    outcome: &DeployOutcome,
    environment: &EnvironmentName,
    began: Instant,
) {
    let (end, started) = match outcome {
        DeployOutcome::Deployed { .. } => (DeployEnd::Deployed, true),
        DeployOutcome::Failed { .. } => (DeployEnd::Failed, true),
        DeployOutcome::Refused(_) => (DeployEnd::Refused, false),
        DeployOutcome::Requested(_) => (DeployEnd::Requested, false),
        DeployOutcome::NotStarted(_) => (DeployEnd::NotStarted, false),
    };
    let took = started.then(|| began.elapsed());
    state.metrics.deploy_ended(end, Some(environment), took);
}

/// A deploy refused because its sender is not known: counted, nothing else is done (the form
/// is not even read, so the environment is not known).
pub fn unidentified(state: &AppState) {
    state
        .metrics
        .deploy_ended(DeployEnd::Unidentified, None, None);
}
