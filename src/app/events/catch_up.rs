//! No event lost between the audit log and the outbox. A deploy's outcome line is written
//! first, then its event is recorded in the outbox; a console that dies between the two
//! writes (killed, out of power) leaves a fact its webhooks never hear of. At start, the
//! console reads the outcome lines written since shortly before the outbox's newest event
//! and records the events the outbox does not hold: each fact once (the outbox knows its
//! facts, so those already recorded, here or by another replica, are not recorded again).
//!
//! "Shortly before" is [`LOOK_BACK`]: another replica may have recorded newer events while
//! this one lay dead. An outbox with no event yet is not completed (a console given its first
//! webhook does not tell it of earlier deploys).

use std::time::Duration;

use crate::app::events::keep;
use crate::app::AppState;
use crate::domain::event::EventData;
use crate::ports::Recorded;

/// How far before the outbox's newest event the audit log is read again.
pub const LOOK_BACK: Duration = Duration::from_secs(24 * 3600);

/// At most this many outcome lines are read (the newest of them).
const MOST_LINES: usize = 10_000;

/// What completing the outbox found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CaughtUp {
    /// Outcome lines read from the audit log.
    pub read: usize,
    /// Events recorded now: the ones the outbox lacked.
    pub recorded: usize,
}

/// Records the events of audit outcome lines the outbox lacks (see the module's doc).
pub async fn complete_from_audit(state: &AppState) -> CaughtUp {
    let Some(events) = state.events() else {
        return CaughtUp::default();
    };
    let newest = match events.outbox.newest_event_at().await {
        Ok(Some(newest)) => newest,
        Ok(None) => return CaughtUp::default(),
        Err(error) => {
            tracing::error!(%error, "the webhook outbox could not be completed from the audit log");
            return CaughtUp::default();
        }
    };
    let since = newest - chrono::Duration::from_std(LOOK_BACK).unwrap_or_default();
    let lines = match state.audit.outcomes_since(since, MOST_LINES).await {
        Ok(lines) => lines,
        Err(error) => {
            tracing::warn!(%error, "the webhook outbox could not be completed from the audit log");
            return CaughtUp::default();
        }
    };
    let mut caught = CaughtUp {
        read: lines.len(),
        recorded: 0,
    };
    for record in &lines {
        let Some(data) = EventData::deployment(record) else {
            continue;
        };
        if keep(&events, data).await == Some(Recorded::New) {
            caught.recorded += 1;
        }
    }
    if caught.recorded > 0 {
        tracing::warn!(
            recorded = caught.recorded,
            "events of deploys the outbox lacked (the console stopped between the audit line and the event) recorded from the audit log"
        );
    }
    caught
}
