//! Pruning closed requests past their retention ([`crate::domain::approval::retention`]):
//! at start, then every [`EVERY`], on the state's clock. The states are folded as the pages
//! fold them, so a request pruned is one every page shows closed.

use std::future::Future;
use std::time::Duration;

use crate::app::approvals::requests;
use crate::app::AppState;
use crate::domain::approval::retention::prunable;
use crate::domain::ids::RequestId;
use crate::ports::RequestStoreError;

/// Time between two prunings.
pub const EVERY: Duration = Duration::from_secs(3600);

/// Removes the closed requests nothing happened to for longer than `keep`; answers how many.
pub async fn prune_once(
    state: &AppState,
    keep: chrono::Duration,
) -> Result<usize, RequestStoreError> {
    let Some(store) = &state.requests else {
        return Ok(0);
    };
    let kept_from = state.clock.now().await - keep;
    let views = requests::list(state, None, usize::MAX).await?;
    let old: Vec<RequestId> = views
        .into_iter()
        .filter(|view| prunable(&view.log, &view.state, kept_from))
        .map(|view| view.log.request.id)
        .collect();
    if old.is_empty() {
        return Ok(0);
    }
    let removed = store.remove(&old).await?;
    tracing::info!(removed, store = %store.target(), "closed requests past their retention pruned");
    Ok(removed)
}

/// Prunes at once, then every [`EVERY`], until `stop` resolves.
pub async fn work(state: AppState, keep: chrono::Duration, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        if let Err(error) = prune_once(&state, keep).await {
            tracing::warn!(%error, "closed requests could not be pruned: tried again later");
        }
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}
