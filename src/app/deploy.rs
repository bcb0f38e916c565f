//! Use cases: preview a deploy, and deploy a version to production.
//!
//! The server re-checks every precondition, whatever the page showed. Once upstream is
//! touched, the answer always says whether production changed: no, yes, or unknown.

use crate::domain::{
    check_confirmation, plan_deploy, AuditOutcome, DeployId, DeployPlan, DeployRecord,
    DeployRequest, ProductionChanged, PublicationHref, Refusal, RepoId, VersionNumber,
};
use crate::ports::{AuditError, UpstreamError};

use super::deploy_steps::{point_production, publish, StepFailure};
use super::facts::deploy_facts;
use super::state::AppState;

/// Why a preview cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error("Could not read the repository from Pulp: {0}")]
    Upstream(#[from] UpstreamError),
}

/// The preview of a deploy: what would change, with the text to type.
#[tracing::instrument(skip_all, fields(repo = %id, target = %target))]
pub async fn preview(
    state: &AppState,
    id: &RepoId,
    target: VersionNumber,
) -> Result<DeployPlan, PreviewError> {
    let facts = deploy_facts(state, id).await?;
    Ok(plan_deploy(&facts, target)?)
}

/// The step of a deploy that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeployStep {
    Publish,
    PointDistribution,
}

/// How a deploy ended.
#[derive(Debug)]
pub enum DeployOutcome {
    /// Production serves the target now. `audit` says whether the audit line was written.
    Deployed {
        plan: Box<DeployPlan>,
        publication: PublicationHref,
        audit: Result<(), AuditError>,
    },
    /// A precondition failed; nothing was changed upstream.
    Refused(Refusal),
    /// The facts could not be read, or the audit log is not writable: nothing was changed.
    NotStarted(String),
    /// An upstream step failed after the deploy started.
    Failed {
        plan: Box<DeployPlan>,
        step: DeployStep,
        error: UpstreamError,
        production_changed: ProductionChanged,
        audit: Result<(), AuditError>,
    },
}

/// Deploys `request.target` of repository `id` to its production distribution.
#[tracing::instrument(skip_all, fields(repo = %id, target = %request.target))]
pub async fn deploy(state: &AppState, id: &RepoId, request: &DeployRequest) -> DeployOutcome {
    let _turn = state.deploy_locks.acquire(id).await;
    let facts = match deploy_facts(state, id).await {
        Ok(facts) => facts,
        Err(error) => {
            return DeployOutcome::NotStarted(format!(
                "Could not read the repository from Pulp: {error}"
            ))
        }
    };
    let plan = match plan_deploy(&facts, request.target).and_then(|plan| {
        check_confirmation(&plan, &request.confirm)?;
        Ok(plan)
    }) {
        Ok(plan) => plan,
        Err(refusal) => return DeployOutcome::Refused(refusal),
    };
    if let Err(error) = state.audit.check_writable().await {
        return DeployOutcome::NotStarted(format!(
            "Deploy refused: {error}. Fix the audit log first."
        ));
    }
    let deploy_id = DeployId::new(uuid::Uuid::new_v4().to_string());
    let result = run_steps(state, &plan).await;
    finish(state, deploy_id, plan, result).await
}

async fn run_steps(
    state: &AppState,
    plan: &DeployPlan,
) -> Result<PublicationHref, (DeployStep, StepFailure)> {
    let manager = state.manager.as_ref();
    let publication = publish(manager, &plan.target.href)
        .await
        .map_err(|f| (DeployStep::Publish, f))?;
    point_production(manager, &plan.distribution.href, &publication)
        .await
        .map_err(|f| (DeployStep::PointDistribution, f))?;
    Ok(publication)
}

async fn finish(
    state: &AppState,
    deploy_id: DeployId,
    plan: DeployPlan,
    result: Result<PublicationHref, (DeployStep, StepFailure)>,
) -> DeployOutcome {
    let (publication, outcome) = match &result {
        Ok(publication) => (Some(publication.clone()), AuditOutcome::Deployed),
        Err((_, failure)) => (
            failure.publication.clone(),
            AuditOutcome::Failed {
                production_changed: failure.production_changed,
                error: failure.error.to_string(),
            },
        ),
    };
    let at = state.clock.now().await;
    let operator = state.identity.operator().await;
    let record = DeployRecord::of_plan(deploy_id, &plan, at, &operator, publication, outcome);
    let audit = state.audit.record(&record).await;
    if let Err(error) = &audit {
        tracing::error!(%error, record = ?record, "audit line not written");
    }
    let plan = Box::new(plan);
    match result {
        Ok(publication) => DeployOutcome::Deployed {
            plan,
            publication,
            audit,
        },
        Err((step, failure)) => DeployOutcome::Failed {
            plan,
            step,
            error: failure.error,
            production_changed: failure.production_changed,
            audit,
        },
    }
}
