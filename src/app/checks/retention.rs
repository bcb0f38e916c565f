//! Pruning superseded check reports past their retention
//! ([`crate::domain::check::retention`]): at start, then every [`EVERY`], on the state's
//! clock, as the requests and the schedules are pruned.

use std::future::Future;
use std::time::Duration;

use crate::app::AppState;
use crate::ports::CheckStoreError;

/// Time between two prunings.
pub const EVERY: Duration = Duration::from_secs(3600);

/// Removes the reports a later one replaced longer than `keep` ago; answers how many.
pub async fn prune_once(
    state: &AppState,
    keep: chrono::Duration,
) -> Result<usize, CheckStoreError> {
    let Some(store) = state.checks.as_deref() else {
        return Ok(0);
    };
    let kept_from = state.clock.now().await - keep;
    let removed = store.prune(kept_from).await?;
    if removed > 0 {
        tracing::info!(removed, store = %store.target(), "superseded check reports past their retention pruned");
    }
    Ok(removed)
}

/// Prunes at once, then every [`EVERY`], until `stop` resolves.
pub async fn work(state: AppState, keep: chrono::Duration, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        if let Err(error) = prune_once(&state, keep).await {
            tracing::warn!(%error, "check reports could not be pruned: tried again later");
        }
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}
