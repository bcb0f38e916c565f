//! A deploy's turn: the plan and the soak, then (with other replicas) the shared lock on the
//! plan's production distribution and both again, read under the lock.

use chrono::{DateTime, Utc};

use crate::domain::deploy::{
    check_request, DeployFacts, DeployKind, DeployPlan, DeployRequest, Refusal, SoakOverride,
};
use crate::domain::history::build_history;
use crate::domain::history::timeline::versions_served_before;
use crate::domain::identity::Operator;
use crate::domain::repository::{RepoId, VersionNumber};
use crate::ports::{DeployTurn, LockError};

use crate::app::environments::ProductionRecord;
use crate::app::facts::deploy_facts;
use crate::app::promotion::outcome::{NotStarted, Stop};
use crate::app::promotion::soak_gate;
use crate::app::state::AppState;

/// A plan that passed every check, and the soak it goes through (an override), if any.
pub(crate) struct Checked {
    pub plan: DeployPlan,
    pub soak_override: Option<SoakOverride>,
}

/// Reads the facts and checks the request of `operator` against them now: the plan, then
/// the soak (a step of its own).
pub(crate) async fn checked(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
) -> Result<Checked, Stop> {
    let now = state.clock.now().await;
    checked_for(state, id, request, operator, now).await
}

/// [`checked`], the soak judged at `when` (a schedule's time).
pub(crate) async fn checked_for(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
    when: DateTime<Utc>,
) -> Result<Checked, Stop> {
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
        Stop::NotStarted(error.into())
    })?;
    let plan = check_request(&facts, request).map_err(Stop::Refused)?;
    if request.intent.kind() == DeployKind::Rollback {
        served_before(state, id, &facts, request)
            .await
            .map_err(Stop::Refused)?;
    }
    let soak_override =
        soak_gate::pass(state, &facts, request, operator, when).map_err(Stop::Refused)?;
    Ok(Checked {
        plan,
        soak_override,
    })
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
    operator: &Operator,
    checked: Checked,
) -> Result<(Option<DeployTurn>, Checked), Stop> {
    let Some(lock) = &state.replica_lock else {
        return Ok((None, checked));
    };
    let plan = checked.plan;
    let unavailable = |error: LockError| {
        tracing::error!(%error, "deploy not started: the cross-replica lock cannot be taken");
        Stop::NotStarted(NotStarted::LockUnavailable(error))
    };
    let turn = lock
        .acquire(&plan.distribution.href)
        .await
        .map_err(unavailable)?;
    let replanned = self::checked(state, id, request, operator).await?;
    if replanned.plan.distribution.href != plan.distribution.href {
        return Err(unavailable(LockError {
            target: plan.distribution.name,
            reason: "the production distribution changed while this deploy waited; try again"
                .into(),
        }));
    }
    Ok((Some(turn), replanned))
}
