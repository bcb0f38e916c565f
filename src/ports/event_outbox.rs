//! The event outbox port: events are kept where the audit log is (a file beside it, or the
//! replicas' database) before anything is sent, with one delivery per subscribed webhook, so
//! that a restart loses none and, with replicas, each delivery is claimed by one of them.

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::event::{ConsoleEvent, Delivery, Settlement, WebhookUrl};

/// Why the outbox did not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the webhook outbox ({target}) cannot be used: {reason}")]
pub struct OutboxError {
    pub target: String,
    pub reason: String,
}

/// What [`EventOutbox::record`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// Kept, with a delivery due now for each webhook.
    New,
    /// The fact had been recorded before (here, on another replica, or before a restart):
    /// nothing changed.
    Known,
}

#[async_trait]
pub trait EventOutbox: Send + Sync {
    /// Keeps `event` durably, with a delivery to each of `webhooks` due at once, unless an
    /// event of the same fact ([`ConsoleEvent::fact`]) was kept before.
    async fn record(
        &self,
        event: &ConsoleEvent,
        webhooks: &[WebhookUrl],
    ) -> Result<Recorded, OutboxError>;

    /// At most `limit` deliveries due at `now`, oldest first, each claimed for this caller
    /// until `now + lease` (no other caller, on any replica, gets it meanwhile; one whose
    /// claimer died is due again after the lease). [`Delivery::attempt`] counts this one.
    async fn claim_due(
        &self,
        now: DateTime<Utc>,
        limit: usize,
        lease: Duration,
    ) -> Result<Vec<Delivery>, OutboxError>;

    /// How the attempt of a claimed `delivery` ended: delivered, to retry at a time, or
    /// given up. Durable when it returns `Ok`.
    async fn settle(&self, delivery: &Delivery, settlement: &Settlement)
        -> Result<(), OutboxError>;

    /// The time of the newest event kept (`None`: none yet), from which a console started
    /// again completes the outbox with what its audit log holds and the outbox does not.
    async fn newest_event_at(&self) -> Result<Option<DateTime<Utc>>, OutboxError>;

    /// Events whose every delivery ended (delivered or given up) before `finished_before`
    /// lose their body and their attempts; each one's fact stays known, so it is never told
    /// twice. Deliveries still pending are untouched, and so is an event written meanwhile.
    /// Answers how many events were compacted.
    async fn compact(&self, finished_before: DateTime<Utc>) -> Result<usize, OutboxError>;

    /// Where events are kept, in words (a path, a database), for messages.
    fn target(&self) -> String;
}
