//! A deploy's turn: the plan, then (with other replicas) the shared lock on the plan's
//! production distribution and the plan again, read under the lock.

use crate::domain::{check_request, DeployPlan, DeployRequest, RepoId};
use crate::ports::{DeployTurn, LockError};

use crate::app::deploy::outcome::{DeployOutcome, NotStarted};
use crate::app::facts::deploy_facts;
use crate::app::state::AppState;

/// Reads the facts and checks the request against them.
pub(crate) async fn checked_plan(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
) -> Result<DeployPlan, DeployOutcome> {
    // Fresh reads: the deploy re-checks what the preview showed.
    let facts = deploy_facts(
        state,
        state.manager.as_ref(),
        id,
        &request.environment,
        request.target,
    )
    .await
    .map_err(|error| {
        tracing::warn!(%error, "deploy not started: the repository could not be read");
        DeployOutcome::NotStarted(error.into())
    })?;
    check_request(&facts, request).map_err(DeployOutcome::Refused)
}

/// With other replicas: the shared turn on the plan's production distribution, then the
/// plan again, since another replica may have deployed while this one waited.
pub(crate) async fn replica_turn(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    plan: DeployPlan,
) -> Result<(Option<DeployTurn>, DeployPlan), DeployOutcome> {
    let Some(lock) = &state.replica_lock else {
        return Ok((None, plan));
    };
    let unavailable = |error: LockError| {
        tracing::error!(%error, "deploy not started: the cross-replica lock cannot be taken");
        DeployOutcome::NotStarted(NotStarted::LockUnavailable(error))
    };
    let turn = lock
        .acquire(&plan.distribution.href)
        .await
        .map_err(unavailable)?;
    let replanned = checked_plan(state, id, request).await?;
    if replanned.distribution.href != plan.distribution.href {
        return Err(unavailable(LockError {
            target: plan.distribution.name,
            reason: "the production distribution changed while this deploy waited; try again"
                .into(),
        }));
    }
    Ok((Some(turn), replanned))
}
