//! The events part of the state: the outbox events are kept in, the webhooks and the kinds
//! each wants, the clock that stamps and schedules them, what wakes the delivery worker, and
//! the facts this process recorded lately.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lru::LruCache;
use tokio::sync::Notify;

use crate::app::parts::StatePart;
use crate::app::state::{AppState, AppStateBuilder};
use crate::domain::event::{EventData, EventKind, Subscription};
use crate::ports::{Clock, EventOutbox};

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

    /// Whether `data` is to be recorded: some webhook wants its kind, and its fact is not one
    /// this process recorded lately.
    pub(crate) fn wants_told(&self, data: &EventData) -> bool {
        self.wants(data.kind()) && !self.remembers(&data.fact())
    }

    pub(crate) fn remembers(&self, fact: &str) -> bool {
        let mut remembered = self.remembered.lock().unwrap_or_else(|p| p.into_inner());
        remembered.get(fact).is_some()
    }

    pub(crate) fn remember(&self, fact: String) {
        let mut remembered = self.remembered.lock().unwrap_or_else(|p| p.into_inner());
        remembered.put(fact, ());
    }
}

/// Given by the composition root when the console has webhooks.
impl StatePart for Events {}

impl AppState {
    /// Where the console's events are recorded for its webhooks; `None`: no webhooks.
    pub fn events(&self) -> Option<Arc<Events>> {
        self.given()
    }
}

impl AppStateBuilder {
    /// Events are recorded in `events`' outbox for its webhooks (deliver them with
    /// [`crate::app::events::delivery::work`]).
    /// The edges' events go there too.
    pub fn events(self, events: Events) -> Self {
        self.part(events.clone()).edge_news(Arc::new(events))
    }
}
