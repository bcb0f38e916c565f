//! Cancelling a waiting schedule: by its author, or by someone who may deploy to its
//! environment (a token needs the scope of a deploy there either way). Compare-and-swap on
//! the schedule's revision: a schedule claimed meanwhile is running, and stays so. The
//! request it carries, while still waiting for approvals, is withdrawn with it.

use crate::domain::identity::Operator;
use crate::domain::ids::ScheduleId;
use crate::domain::schedule::rules::check_cancel;
use crate::domain::schedule::{Schedule, ScheduleRefusal, ScheduleState};
use crate::ports::ScheduleStoreError;

use crate::app::approvals::requests;
use crate::app::schedules::{store, StoreProblem};
use crate::app::state::AppState;

/// Why a schedule was not cancelled.
#[derive(Debug, thiserror::Error)]
pub enum NotCancelled {
    #[error("There is no schedule {0}.")]
    Unknown(ScheduleId),
    #[error(transparent)]
    Refused(#[from] ScheduleRefusal),
    #[error("Not cancelled: {0}.")]
    Store(#[from] StoreProblem),
}

/// Cancels schedule `id` on behalf of `operator`; answers it cancelled.
pub async fn cancel(
    state: &AppState,
    id: &ScheduleId,
    operator: &Operator,
) -> Result<Schedule, NotCancelled> {
    let store = store(state)?;
    let current = store
        .get(id)
        .await
        .map_err(StoreProblem::from)?
        .ok_or_else(|| NotCancelled::Unknown(id.clone()))?;
    let deployer = state
        .policy
        .may_deploy(&current.environment, operator)
        .is_ok();
    check_cancel(&current, operator, deployer)?;
    let ended = state.clock.now().await;
    let cancelled = current.into_state(ScheduleState::Cancelled {
        by: operator.name().clone(),
        ended,
    });
    match store.replace(&cancelled).await {
        Ok(()) => {
            tracing::info!(schedule = %id, %operator, "schedule cancelled");
            if let Some(request) = &cancelled.request_id {
                requests::withdrawn_with_schedule(state, request, operator).await;
            }
            Ok(cancelled)
        }
        // Claimed (or cancelled) meanwhile: say what it is now.
        Err(ScheduleStoreError::Conflict) => {
            let now = store.get(id).await.map_err(StoreProblem::from)?;
            let word = now.map_or("gone", |s| s.state.word());
            Err(ScheduleRefusal::NotOpen(word).into())
        }
        Err(error) => Err(StoreProblem::from(error).into()),
    }
}
