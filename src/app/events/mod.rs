//! Recording the console's events: the use cases say what happened ([`emit`]), once the
//! fact is durable (an audit line, a request kept); the event goes to the outbox for the
//! webhooks subscribed to its kind, and the delivery worker ([`crate::app::events::delivery`])
//! sends it. Recording never fails the caller and holds it at most [`WRITE_WAIT`]: a slow
//! outbox finishes in the background, a failed write is logged.

pub mod catch_up;
pub mod delivery;
pub mod edges;
pub mod reconcile;
pub mod retention;
pub(crate) mod state;

use crate::domain::event::{subscribers, ConsoleEvent, EventData, EventId, SyncFailedData};
use crate::domain::repository::Repository;
use crate::domain::sync::SyncState;
use crate::ports::Recorded;

pub use crate::app::events::state::{Events, WRITE_WAIT};
use crate::app::state::AppState;

/// Records that `data` happened, for the webhooks that want its kind (none: nothing is
/// kept). A fact recorded before (by this process, another replica, or before a restart) is
/// not recorded again.
pub(crate) async fn emit(state: &AppState, data: EventData) {
    let Some(events) = state.events().filter(|e| e.wants_told(&data)) else {
        return;
    };
    let events = events.clone();
    let writing = tokio::spawn(async move { keep(&events, data).await });
    if tokio::time::timeout(WRITE_WAIT, writing).await.is_err() {
        tracing::warn!(
            "the webhook outbox is slow: the event is still being written in the background"
        );
    }
}

/// Records `data` in the outbox for the webhooks that want its kind, and wakes the delivery
/// worker; `None` when nothing was written (nobody wants it, it was known, or the outbox
/// failed: logged).
pub(crate) async fn keep(events: &Events, data: EventData) -> Option<Recorded> {
    if !events.wants_told(&data) {
        return None;
    }
    let webhooks = subscribers(events.subscriptions(), data.kind());
    let fact = data.fact();
    let event = ConsoleEvent {
        id: EventId::new(uuid::Uuid::new_v4().to_string()),
        time: events.clock.now().await,
        data,
    };
    let kind = event.kind();
    match events.outbox.record(&event, &webhooks).await {
        Ok(recorded) => {
            events.remember(fact);
            if recorded == Recorded::New {
                tracing::info!(event_id = %event.id, %kind, webhooks = webhooks.len(), "event recorded for delivery");
                events.recorded.notify_one();
            }
            Some(recorded)
        }
        Err(error) => {
            tracing::error!(%error, %kind, %fact, "event not recorded: its webhooks will not hear of it");
            None
        }
    }
}

/// A synchronization of `repo` was seen failed: `sync.failed`, once per failed task (a
/// failure upstream names no task for cannot be told from the next one, so is not sent).
pub(crate) async fn sync_seen(state: &AppState, repo: &Repository, sync: &SyncState) {
    let SyncState::Failed(failure) = sync else {
        return;
    };
    let Some(task) = &failure.task else {
        return;
    };
    let data = SyncFailedData {
        repository: repo.into(),
        task: task.clone(),
        // The console's words and the task: Pulp's own stay in the console's log.
        reason: failure.told(),
    };
    emit(state, EventData::SyncFailed(data)).await;
}
