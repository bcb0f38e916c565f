//! Pruning ended schedules past their retention
//! ([`crate::domain::schedule::retention`]): at start, then every [`EVERY`], on the state's
//! clock, as the requests are pruned. The store removes only those still ended when it
//! writes, so a schedule is never pruned while open.

use std::future::Future;
use std::time::Duration;

use crate::app::AppState;
use crate::domain::ids::ScheduleId;
use crate::domain::schedule::retention::prunable;
use crate::ports::ScheduleStoreError;

/// Time between two prunings.
pub const EVERY: Duration = Duration::from_secs(3600);

/// Removes the schedules that ended longer than `keep` ago; answers how many.
pub async fn prune_once(
    state: &AppState,
    keep: chrono::Duration,
) -> Result<usize, ScheduleStoreError> {
    let Some(store) = state.schedules.as_deref() else {
        return Ok(0);
    };
    let kept_from = state.clock.now().await - keep;
    let old: Vec<ScheduleId> = store
        .recent(None, usize::MAX)
        .await?
        .into_iter()
        .filter(|schedule| prunable(schedule, kept_from))
        .map(|schedule| schedule.id)
        .collect();
    if old.is_empty() {
        return Ok(0);
    }
    let removed = store.remove_ended(&old).await?;
    tracing::info!(removed, store = %store.target(), "ended schedules past their retention pruned");
    Ok(removed)
}

/// Prunes at once, then every [`EVERY`], until `stop` resolves.
pub async fn work(state: AppState, keep: chrono::Duration, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        if let Err(error) = prune_once(&state, keep).await {
            tracing::warn!(%error, "ended schedules could not be pruned: tried again later");
        }
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}
