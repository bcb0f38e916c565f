//! A line of the outbox file (`webhooks-outbox.jsonl`): an event with the webhooks it goes
//! to, how an attempt of one delivery ended, or the fact of an event compacted away. Read and
//! written by the outbox and by its compaction.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::adapters::shared::outbox_ledger::AttemptResult;
use crate::domain::event::{ConsoleEvent, EventId, WebhookUrl};

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

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use proptest::prelude::*;

    use super::*;
    use crate::domain::record_keys::Written;

    fn instant() -> impl Strategy<Value = DateTime<Utc>> {
        (0i64..4_000_000_000).prop_map(|s| Utc.timestamp_opt(s, 0).single().unwrap())
    }

    fn result() -> impl Strategy<Value = AttemptResult> {
        prop_oneof![
            Just(AttemptResult::Delivered),
            (instant(), ".{0,30}").prop_map(|(next, error)| AttemptResult::Retry { next, error }),
            ".{0,30}".prop_map(|error| AttemptResult::GivenUp { error }),
        ]
    }

    proptest! {
        /// Issue 43: an attempt's line and a fact's line hold no key twice and read back as
        /// written (the event's line is `ConsoleEvent`'s own, read back in
        /// `domain/event/console_event_tests.rs`).
        #[test]
        fn attempt_and_fact_lines_are_written_without_a_key_twice_and_read_back(
            event_id in "[a-f0-9-]{1,36}",
            attempt in any::<u32>(),
            at in instant(),
            result in result(),
            fact in ".{0,40}",
        ) {
            let lines = [
                Line::Attempt {
                    event_id: EventId::new(event_id),
                    webhook: WebhookUrl::parse("https://hooks.example/in").unwrap(),
                    attempt,
                    at,
                    result,
                },
                Line::Fact { fact, at },
            ];
            for line in lines {
                let bytes = serde_json::to_vec(&line).unwrap();
                let written = Written::parse(&bytes).unwrap();
                prop_assert_eq!(written.duplicate_keys(), Vec::<String>::new());
                let read: Line = serde_json::from_slice(&bytes).unwrap();
                prop_assert_eq!(serde_json::to_vec(&read).unwrap(), bytes, "read back as written");
            }
        }
    }
}
