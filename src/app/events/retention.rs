//! How long the outbox keeps what it told: an event whose deliveries all ended (delivered or
//! given up) more than `webhook_delivery.retention_days` ago loses its body and attempts,
//! while its fact stays (so it is never told twice). Run at start and then every
//! [`EVERY`]; the audit log itself is never pruned.

use std::future::Future;
use std::time::Duration;

use crate::app::Events;

/// Time between two compactions.
pub const EVERY: Duration = Duration::from_secs(3600);

/// Compacts the outbox of `events` once: what ended more than `keep` ago (on the events'
/// clock). Answers how many events were compacted (none when it failed: logged).
pub async fn compact_once(events: &Events, keep: Duration) -> usize {
    let now = events.clock.now().await;
    let before = now - chrono::Duration::from_std(keep).unwrap_or(chrono::Duration::MAX);
    match events.outbox.compact(before).await {
        Ok(0) => 0,
        Ok(compacted) => {
            tracing::info!(compacted, outbox = %events.outbox.target(), "old webhook deliveries compacted (their facts kept)");
            compacted
        }
        Err(error) => {
            tracing::warn!(%error, "the webhook outbox could not be compacted: tried again later");
            0
        }
    }
}

/// Compacts at once, then every [`EVERY`], until `stop` resolves.
pub async fn work(events: Events, keep: Duration, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        compact_once(&events, keep).await;
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}
