//! Use case: the preview of a deploy or rollback, before the type-to-confirm gate.

use crate::domain::deploy::{plan_deploy, refusal_for, DeployKind, DeployPlan, Refusal};
use crate::domain::environment::EnvironmentName;
use crate::domain::history::Drift;
use crate::domain::identity::Operator;
use crate::domain::policy::checks::ChecksVerdict;
use crate::domain::policy::GateRefusal;
use crate::domain::repository::{RepoId, VersionNumber};
use crate::ports::CheckStoreError;

use crate::app::environments::ProductionRecord;
use crate::app::facts::{deploy_facts, ReadError};
use crate::app::promotion::soak_gate;
use crate::app::state::AppState;

/// Why a preview cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(transparent)]
    Unreadable(#[from] ReadError),
    #[error("Deploy not possible: {0}. The environment requires checks, and they are kept beside the audit log: fix it first.")]
    ChecksUnreadable(CheckStoreError),
}

/// What the confirmation shows before a deploy.
#[derive(Debug)]
pub struct Preview {
    pub plan: DeployPlan,
    /// Set when the environment was changed outside the console: the deploy overwrites it.
    pub overwrites: Option<Drift>,
    /// Set when the environment is frozen and the viewer may override the freeze: until
    /// when, and by which window. The deploy then needs the override and its reason.
    pub freeze: Option<String>,
    /// How many approvals a deploy here needs: above 0, confirming records a request.
    pub approvals_needed: u32,
    /// Set when the target has not soaked in the environment before: the refusal
    /// ([`Refusal::Soak`]: when it will have, whether the viewer may override it). The deploy
    /// may then be scheduled for that moment.
    pub soak: Option<Refusal>,
    /// The checks the environment requires, each as it stands on the environment before it
    /// (`None`: it requires none, or a rollback). When some are unmet, the viewer may
    /// override them (else the preview is refused): the deploy then needs the override and
    /// its reason.
    pub checks: Option<ChecksVerdict>,
    /// The pin a rollback set on the environment, when one holds: a deploy confirmed here
    /// lifts it, a rollback replaces it (see [`crate::domain::promotion::AtPin`]).
    pub pin: Option<crate::domain::pin::Pin>,
    /// When the preview was made: the deploys under way the confirm dialog shows are those
    /// started since.
    pub made_at: chrono::DateTime<chrono::Utc>,
}

/// The preview of a deploy to `environment` (or of a rollback: `kind`): what would change,
/// with the text to type, whether it keeps the path's order, and whether it overwrites a
/// change made outside the console. Refused, as the deploy would be, when `viewer` may not
/// deploy there or the environment is frozen and they may not override it.
#[tracing::instrument(skip_all, fields(repo = %id, target = %target, %environment, ?kind))]
pub async fn preview(
    state: &AppState,
    id: &RepoId,
    environment: &EnvironmentName,
    target: VersionNumber,
    kind: DeployKind,
    viewer: Option<&Operator>,
) -> Result<Preview, PreviewError> {
    let freeze = freeze_for(state, environment, viewer).await?;
    let checks = match kind {
        DeployKind::Rollback => None,
        DeployKind::Deploy => checks_for(state, id, environment, target, viewer).await?,
    };
    let facts = deploy_facts(state, state.reads.as_ref(), id, environment, target).await?;
    let plan = plan_deploy(&facts, target).map_err(|refusal| refusal_for(kind, refusal))?;
    let now = state.clock.now().await;
    let soak = soak_gate::soaking(state, &facts, kind, target, now).map(|soaking| {
        let may_override =
            viewer.is_some_and(|op| state.policy.may_override(environment, op).is_ok());
        soak_gate::refusal(&soaking, environment, may_override)
    });
    let record =
        ProductionRecord::read_for_drift(state, id, environment, Some(&plan.distribution)).await;
    let overwrites = record.drift(&plan.distribution);
    let pin = crate::app::pins::holding(state, id, environment)
        .await
        .unwrap_or_else(|error| {
            tracing::warn!(%error, "preview shown without the environment's pin");
            None
        });
    Ok(Preview {
        pin,
        plan,
        overwrites,
        freeze,
        approvals_needed: state.policy.approvals_needed(environment),
        soak,
        checks,
        made_at: now,
    })
}

/// How the required checks stand for the viewer: refused, as the deploy would be, when some
/// are unmet and the viewer may not override them.
async fn checks_for(
    state: &AppState,
    id: &RepoId,
    environment: &EnvironmentName,
    target: VersionNumber,
    viewer: Option<&Operator>,
) -> Result<Option<ChecksVerdict>, PreviewError> {
    let verdict = crate::app::promotion::checks_gate::verdict(state, id, environment, target.get())
        .await
        .map_err(PreviewError::ChecksUnreadable)?;
    let Some(verdict) = verdict else {
        return Ok(None);
    };
    let may_override = viewer.is_some_and(|op| state.policy.may_override(environment, op).is_ok());
    if verdict.all_passed() || may_override {
        return Ok(Some(verdict));
    }
    Err(PreviewError::Refused(Refusal::ChecksMissing {
        version: target.get(),
        environment: environment.clone(),
        unmet: verdict.unmet(),
        checked_in: verdict.checked_in,
    }))
}

/// The freeze the viewer would deploy through (they may override it), or the refusal.
async fn freeze_for(
    state: &AppState,
    environment: &EnvironmentName,
    viewer: Option<&Operator>,
) -> Result<Option<String>, Refusal> {
    let now = state.clock.now().await;
    let Some(freeze) = state.policy.freeze_at(environment, now) else {
        return Ok(None);
    };
    let may_override = viewer.is_some_and(|op| state.policy.may_override(environment, op).is_ok());
    if may_override {
        return Ok(Some(freeze.to_string()));
    }
    Err(GateRefusal::Frozen {
        freeze,
        may_override,
    }
    .into_refusal(environment))
}
