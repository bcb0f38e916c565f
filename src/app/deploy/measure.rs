//! Every deploy counted by how it ended and how it was asked for, through the metrics port
//! of the state (`repo_console_deploys_total{outcome, asked, environment}` and the duration
//! of those that started): deploys from the pages, the API, approvals, schedules and
//! automation alike, since all run here, and each member of a release promotion as one.

use std::time::Instant;

use crate::domain::deploy::{Authority, DeployKind, Intent};
use crate::domain::environment::EnvironmentName;
use crate::ports::{DeployAsked, DeployEnd};

use crate::app::deploy::outcome::DeployOutcome;
use crate::app::state::AppState;

/// How a deploy under `given` authority, for `intent`, was asked for.
pub(crate) fn asked(given: &Authority, intent: &Intent) -> DeployAsked {
    if given.schedule.is_some() {
        DeployAsked::Schedule
    } else if given.automation.is_some() {
        DeployAsked::Automation
    } else if given.request.is_some() {
        DeployAsked::Approval
    } else if intent.kind() == DeployKind::Rollback {
        DeployAsked::Rollback
    } else {
        DeployAsked::Deploy
    }
}

/// Counts `outcome`, asked so, for `environment`; a deploy that started also reports how
/// long it took since `began`.
pub(crate) fn record(
    state: &AppState,
    outcome: &DeployOutcome,
    asked: DeployAsked,
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
    ended(state, end, asked, environment, started.then_some(began));
}

/// Counts one deploy that ended so (`began`: when it started, for those that did).
pub(crate) fn ended(
    state: &AppState,
    end: DeployEnd,
    asked: DeployAsked,
    environment: &EnvironmentName,
    began: Option<Instant>,
) {
    let took = began.map(|began| began.elapsed());
    state
        .metrics
        .deploy_ended(end, asked, Some(environment), took);
}

/// A deploy refused because its sender is not known: counted, nothing else is done (the form
/// is not even read, so the environment is not known).
pub fn unidentified(state: &AppState) {
    state
        .metrics
        .deploy_ended(DeployEnd::Unidentified, DeployAsked::Deploy, None, None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::deploy::Reason;

    #[test]
    fn a_deploy_and_a_rollback_of_an_operator_are_told_apart() {
        let deploy = Intent::Deploy(None);
        assert_eq!(asked(&Authority::default(), &deploy), DeployAsked::Deploy);
        let reason = Reason::parse("broken").expect("a reason");
        let rollback = Intent::Rollback(reason);
        assert_eq!(
            asked(&Authority::default(), &rollback),
            DeployAsked::Rollback
        );
    }
}
