//! How a request ends once its approvals are complete: the deploy it ran decides whether it
//! is `executed` (deployed), `stale` (the environment moved since the request was made:
//! someone else deployed meanwhile) or `failed` (refused for another reason, or failed).
//! The end is appended to the request, then its last event is sent, once.

use chrono::{DateTime, Utc};

use crate::domain::approval::{ExecutionOutcome, RequestEvent};
use crate::domain::deploy::{DeployId, Refusal};

use crate::app::deploy::outcome::DeployOutcome;
use crate::app::promotion::steps::StepError;
use crate::app::releases::ReleaseOutcome;

/// The event that ends a request whose deploy (`deploy_id`) ended with `outcome`.
pub(super) fn end_of(
    outcome: &DeployOutcome,
    deploy_id: &DeployId,
    at: DateTime<Utc>,
) -> RequestEvent {
    if let Some(now_serving) = moved_to(outcome) {
        return RequestEvent::Stale { now_serving, at };
    }
    RequestEvent::Executed {
        deploy_id: deploy_id.clone(),
        outcome: execution_outcome(outcome),
        at,
    }
}

/// The event that ends a release's request whose promotion ended with `outcome` (the
/// release's id names it).
pub(super) fn end_of_release(outcome: &ReleaseOutcome, at: DateTime<Utc>) -> RequestEvent {
    let failed = |message: String| ExecutionOutcome::Failed { message };
    let (id, outcome) = match outcome {
        ReleaseOutcome::Ended(ended) => {
            let record = &ended.record;
            let outcome = if record.finished() {
                ExecutionOutcome::Deployed
            } else {
                failed(format!(
                    "{}. {}",
                    record.error.as_deref().unwrap_or("the promotion stopped"),
                    record.served.sentence(record.environment.as_str())
                ))
            };
            (record.release.id.as_str().to_owned(), outcome)
        }
        ReleaseOutcome::Refused(refusal) => (String::new(), failed(format!("{refusal}"))),
        ReleaseOutcome::NotStarted(why) => {
            (String::new(), failed(format!("{why} Nothing was changed.")))
        }
        ReleaseOutcome::Requested(_) => (
            String::new(),
            failed("the promotion asked for approvals again".into()),
        ),
    };
    RequestEvent::Executed {
        deploy_id: DeployId::new(id),
        outcome,
        at,
    }
}

/// What the environment serves now, when the deploy found it no longer serving what the
/// request was made against (moved, or someone else already deployed the target).
fn moved_to(outcome: &DeployOutcome) -> Option<String> {
    match outcome {
        DeployOutcome::Refused(Refusal::ProductionMoved { now, .. }) => Some(now.clone()),
        DeployOutcome::Refused(Refusal::AlreadyDeployed { version, .. }) => {
            Some(format!("v{version}"))
        }
        DeployOutcome::Failed {
            error: StepError::ProductionMoved { now },
            ..
        } => Some(now.clone()),
        _ => None,
    }
}

/// How the request's deploy ended, in the request's own words.
fn execution_outcome(outcome: &DeployOutcome) -> ExecutionOutcome {
    let failed = |message: String| ExecutionOutcome::Failed { message };
    match outcome {
        DeployOutcome::Deployed { .. } => ExecutionOutcome::Deployed,
        DeployOutcome::Refused(refusal) => failed(format!("{refusal} Nothing was changed.")),
        DeployOutcome::NotStarted(why) => failed(format!("{why} Nothing was changed.")),
        DeployOutcome::Failed {
            error,
            production_changed,
            task,
            ..
        } => failed(format!(
            "{error}; the environment changed: {production_changed:?}{}",
            task.as_ref()
                .map(|t| format!(" (Pulp task {t})"))
                .unwrap_or_default()
        )),
        DeployOutcome::Requested(_) => failed("the deploy asked for approvals again".into()),
    }
}
