//! Recording the console's events: the use cases say what happened ([`emit`]), once the
//! fact is durable (an audit line, a request kept); the event goes to the outbox for the
//! webhooks subscribed to its kind, and the delivery worker ([`super::webhook_delivery`])
//! sends it. Recording never fails the caller and holds it at most [`WRITE_WAIT`]: a slow
//! outbox finishes in the background, a failed write is logged.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lru::LruCache;
use tokio::sync::Notify;

use crate::domain::{
    subscribers, ConsoleEvent, EventData, EventId, EventKind, Repository, Subscription,
    SyncFailedData, SyncState,
};
use crate::ports::{Clock, EventOutbox, Recorded};

use super::state::AppState;

/// The longest a use case waits for its event to be written.
pub const WRITE_WAIT: Duration = Duration::from_secs(2);

/// Facts this process recorded lately: seen again (a page shows the same failed
/// synchronization), they are not written again.
const REMEMBERED: usize = 4096;

/// Where events go and who wants them. Cheap to clone.
#[derive(Clone)]
pub struct Events {
    pub(crate) outbox: Arc<dyn EventOutbox>,
    subscriptions: Arc<[Subscription]>,
    /// Real time, for the events' time and their delivery schedule (the deadline of retries).
    pub(crate) clock: Arc<dyn Clock>,
    /// Wakes the delivery worker when an event was recorded.
    pub(crate) recorded: Arc<Notify>,
    remembered: Arc<Mutex<LruCache<String, ()>>>,
}

impl Events {
    pub fn new(
        outbox: Arc<dyn EventOutbox>,
        subscriptions: Vec<Subscription>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let size = NonZeroUsize::new(REMEMBERED).unwrap_or(NonZeroUsize::MIN);
        Self {
            outbox,
            subscriptions: subscriptions.into(),
            clock,
            recorded: Arc::default(),
            remembered: Arc::new(Mutex::new(LruCache::new(size))),
        }
    }

    pub fn subscriptions(&self) -> &[Subscription] {
        &self.subscriptions
    }

    /// Some webhook wants events of `kind`.
    pub fn wants(&self, kind: EventKind) -> bool {
        self.subscriptions.iter().any(|s| s.events.contains(&kind))
    }

    fn remembers(&self, fact: &str) -> bool {
        let mut remembered = self.remembered.lock().unwrap_or_else(|p| p.into_inner());
        remembered.get(fact).is_some()
    }

    fn remember(&self, fact: String) {
        let mut remembered = self.remembered.lock().unwrap_or_else(|p| p.into_inner());
        remembered.put(fact, ());
    }
}

/// Records that `data` happened, for the webhooks that want its kind (none: nothing is
/// kept). A fact recorded before (by this process, another replica, or before a restart) is
/// not recorded again.
pub(crate) async fn emit(state: &AppState, data: EventData) {
    let Some(events) = &state.events else {
        return;
    };
    let webhooks = subscribers(events.subscriptions(), data.kind());
    let fact = data.fact();
    if webhooks.is_empty() || events.remembers(&fact) {
        return;
    }
    let event = ConsoleEvent {
        id: EventId::new(uuid::Uuid::new_v4().to_string()),
        time: events.clock.now().await,
        data,
    };
    let events = events.clone();
    let writing = tokio::spawn(async move {
        let kind = event.kind();
        match events.outbox.record(&event, &webhooks).await {
            Ok(recorded) => {
                events.remember(fact);
                if recorded == Recorded::New {
                    tracing::info!(event_id = %event.id, %kind, webhooks = webhooks.len(), "event recorded for delivery");
                    events.recorded.notify_one();
                }
            }
            Err(error) => {
                tracing::error!(%error, %kind, %fact, "event not recorded: its webhooks will not hear of it")
            }
        }
    });
    if tokio::time::timeout(WRITE_WAIT, writing).await.is_err() {
        tracing::warn!(
            "the webhook outbox is slow: the event is still being written in the background"
        );
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
        reason: failure.reason.clone(),
    };
    emit(state, EventData::SyncFailed(data)).await;
}
