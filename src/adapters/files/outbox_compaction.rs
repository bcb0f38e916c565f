//! Compaction of the outbox file: an event whose every delivery ended before a time keeps one
//! `fact` line (its fact and time, so it is never told twice); its event line and attempt
//! lines go. Every other line is kept as it was, unreadable ones included.
//!
//! The file is rewritten beside itself (`<file>.compacting`), synced, then renamed over the
//! original (atomic), and the directory synced: a crash leaves the old file or the new one,
//! never a mix; a `.compacting` file left by a crash is removed when the outbox is opened.
//! The caller holds the writers' turn, so no line is appended meanwhile.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::adapters::shared::outbox_ledger::AttemptResult;
use crate::domain::event::{EventId, WebhookUrl};

use super::outbox_line::Line;

/// Where a compaction writes before the rename.
pub fn compacting_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".compacting");
    path.with_file_name(name)
}

/// Compacts the file at `path` (see the module's doc); answers how many events were.
pub fn compact_file(path: &Path, finished_before: DateTime<Utc>) -> std::io::Result<usize> {
    let text = match File::open(path) {
        Ok(file) => BufReader::new(file)
            .lines()
            .collect::<std::io::Result<Vec<String>>>()?,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let lines: Vec<Option<Line>> = text.iter().map(|l| serde_json::from_str(l).ok()).collect();
    let gone = compactable(&lines, finished_before);
    if gone.is_empty() {
        return Ok(0);
    }
    let temporary = compacting_path(path);
    let mut out = std::io::BufWriter::new(File::create(&temporary)?);
    for (raw, line) in text.iter().zip(&lines) {
        match line {
            Some(Line::Event { event, .. }) if gone.contains(&event.id) => {
                let fact = Line::Fact {
                    fact: event.fact(),
                    at: event.time,
                };
                serde_json::to_writer(&mut out, &fact)?;
                out.write_all(b"\n")?;
            }
            Some(Line::Attempt { event_id, .. }) if gone.contains(event_id) => {}
            _ => writeln!(out, "{raw}")?,
        }
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    fs::rename(&temporary, path)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        OpenOptions::new().read(true).open(dir)?.sync_all()?;
    }
    Ok(gone.len())
}

/// The events of `lines` whose every delivery ended before `before`.
fn compactable(lines: &[Option<Line>], before: DateTime<Utc>) -> HashSet<EventId> {
    let mut webhooks: HashMap<&EventId, &[WebhookUrl]> = HashMap::new();
    let mut ended: HashMap<&EventId, HashMap<&WebhookUrl, DateTime<Utc>>> = HashMap::new();
    for line in lines.iter().flatten() {
        match line {
            Line::Event {
                event,
                webhooks: to,
            } => {
                webhooks.insert(&event.id, to);
            }
            Line::Attempt {
                event_id,
                webhook,
                at,
                result: AttemptResult::Delivered | AttemptResult::GivenUp { .. },
                ..
            } => {
                ended.entry(event_id).or_default().insert(webhook, *at);
            }
            Line::Attempt { .. } | Line::Fact { .. } => {}
        }
    }
    webhooks
        .into_iter()
        .filter(|(id, to)| {
            let ends = ended.get(id);
            to.iter().all(|webhook| {
                ends.and_then(|e| e.get(webhook))
                    .is_some_and(|&at| at < before)
            })
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// Removes what a compaction interrupted by a crash left (the original is whole).
pub fn remove_leftover(path: &Path) {
    let leftover = compacting_path(path);
    match fs::remove_file(&leftover) {
        Ok(()) => tracing::warn!(
            path = %leftover.display(),
            "removed the rest of an outbox compaction a crash interrupted (the outbox is whole)"
        ),
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(error) => {
            tracing::warn!(path = %leftover.display(), %error, "could not remove the rest of an interrupted outbox compaction")
        }
    }
}
