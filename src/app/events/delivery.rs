//! The delivery worker: claims the deliveries that are due from the outbox (each replica's
//! worker claims its own, so each delivery is attempted by one replica at a time), sends
//! them at once, and settles each: delivered, retried later with backoff, or given up at
//! the deadline (logged, and counted). Runs in the background, woken when an event is
//! recorded and polling for the other replicas' events; stopped at shutdown (a delivery
//! in flight is then attempted again once its claim lapses, after the restart included).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::future::join_all;

use crate::domain::event::{Delivery, NextAttempt, RetryPolicy, Settlement};
use crate::ports::{AttemptEnd, EventMetrics, SendError, WebhookSender};

use crate::app::events::state::Events;

/// How the worker paces itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliverySettings {
    pub retry: RetryPolicy,
    /// How often the outbox is asked for due deliveries when nothing wakes the worker.
    pub poll: Duration,
    /// How long a claimed delivery is this worker's (longer than an attempt can take).
    pub lease: Duration,
    /// Deliveries claimed, and sent concurrently, at once.
    pub batch: usize,
}

impl Default for DeliverySettings {
    fn default() -> Self {
        Self {
            retry: RetryPolicy::default(),
            poll: Duration::from_secs(2),
            lease: Duration::from_secs(60),
            batch: 16,
        }
    }
}

/// What the worker sends with, and reports to.
pub struct Deliverer {
    pub events: Events,
    pub sender: Arc<dyn WebhookSender>,
    pub metrics: Arc<dyn EventMetrics>,
    pub settings: DeliverySettings,
}

/// Delivers until `stop` completes.
pub async fn work(deliverer: Deliverer, stop: impl Future<Output = ()>) {
    let delivering = async {
        loop {
            let claimed = deliverer.round().await;
            if claimed < deliverer.settings.batch {
                let woken = deliverer.events.recorded.notified();
                let _ = tokio::time::timeout(deliverer.settings.poll, woken).await;
            }
        }
    };
    tokio::select! {
        () = stop => tracing::debug!("webhook delivery stopped"),
        () = delivering => {}
    }
}

impl Deliverer {
    /// Claims the due deliveries and attempts each; answers how many were claimed.
    pub async fn round(&self) -> usize {
        let outbox = &self.events.outbox;
        let now = self.events.clock.now().await;
        let settings = &self.settings;
        let due = match outbox.claim_due(now, settings.batch, settings.lease).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(%error, "webhook deliveries not claimed");
                return 0;
            }
        };
        let claimed = due.len();
        join_all(due.iter().map(|delivery| self.attempt(delivery))).await;
        claimed
    }

    #[tracing::instrument(skip_all, fields(event_id = %delivery.event.id, event = %delivery.event.kind(), webhook = %delivery.webhook, attempt = delivery.attempt))]
    async fn attempt(&self, delivery: &Delivery) {
        let sent = self.sender.send(&delivery.webhook, &delivery.event).await;
        let at = self.events.clock.now().await;
        let (settlement, end) = match sent {
            Ok(()) => (Settlement::Delivered { at }, AttemptEnd::Delivered),
            Err(error) => self.after_failure(delivery, at, error),
        };
        match &settlement {
            Settlement::Delivered { .. } => tracing::debug!("event delivered"),
            Settlement::Retry { next, error, .. } => {
                tracing::warn!(%error, %next, "event not delivered: will try again")
            }
            Settlement::GaveUp { error, .. } => tracing::error!(
                %error,
                "event NOT delivered: given up (the receiver missed it; the outbox keeps it)"
            ),
        }
        if let Err(error) = self.events.outbox.settle(delivery, &settlement).await {
            tracing::error!(%error, "the attempt's end was not kept: it will be attempted again");
        }
        // Counted once its end is kept, so that a count seen means the outbox says so too.
        self.metrics.delivery(end);
    }

    fn after_failure(
        &self,
        delivery: &Delivery,
        at: chrono::DateTime<chrono::Utc>,
        error: SendError,
    ) -> (Settlement, AttemptEnd) {
        let error_text = error.to_string();
        let next = match error {
            SendError::NotConfigured => NextAttempt::GiveUp,
            _ => self.settings.retry.after_failure(
                delivery.attempt,
                delivery.recorded,
                at,
                fastrand::f64(),
            ),
        };
        match next {
            NextAttempt::At(next) => (
                Settlement::Retry {
                    at,
                    next,
                    error: error_text,
                },
                AttemptEnd::Retried,
            ),
            NextAttempt::GiveUp => (
                Settlement::GaveUp {
                    at,
                    error: error_text,
                },
                AttemptEnd::GivenUp,
            ),
        }
    }
}
