//! The outbox's state in memory, shared by the in-memory outbox and the JSON Lines one
//! (which rebuilds it from its lines at start): the facts recorded (kept for deduplication
//! after their deliveries end), the events with deliveries still pending, and each pending
//! delivery's attempts and due time.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::event::{ConsoleEvent, Delivery, EventId, Settlement, WebhookUrl};
use crate::ports::Recorded;

/// A delivery not finished yet.
#[derive(Debug, Clone)]
struct Pending {
    /// Attempts made so far (a claim counts one).
    attempts: u32,
    /// When the next attempt is due (while claimed: when the claim lapses).
    due: DateTime<Utc>,
}

/// How an attempt ended, as a line of the file keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum AttemptResult {
    Delivered,
    Retry { next: DateTime<Utc>, error: String },
    GivenUp { error: String },
}

impl AttemptResult {
    pub fn of(settlement: &Settlement) -> (DateTime<Utc>, Self) {
        match settlement {
            Settlement::Delivered { at } => (*at, Self::Delivered),
            Settlement::Retry { at, next, error } => (
                *at,
                Self::Retry {
                    next: *next,
                    error: error.clone(),
                },
            ),
            Settlement::GaveUp { at, error } => (
                *at,
                Self::GivenUp {
                    error: error.clone(),
                },
            ),
        }
    }
}

#[derive(Debug, Default)]
pub struct Ledger {
    facts: HashSet<String>,
    /// Events with a delivery pending.
    events: HashMap<EventId, ConsoleEvent>,
    pending: BTreeMap<(EventId, WebhookUrl), Pending>,
    /// The time of the newest event recorded.
    newest: Option<DateTime<Utc>>,
}

impl Ledger {
    /// The time of the newest event recorded, if any.
    pub fn newest(&self) -> Option<DateTime<Utc>> {
        self.newest
    }

    /// A fact recorded at `at` whose event and deliveries are no longer kept (compacted).
    pub fn record_fact(&mut self, fact: String, at: DateTime<Utc>) {
        self.facts.insert(fact);
        self.newest = self.newest.max(Some(at));
    }

    pub fn knows(&self, fact: &str) -> bool {
        self.facts.contains(fact)
    }

    /// Keeps `event` with a delivery to each of `webhooks`, due at the event's time.
    pub fn record(&mut self, event: &ConsoleEvent, webhooks: &[WebhookUrl]) -> Recorded {
        if !self.facts.insert(event.fact()) {
            return Recorded::Known;
        }
        self.newest = self.newest.max(Some(event.time));
        for webhook in webhooks {
            let pending = Pending {
                attempts: 0,
                due: event.time,
            };
            self.pending
                .insert((event.id.clone(), webhook.clone()), pending);
        }
        if !webhooks.is_empty() {
            self.events.insert(event.id.clone(), event.clone());
        }
        Recorded::New
    }

    /// The deliveries due at `now`, oldest first, at most `limit`, each claimed until
    /// `now + lease`.
    pub fn claim(&mut self, now: DateTime<Utc>, limit: usize, lease: Duration) -> Vec<Delivery> {
        let mut due: Vec<(DateTime<Utc>, (EventId, WebhookUrl))> = self
            .pending
            .iter()
            .filter(|(_, p)| p.due <= now)
            .map(|(key, p)| (p.due, key.clone()))
            .collect();
        due.sort();
        due.truncate(limit);
        let until = now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::MAX);
        due.into_iter()
            .filter_map(|(_, key)| {
                let event = self.events.get(&key.0)?.clone();
                let pending = self.pending.get_mut(&key)?;
                pending.attempts += 1;
                pending.due = until;
                Some(Delivery {
                    recorded: event.time,
                    event,
                    webhook: key.1,
                    attempt: pending.attempts,
                })
            })
            .collect()
    }

    /// Whether attempt `attempt` of the delivery of `event` to `webhook` is the latest claim
    /// of a delivery still pending (else settling it changes nothing).
    pub fn holds(&self, event: &EventId, webhook: &WebhookUrl, attempt: u32) -> bool {
        let key = (event.clone(), webhook.clone());
        self.pending
            .get(&key)
            .is_some_and(|p| p.attempts == attempt)
    }

    /// Attempt `attempt` of the delivery of `event` to `webhook` ended with `result`. An
    /// attempt whose claim lapsed and was claimed again since changes nothing.
    pub fn settle(
        &mut self,
        event: &EventId,
        webhook: &WebhookUrl,
        attempt: u32,
        result: &AttemptResult,
    ) -> bool {
        let key = (event.clone(), webhook.clone());
        let Some(pending) = self.pending.get_mut(&key) else {
            return false;
        };
        if pending.attempts > attempt {
            return false;
        }
        pending.attempts = attempt;
        match result {
            AttemptResult::Retry { next, .. } => pending.due = *next,
            AttemptResult::Delivered | AttemptResult::GivenUp { .. } => {
                self.pending.remove(&key);
                let left = self.pending.keys().any(|(id, _)| id == event);
                if !left {
                    self.events.remove(event);
                }
            }
        }
        true
    }

    /// Deliveries not finished, for tests and messages.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
#[path = "outbox_ledger_tests.rs"]
mod tests;
