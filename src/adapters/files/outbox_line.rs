//! A line of the outbox file (`webhooks-outbox.jsonl`): an event with the webhooks it goes
//! to, how an attempt of one delivery ended, or the fact of an event compacted away. Read and
//! written by the outbox and by its compaction.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::adapters::shared::outbox_ledger::AttemptResult;
use crate::domain::{ConsoleEvent, EventId, WebhookUrl};

/// One line of the file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "line", rename_all = "lowercase")]
pub enum Line {
    /// The fact of an event compacted away (its deliveries ended long ago): kept so that it
    /// is never told twice.
    Fact { fact: String, at: DateTime<Utc> },
    /// An event recorded, to be delivered to these webhooks.
    Event {
        event: Box<ConsoleEvent>,
        webhooks: Vec<WebhookUrl>,
    },
    /// How attempt `attempt` of a delivery ended, at `at`.
    Attempt {
        event_id: EventId,
        webhook: WebhookUrl,
        attempt: u32,
        at: DateTime<Utc>,
        #[serde(flatten)]
        result: AttemptResult,
    },
}
