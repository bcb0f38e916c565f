//! How long closed requests are kept (`policy.request_retention_days`): a request that is
//! closed (executed, failed, stale, rejected, cancelled or expired) and has seen nothing for
//! longer than the retention is pruned from the request store. An open one (pending, or its
//! deploy executing) is never pruned, however old; the audit log keeps every deploy.

use chrono::{DateTime, Utc};

use super::request::{RequestEvent, RequestLog, RequestState};

/// When anything last happened to the request: its newest event, or its making, or, for one
/// that expired, its expiry.
pub fn last_activity(log: &RequestLog, state: &RequestState) -> DateTime<Utc> {
    let events = log.events.iter().map(|event| match event {
        RequestEvent::Approved { at, .. }
        | RequestEvent::Rejected { at, .. }
        | RequestEvent::Cancelled { at, .. }
        | RequestEvent::Stale { at, .. }
        | RequestEvent::Executed { at, .. } => *at,
    });
    let expired = matches!(state, RequestState::Expired).then_some(log.request.expires);
    events
        .chain(expired)
        .chain(Some(log.request.created))
        .max()
        .unwrap_or(log.request.created)
}

/// Whether a request in `state` may be pruned when the retention keeps what happened at or
/// after `kept_from`.
pub fn prunable(log: &RequestLog, state: &RequestState, kept_from: DateTime<Utc>) -> bool {
    let closed = !matches!(
        state,
        RequestState::Pending { .. }
            | RequestState::Executing { .. }
            | RequestState::Scheduled { .. }
    );
    closed && last_activity(log, state) < kept_from
}
