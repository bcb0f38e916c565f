//! What `requests.jsonl` holds, kept in memory and brought up to date by reading only the
//! bytes appended since the last read ([`super::tail`]): listing requests and acting on one
//! cost what was written since, not the whole history. A file renamed over it (a compaction)
//! or one that shrank is read again whole. A last line without its newline (being written, or
//! torn by a crash) is not read until the newline comes.
//!
//! A line that cannot be read is never skipped in silence: the request it names (its
//! `request_id` comes first, so a torn line still names it once that is whole) is unreadable
//! (not listed, not acted on) until the line is mended or removed, or a later line of that
//! request at the same entry number or beyond can be read (the write that tore it, made
//! again); a line naming none is listed as such. Each is logged once, at `error`, when read.

use std::collections::HashMap;
use std::fs::File;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::domain::approval::{ApprovalRequest, RequestEvent, RequestLog};
use crate::domain::ids::{RequestId, UnreadableRequest};
use crate::domain::record_keys::leading_string;

use super::tail::{Grown, Tail};

/// One line as read: the entry's fields are read by `seq` (0: the request, else an event).
#[derive(Deserialize)]
pub(super) struct Line {
    pub request_id: RequestId,
    pub seq: usize,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// The requests of the file, in the order they were made.
#[derive(Debug, Default)]
pub struct RequestIndex {
    tail: Tail,
    logs: Vec<RequestLog>,
    by_id: HashMap<RequestId, usize>,
    /// Where the file is, for messages.
    target: String,
    /// Complete lines read.
    lines: usize,
    /// The requests with a line that cannot be read: the line, its entry number (0 when it
    /// cannot be told) and why.
    unreadable: HashMap<RequestId, (usize, usize, UnreadableRequest)>,
    /// Lines that name no request.
    damaged: Vec<(usize, UnreadableRequest)>,
}

impl RequestIndex {
    /// The index of the file named `target` in messages, not read yet.
    pub fn of(target: String) -> Self {
        Self {
            target,
            ..Self::default()
        }
    }

    /// Forgets what was read (the file is missing).
    pub fn clear(&mut self) {
        *self = Self::of(std::mem::take(&mut self.target));
    }

    /// Reads what `file` holds beyond what was read before (all of it when it is another
    /// file, or shorter than what was read).
    pub fn refresh(&mut self, file: &mut File) -> std::io::Result<()> {
        match self.tail.read(file)? {
            Grown::Appended(bytes) => self.feed(&bytes),
            Grown::Anew(bytes) => {
                let tail = std::mem::take(&mut self.tail);
                *self = Self {
                    tail,
                    ..Self::of(std::mem::take(&mut self.target))
                };
                self.feed(&bytes);
            }
        }
        Ok(())
    }

    /// Whether the file, as last read, is empty.
    pub fn is_empty_file(&self) -> bool {
        self.tail.is_empty_file()
    }

    /// Whether the file, as last read, ends with a line not ended (torn, or being written).
    pub fn ends_torn(&self) -> bool {
        self.tail.ends_torn()
    }

    /// The request as read; `Err` when one of its lines cannot be read.
    pub fn get(&self, id: &RequestId) -> Result<Option<&RequestLog>, &UnreadableRequest> {
        match self.unreadable.get(id) {
            Some((_, _, unreadable)) => Err(unreadable),
            None => Ok(self.by_id.get(id).map(|&i| &self.logs[i])),
        }
    }

    /// Whether request `id` was made (its first line read).
    pub fn knows(&self, id: &RequestId) -> bool {
        self.by_id.contains_key(id)
    }

    /// The readable requests, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &RequestLog> {
        self.logs
            .iter()
            .rev()
            .filter(|log| !self.unreadable.contains_key(&log.request.id))
    }

    /// The unreadable requests and the lines naming none, in the order of their lines.
    pub fn unreadable(&self) -> Vec<UnreadableRequest> {
        let mut all: Vec<(usize, &UnreadableRequest)> = self
            .unreadable
            .values()
            .map(|(line, _, u)| (*line, u))
            .chain(self.damaged.iter().map(|(line, u)| (*line, u)))
            .collect();
        all.sort_by_key(|(line, _)| *line);
        all.into_iter().map(|(_, u)| u.clone()).collect()
    }

