//! `JsonlOutbox`: the events of a console that keeps its audit log in a file, in a JSON
//! Lines file beside it (`webhooks-outbox.jsonl`). An event is one line (with the webhooks
//! it goes to), each attempt's end another; every line is appended with one write and
//! synced before the call returns. At start the lines are read back, so the deliveries
//! pending survive a restart (one under way when the console stopped is attempted again)
//! and a fact recorded before is not recorded again.

use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::event::{ConsoleEvent, Delivery, Settlement, WebhookUrl};
use crate::ports::{EventOutbox, OutboxError, Recorded};

use crate::adapters::shared::outbox_ledger::{AttemptResult, Ledger};

use super::outbox_compaction::{compact_file, remove_leftover};
use super::outbox_line::Line;

/// The file's name, beside the audit file.
pub const FILE_NAME: &str = "webhooks-outbox.jsonl";

pub struct JsonlOutbox {
    path: PathBuf,
    ledger: Mutex<Ledger>,
    /// This process's writers, one line at a time, in order.
    turn: tokio::sync::Mutex<()>,
}

impl JsonlOutbox {
    /// The outbox of the file at `path`, its lines read back (a missing file is an empty
    /// outbox; a line cut short by a crash is skipped, with a warning).
    pub fn open(path: impl Into<PathBuf>) -> std::io::Result<Self> {
        let path = path.into();
        remove_leftover(&path);
        let mut ledger = Ledger::default();
        match fs::File::open(&path) {
            Ok(file) => replay(&path, BufReader::new(file), &mut ledger)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        Ok(Self {
            path,
            ledger: Mutex::new(ledger),
            turn: tokio::sync::Mutex::new(()),
        })
    }

    /// The outbox beside the audit file `audit`.
    pub fn beside(audit: &Path) -> std::io::Result<Self> {
        let dir = audit.parent().unwrap_or(Path::new(""));
        Self::open(dir.join(FILE_NAME))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Deliveries not finished.
    pub fn pending(&self) -> usize {
        self.ledger().pending()
    }

    fn ledger(&self) -> MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn error(&self, reason: impl ToString) -> OutboxError {
        OutboxError {
            target: self.target(),
            reason: reason.to_string(),
        }
    }

    async fn append(&self, line: &Line) -> Result<(), OutboxError> {
        let mut bytes = serde_json::to_vec(line).map_err(|e| self.error(e))?;
        bytes.push(b'\n');
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(dir)?;
            }
            let mut file = OpenOptions::new().create(true).append(true).open(&path)?;
            file.write_all(&bytes)?;
            file.sync_data()
        })
        .await
        .map_err(|e| self.error(e))?
        .map_err(|e| self.error(e))
    }
}

fn replay(path: &Path, reader: impl BufRead, ledger: &mut Ledger) -> std::io::Result<()> {
    for (number, line) in reader.lines().enumerate() {
        let line = line?;
        match serde_json::from_str::<Line>(&line) {
            Ok(Line::Event { event, webhooks }) => {
                ledger.record(&event, &webhooks);
            }
            Ok(Line::Fact { fact, at }) => ledger.record_fact(fact, at),
            Ok(Line::Attempt {
                event_id,
                webhook,
                attempt,
                result,
                ..
            }) => {
                ledger.settle(&event_id, &webhook, attempt, &result);
            }
            Err(error) => tracing::warn!(
                path = %path.display(), line = number + 1, %error,
                "a line of the webhook outbox is not readable: skipped"
            ),
        }
    }
    Ok(())
}

#[async_trait]
impl EventOutbox for JsonlOutbox {
    async fn record(
        &self,
        event: &ConsoleEvent,
        webhooks: &[WebhookUrl],
    ) -> Result<Recorded, OutboxError> {
        let _turn = self.turn.lock().await;
        if self.ledger().knows(&event.fact()) {
            return Ok(Recorded::Known);
        }
        let line = Line::Event {
            event: Box::new(event.clone()),
            webhooks: webhooks.to_vec(),
        };
        self.append(&line).await?;
        Ok(self.ledger().record(event, webhooks))
    }

    async fn claim_due(
        &self,
        now: DateTime<Utc>,
        limit: usize,
        lease: Duration,
    ) -> Result<Vec<Delivery>, OutboxError> {
        Ok(self.ledger().claim(now, limit, lease))
    }

    async fn settle(
        &self,
        delivery: &Delivery,
        settlement: &Settlement,
    ) -> Result<(), OutboxError> {
        let (at, result) = AttemptResult::of(settlement);
        let _turn = self.turn.lock().await;
        let (event, webhook) = (&delivery.event.id, &delivery.webhook);
        if !self.ledger().holds(event, webhook, delivery.attempt) {
            tracing::debug!(%event, "a lapsed claim: the delivery was claimed again since");
            return Ok(());
        }
        let line = Line::Attempt {
            event_id: delivery.event.id.clone(),
            webhook: delivery.webhook.clone(),
            attempt: delivery.attempt,
            at,
            result: result.clone(),
        };
        self.append(&line).await?;
        self.ledger()
            .settle(event, webhook, delivery.attempt, &result);
        Ok(())
    }

    async fn newest_event_at(&self) -> Result<Option<DateTime<Utc>>, OutboxError> {
        Ok(self.ledger().newest())
    }

    /// Rewrites the file without the compacted events' lines (see
    /// [`super::outbox_compaction`]), holding this process's writers meanwhile.
    async fn compact(&self, finished_before: DateTime<Utc>) -> Result<usize, OutboxError> {
        let _turn = self.turn.lock().await;
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || compact_file(&path, finished_before))
            .await
            .map_err(|e| self.error(e))?
            .map_err(|e| self.error(e))
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
