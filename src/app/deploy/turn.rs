//! A deploy's turn: the plan, then (with other replicas) the shared lock on the plan's
//! production distribution and the plan again, read under the lock.

use crate::domain::history::timeline::versions_served_before;
use crate::domain::{
    build_history, check_request, DeployFacts, DeployKind, DeployPlan, DeployRequest, Refusal,
    RepoId, VersionNumber,
};
use crate::ports::{DeployTurn, LockError};

use crate::app::deploy::outcome::{DeployOutcome, NotStarted};
use crate::app::environments::ProductionRecord;
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
    let plan = check_request(&facts, request).map_err(DeployOutcome::Refused)?;
    if request.intent.kind() == DeployKind::Rollback {
        served_before(state, id, &facts, request)
            .await
            .map_err(DeployOutcome::Refused)?;
    }
    Ok(plan)
}

/// A rollback goes back to a version the environment served: one its history (the audit
/// lines and upstream's changes of its distribution, as the history page reads them) names.
/// When neither can be read the history proves nothing, and the rollback is not refused for it.
async fn served_before(
    state: &AppState,
    id: &RepoId,
    facts: &DeployFacts,
    request: &DeployRequest,
) -> Result<(), Refusal> {
    let distribution = facts.production.as_ref().ok().map(|p| p.distribution());
    let record = ProductionRecord::read(state, id, &request.environment, distribution).await;
    if record.audit.is_err() && record.changes.is_err() {
        tracing::warn!(
            "rollback target not checked against the history: neither record could be read"
        );
        return Ok(());
    }
    let serving = facts.deployed.as_ref().map(|d| d.number.get());
    let records = record.audit.as_deref().unwrap_or_default();
    let changes = record.changes.as_deref().unwrap_or_default();
    let entries = build_history(records, changes, serving.map(VersionNumber::new));
    let version = request.target.get();
    if versions_served_before(&entries, serving).contains(&version) {
        return Ok(());
    }
    Err(Refusal::RollbackTargetNeverServed {
        version,
        environment: request.environment.clone(),
    })
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