    fn feed(&mut self, bytes: &[u8]) {
        for raw in bytes.split_inclusive(|b| *b == b'\n') {
            self.lines += 1;
            let raw = raw.trim_ascii();
            if !raw.is_empty() && !self.apply(raw) {
                self.cannot_read(raw);
            }
        }
    }

    /// Holds the request line `raw` names (or lists the line, naming none).
    fn cannot_read(&mut self, raw: &[u8]) {
        let line = self.lines;
        let why = match serde_json::from_slice::<Line>(raw) {
            Err(error) => error.to_string(),
            Ok(Line {
                seq: 0, mut rest, ..
            }) => {
                match rest
                    .remove("request")
                    .map(serde_json::from_value::<ApprovalRequest>)
                {
                    Some(Err(error)) => error.to_string(),
                    _ => "not a request, or a request made twice".to_owned(),
                }
            }
            Ok(Line { rest, .. }) => {
                match serde_json::from_value::<RequestEvent>(Value::Object(rest)) {
                    Err(error) => error.to_string(),
                    Ok(_) => "an event of a request not made before it".to_owned(),
                }
            }
        };
        let id = leading_string(raw, "request_id").and_then(|id| RequestId::parse(&id));
        let unreadable = UnreadableRequest {
            id: id.clone(),
            place: format!("line {line} of {}", self.target),
            why,
        };
        tracing::error!(%unreadable, "a request's line cannot be read: the request is not acted on until the line is mended or removed");
        match id {
            Some(id) => {
                let seq = seq_of(raw).unwrap_or(0);
                self.unreadable.entry(id).or_insert((line, seq, unreadable));
            }
            None => self.damaged.push((line, unreadable)),
        }
    }

    /// Applies one line; `false` when it is not an entry (skipped).
    fn apply(&mut self, raw: &[u8]) -> bool {
        let Ok(Line {
            request_id,
            seq,
            mut rest,
        }) = serde_json::from_slice::<Line>(raw)
        else {
            return false;
        };
        if seq == 0 {
            let request = rest
                .remove("request")
                .and_then(|value| serde_json::from_value::<ApprovalRequest>(value).ok())
                .filter(|request| request.id == request_id);
            return match request {
                Some(request) if !self.by_id.contains_key(&request_id) => {
                    if self
                        .unreadable
                        .get(&request_id)
                        .is_some_and(|(_, seq, _)| *seq == 0)
                    {
                        self.unreadable.remove(&request_id);
                    }
                    self.by_id.insert(request_id, self.logs.len());
                    self.logs.push(RequestLog {
                        request,
                        events: Vec::new(),
                    });
                    true
                }
                _ => false,
            };
        }
        let event = serde_json::from_value::<RequestEvent>(Value::Object(rest));
        match (self.by_id.get(&request_id), event) {
            (Some(&i), Ok(event)) => {
                self.logs[i].events.push(event);
                if self
                    .unreadable
                    .get(&request_id)
                    .is_some_and(|(_, torn_seq, _)| seq >= *torn_seq)
                {
                    self.unreadable.remove(&request_id);
                }
                true
            }
            _ => false,
        }
    }
}

/// The entry number a line that cannot be read still tells (`"seq":N` whole, after its
/// request's id).
fn seq_of(raw: &[u8]) -> Option<usize> {
    let text = match std::str::from_utf8(raw) {
        Ok(text) => text,
        Err(error) => std::str::from_utf8(&raw[..error.valid_up_to()]).ok()?,
    };
    let (_, rest) = text.split_once("\"seq\":")?;
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let after = rest.trim_start()[digits.len()..].chars().next()?;
    (!digits.is_empty() && (after == ',' || after == '}' || after.is_whitespace()))
        .then(|| digits.parse().ok())
        .flatten()
}
