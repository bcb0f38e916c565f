//! Use case: the preview of a deploy or rollback, before the type-to-confirm gate.

use crate::domain::{
    plan_deploy, refusal_for, DeployKind, DeployPlan, Drift, EnvironmentName, Refusal, RepoId,
    VersionNumber,
};

use super::environments::ProductionRecord;
use super::facts::{deploy_facts, ReadError};
use super::freeze_check::frozen;
use super::state::AppState;

/// Why a preview cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(transparent)]
    Unreadable(#[from] ReadError),
}

/// What the confirmation shows before a deploy.
#[derive(Debug)]
pub struct Preview {
    pub plan: DeployPlan,
    /// Set when the environment was changed outside the console: the deploy overwrites it.
    pub overwrites: Option<Drift>,
}

/// The preview of a deploy to `environment` (or of a rollback: `kind`): what would change,
/// with the text to type, whether it keeps the path's order, and whether it overwrites a
/// change made outside the console.
#[tracing::instrument(skip_all, fields(repo = %id, target = %target, %environment, ?kind))]
pub async fn preview(
    state: &AppState,
    id: &RepoId,
    environment: &EnvironmentName,
    target: VersionNumber,
    kind: DeployKind,
) -> Result<Preview, PreviewError> {
    if let Some(refusal) = frozen(state, environment).await {
        return Err(refusal.into());
    }
    let facts = deploy_facts(state, state.reads.as_ref(), id, environment, target).await?;
    let plan = plan_deploy(&facts, target).map_err(|refusal| refusal_for(kind, refusal))?;
    let record =
        ProductionRecord::read_for_drift(state, id, environment, Some(&plan.distribution)).await;
    let overwrites = record.drift(&plan.distribution);
    Ok(Preview { plan, overwrites })
}
