//! `PgOutbox`: the events of replicas sharing a database, in `webhook_outbox` (one row per
//! event, its fact unique) and `webhook_deliveries` (one row per event and webhook). An
//! event and its deliveries are written in one transaction; a replica claims due
//! deliveries with `FOR UPDATE SKIP LOCKED`, so two replicas never claim the same one.

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::event::{ConsoleEvent, Delivery, Settlement, WebhookUrl};
use crate::ports::{EventOutbox, OutboxError, Recorded};

use super::Database;

pub struct PgOutbox {
    db: Database,
}

const INSERT_EVENT: &str = "INSERT INTO webhook_outbox (event_id, fact, kind, recorded_at, event) \
    VALUES ($1, $2, $3, $4, $5) ON CONFLICT (fact) DO NOTHING";

const INSERT_DELIVERIES: &str =
    "INSERT INTO webhook_deliveries (event_id, webhook, state, due_at) \
    SELECT $1, webhook, 'pending', $2 FROM unnest($3::text[]) AS webhook";

/// Claims the due deliveries: locks them (skipping those another replica is claiming),
/// counts the attempt and moves `due_at` to the end of the claim, in one statement.
const CLAIM: &str = "WITH due AS ( \
        SELECT event_id, webhook FROM webhook_deliveries \
        WHERE state = 'pending' AND due_at <= $1 \
        ORDER BY due_at, event_id LIMIT $2 \
        FOR UPDATE SKIP LOCKED) \
    UPDATE webhook_deliveries d SET attempts = d.attempts + 1, due_at = $3 \
    FROM due, webhook_outbox o \
    WHERE d.event_id = due.event_id AND d.webhook = due.webhook AND o.event_id = d.event_id \
    RETURNING d.webhook, d.attempts, o.event, o.recorded_at";

/// Settles an attempt, unless the delivery was claimed again since (its claim lapsed).
/// Rows compacted per statement, so that no statement holds many rows' locks for long.
const COMPACT_BATCH: i64 = 500;

/// One batch of compaction: events (not compacted yet) none of whose deliveries is pending or
/// ended at or after $1 lose their body ('') and their delivery rows; the row, with its
/// unique fact, stays.
const COMPACT: &str = "WITH done AS ( \
        SELECT o.event_id FROM webhook_outbox o \
        WHERE o.event <> '' AND o.recorded_at < $1 AND NOT EXISTS ( \
            SELECT 1 FROM webhook_deliveries d WHERE d.event_id = o.event_id \
            AND (d.state = 'pending' OR d.finished_at >= $1)) \
        ORDER BY o.recorded_at LIMIT $2 FOR UPDATE SKIP LOCKED), \
    gone AS (DELETE FROM webhook_deliveries d USING done WHERE d.event_id = done.event_id) \
    UPDATE webhook_outbox o SET event = '' FROM done WHERE o.event_id = done.event_id";

const SETTLE: &str = "UPDATE webhook_deliveries \
    SET state = $4, due_at = COALESCE($5, due_at), last_error = $6, finished_at = $7 \
    WHERE event_id = $1 AND webhook = $2 AND attempts = $3 AND state = 'pending'";

impl PgOutbox {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn error(&self, reason: impl ToString) -> OutboxError {
        OutboxError {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }
}

#[async_trait]
impl EventOutbox for PgOutbox {
    async fn record(
        &self,
        event: &ConsoleEvent,
        webhooks: &[WebhookUrl],
    ) -> Result<Recorded, OutboxError> {
        let json = serde_json::to_string(event).map_err(|e| self.error(e))?;
        let mut tx = self.db.pool.begin().await.map_err(|e| self.error(e))?;
        let inserted = sqlx::query(INSERT_EVENT)
            .bind(event.id.as_str())
            .bind(event.fact())
            .bind(event.kind().as_str())
            .bind(event.time)
            .bind(json)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        if inserted.rows_affected() == 0 {
            return Ok(Recorded::Known);
        }
        let urls: Vec<&str> = webhooks.iter().map(WebhookUrl::as_str).collect();
        sqlx::query(INSERT_DELIVERIES)
            .bind(event.id.as_str())
            .bind(event.time)
            .bind(&urls)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        tx.commit().await.map_err(|e| self.error(e))?;
        Ok(Recorded::New)
    }

    async fn claim_due(
        &self,
        now: DateTime<Utc>,
        limit: usize,
        lease: Duration,
    ) -> Result<Vec<Delivery>, OutboxError> {
        let until = now + chrono::Duration::from_std(lease).map_err(|e| self.error(e))?;
        let rows: Vec<(String, i32, String, DateTime<Utc>)> = sqlx::query_as(CLAIM)
            .bind(now)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .bind(until)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        let mut claimed: Vec<Delivery> = rows
            .into_iter()
            .map(|(webhook, attempts, event, recorded)| {
                Ok(Delivery {
                    event: serde_json::from_str(&event).map_err(|e| self.error(e))?,
                    webhook: WebhookUrl::parse(&webhook).map_err(|e| self.error(e))?,
                    attempt: u32::try_from(attempts).unwrap_or(0),
                    recorded,
                })
            })
            .collect::<Result<_, OutboxError>>()?;
        claimed.sort_by(|a, b| (a.recorded, &a.event.id).cmp(&(b.recorded, &b.event.id)));
        Ok(claimed)
    }

    async fn settle(
        &self,
        delivery: &Delivery,
        settlement: &Settlement,
    ) -> Result<(), OutboxError> {
        let (state, next, error, finished) = match settlement {
            Settlement::Delivered { at } => ("delivered", None, None, Some(*at)),
            Settlement::Retry { next, error, .. } => ("pending", Some(*next), Some(error), None),
            Settlement::GaveUp { at, error } => ("given_up", None, Some(error), Some(*at)),
        };
        let settled = sqlx::query(SETTLE)
            .bind(delivery.event.id.as_str())
            .bind(delivery.webhook.as_str())
            .bind(i32::try_from(delivery.attempt).unwrap_or(i32::MAX))
            .bind(state)
            .bind(next)
            .bind(error)
            .bind(finished)
            .execute(&self.db.pool)
            .await
            .map_err(|e| self.error(e))?;
        if settled.rows_affected() == 0 {
            tracing::debug!(event = %delivery.event.id, "a lapsed claim: the delivery was claimed again since");
        }
        Ok(())
    }

    async fn newest_event_at(&self) -> Result<Option<DateTime<Utc>>, OutboxError> {
        sqlx::query_scalar("SELECT max(recorded_at) FROM webhook_outbox")
            .fetch_one(&self.db.pool)
            .await
            .map_err(|e| self.error(e))
    }

    /// In batches of [`COMPACT_BATCH`] rows, each its own statement, until none is left.
    async fn compact(&self, finished_before: DateTime<Utc>) -> Result<usize, OutboxError> {
        let mut compacted = 0;
        loop {
            let batch = sqlx::query(COMPACT)
                .bind(finished_before)
                .bind(COMPACT_BATCH)
                .execute(&self.db.pool)
                .await
                .map_err(|e| self.error(e))?
                .rows_affected();
            compacted += usize::try_from(batch).unwrap_or(usize::MAX);
            if batch < COMPACT_BATCH as u64 {
                return Ok(compacted);
            }
        }
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}
