//! `MemoryOutbox`: events kept in the process, for tests and for `audit.sink = "stdout"`
//! (where nothing survives a restart anyway). It can be told to fail, to test that a
//! failed write never fails what recorded it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::adapters::shared::outbox_ledger::{AttemptResult, Ledger};
use crate::domain::event::{ConsoleEvent, Delivery, Settlement, WebhookUrl};
use crate::ports::{EventOutbox, OutboxError, Recorded};

#[derive(Default)]
pub struct MemoryOutbox {
    ledger: Mutex<Ledger>,
    /// Every event recorded, in order.
    recorded: Mutex<Vec<ConsoleEvent>>,
    failing: AtomicBool,
}

impl MemoryOutbox {
    /// Every event recorded so far, in order.
    pub fn events(&self) -> Vec<ConsoleEvent> {
        lock(&self.recorded).clone()
    }

    /// Deliveries not finished.
    pub fn pending(&self) -> usize {
        lock(&self.ledger).pending()
    }

    /// From now on, every call fails (or, with `false`, works again).
    pub fn fail(&self, failing: bool) {
        self.failing.store(failing, Ordering::SeqCst);
    }

    fn check(&self) -> Result<(), OutboxError> {
        if self.failing.load(Ordering::SeqCst) {
            return Err(OutboxError {
                target: self.target(),
                reason: "told to fail".into(),
            });
        }
        Ok(())
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[async_trait]
impl EventOutbox for MemoryOutbox {
    async fn record(
        &self,
        event: &ConsoleEvent,
        webhooks: &[WebhookUrl],
    ) -> Result<Recorded, OutboxError> {
        self.check()?;
        let recorded = lock(&self.ledger).record(event, webhooks);
        if recorded == Recorded::New {
            lock(&self.recorded).push(event.clone());
        }
        Ok(recorded)
    }

    async fn claim_due(
        &self,
        now: DateTime<Utc>,
        limit: usize,
        lease: Duration,
    ) -> Result<Vec<Delivery>, OutboxError> {
        self.check()?;
        Ok(lock(&self.ledger).claim(now, limit, lease))
    }

    async fn settle(
        &self,
        delivery: &Delivery,
        settlement: &Settlement,
    ) -> Result<(), OutboxError> {
        self.check()?;
        let (_, result) = AttemptResult::of(settlement);
        let attempt = delivery.attempt;
        lock(&self.ledger).settle(&delivery.event.id, &delivery.webhook, attempt, &result);
        Ok(())
    }

    async fn newest_event_at(&self) -> Result<Option<DateTime<Utc>>, OutboxError> {
        Ok(lock(&self.ledger).newest())
    }

    /// Nothing to do: the ledger keeps only the facts of events whose deliveries ended.
    async fn compact(&self, _: DateTime<Utc>) -> Result<usize, OutboxError> {
        self.check()?;
        Ok(0)
    }

    fn target(&self) -> String {
        "memory".into()
    }
}
