//! Use cases: preview a deploy, and deploy a version to production.
//!
//! The server re-checks every precondition, whatever the page showed. Once upstream is
//! touched, the answer always says whether production changed: no, yes, or unknown.

use crate::domain::{
    AuditOutcome, DeployId, DeployPlan, DeployRecord, DeployRequest, Intent, Operator,
    PublicationHref, Refusal, RepoId, TaskHref,
};
use crate::ports::{correlation, AuditError};

pub use super::deploy_outcome::{DeployOutcome, DeployStep, NotStarted};
pub use super::deploy_steps::StepError;
use super::deploy_steps::{ensure_unmoved, point_production, publish, StepFailure};
use super::deploy_turn::{checked_plan, replica_turn};
use super::freeze_check::frozen;
pub use super::preview::{preview, Preview, PreviewError};
use super::state::AppState;

/// Deploys `request.target` of repository `id` to the distribution of `request.environment`,
/// on behalf of `operator`. Deploys to one environment of a repository run one at a time in
/// this process. Two audit
/// lines share one `deploy_id`: `started` before anything changes upstream, then the outcome.
/// Every upstream request of the deploy carries the `deploy_id` as its correlation id.
#[tracing::instrument(skip_all, fields(repo = %id, target = %request.target, environment = %request.environment, %operator, deploy_id))]
pub async fn deploy(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
) -> DeployOutcome {
    let deploy_id = DeployId::new(uuid::Uuid::new_v4().to_string());
    tracing::Span::current().record("deploy_id", deploy_id.as_str());
    let correlation = deploy_id.as_str().to_owned();
    correlation::scope(
        correlation,
        deploy_as(state, id, request, operator, deploy_id),
    )
    .await
}

async fn deploy_as(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
    deploy_id: DeployId,
) -> DeployOutcome {
    if let Err(denied) = state.policy.may_deploy(&request.environment, operator) {
        tracing::warn!(%denied, "deploy refused by the policy");
        return DeployOutcome::Refused(Refusal::NotAllowed(denied.to_string()));
    }
    if let Some(refusal) = frozen(state, &request.environment).await {
        tracing::warn!(%refusal, "deploy refused: the environment is frozen");
        return DeployOutcome::Refused(refusal);
    }
    let _turn = state.deploy_locks.acquire(id, &request.environment).await;
    let plan = match checked_plan(state, id, request).await {
        Ok(plan) => plan,
        Err(outcome) => return outcome,
    };
    let (_replica_turn, plan) = match replica_turn(state, id, request, plan).await {
        Ok(held) => held,
        Err(outcome) => return outcome,
    };
    let ready = match state.audit.check_writable().await {
        Ok(()) => {
            audit(
                state,
                &deploy_id,
                &plan,
                &request.intent,
                operator,
                None,
                AuditOutcome::Started,
            )
            .await
        }
        Err(error) => Err(error),
    };
    if let Err(error) = ready {
        tracing::error!(%error, "deploy not started: the audit log cannot be written");
        return DeployOutcome::NotStarted(NotStarted::AuditUnavailable(error));
    }
    let result = run_steps(state, &plan).await;
    finish(state, deploy_id, operator, plan, &request.intent, result).await
}

type StepResult = Result<PublicationHref, (DeployStep, StepFailure)>;

/// Runs the two upstream steps (inside the deploy's correlation scope, so that Pulp's
/// record of the change names this deploy).
async fn run_steps(state: &AppState, plan: &DeployPlan) -> StepResult {
    let manager = state.manager.as_ref();
    let at_step = |step| move |failure| (step, failure);
    let publication = publish(manager, &plan.target.href)
        .await
        .map_err(at_step(DeployStep::Publish))?;
    ensure_unmoved(manager, &plan.distribution, &publication)
        .await
        .map_err(at_step(DeployStep::PointDistribution))?;
    point_production(manager, &plan.distribution, &publication)
        .await
        .map_err(at_step(DeployStep::PointDistribution))?;
    Ok(publication)
}

async fn finish(
    state: &AppState,
    deploy_id: DeployId,
    operator: &Operator,
    plan: DeployPlan,
    intent: &Intent,
    result: StepResult,
) -> DeployOutcome {
    let (publication, outcome) = match &result {
        Ok(publication) => (Some(publication.clone()), AuditOutcome::Deployed),
        Err((_, failure)) => (
            failure.publication.clone(),
            AuditOutcome::Failed {
                production_changed: failure.production_changed,
                error: match &failure.task {
                    Some(task) => format!("{} (Pulp task {task})", failure.error),
                    None => failure.error.to_string(),
                },
            },
        ),
    };
    let audit = audit(
        state,
        &deploy_id,
        &plan,
        intent,
        operator,
        publication,
        outcome,
    )
    .await;
    let plan = Box::new(plan);
    match result {
        Ok(publication) => DeployOutcome::Deployed {
            plan,
            publication,
            audit,
        },
        Err((step, failure)) => {
            tracing::warn!(
                ?step,
                error = %failure.error,
                production_changed = ?failure.production_changed,
                task = failure.task.as_ref().map(TaskHref::as_str),
                "deploy failed"
            );
            DeployOutcome::Failed {
                plan,
                step,
                error: failure.error,
                production_changed: failure.production_changed,
                task: failure.task,
                audit,
            }
        }
    }
}

/// Writes one audit line for this deploy, stamped now.
async fn audit(
    state: &AppState,
    deploy_id: &DeployId,
    plan: &DeployPlan,
    intent: &Intent,
    operator: &Operator,
    publication: Option<PublicationHref>,
    outcome: AuditOutcome,
) -> Result<(), AuditError> {
    let at = state.clock.now().await;
    let record = DeployRecord::of_plan(
        deploy_id.clone(),
        plan,
        intent,
        at,
        operator.as_str(),
        publication,
        outcome,
    );
    let written = state.audit.record(&record).await;
    if let Err(error) = &written {
        tracing::error!(%error, record = ?record, "audit line not written");
    }
    written
}
