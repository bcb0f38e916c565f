//! What `requests.jsonl` holds, kept in memory and brought up to date by reading only the
//! bytes appended since the last read: listing requests and acting on one cost what was
//! written since, not the whole history. A file renamed over it (a compaction: another
//! device or inode, or the last bytes read no longer where they were, since an inode number
//! may be reused) or one that shrank is read again whole. A last line without
//! its newline (being written, or torn by a crash) is not read until the newline comes.
//!
//! A line that cannot be read is never skipped in silence: the request it names (its
//! `request_id` comes first, so a torn line still names it once that is whole) is unreadable
//! (not listed, not acted on) until the line is mended or removed, or a later line of that
//! request at the same entry number or beyond can be read (the write that tore it, made
//! again); a line naming none is listed as such. Each is logged once, at `error`, when read.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::domain::approval::request_id::UnreadableRequest;
use crate::domain::record_keys::leading_string;
use crate::domain::{ApprovalRequest, RequestEvent, RequestId, RequestLog};

/// One line as read: the entry's fields are read by `seq` (0: the request, else an event).
#[derive(Deserialize)]
pub(super) struct Line {
    pub request_id: RequestId,
    pub seq: usize,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// How many of the last bytes read are compared to tell the file read from another.
const CHECKED: usize = 64;

/// The requests of the file, in the order they were made.
#[derive(Debug, Default)]
pub struct RequestIndex {
    /// The file read: its device and inode.
    file: Option<(u64, u64)>,
    /// Bytes read and parsed: up to the last newline seen.
    parsed_to: u64,
    /// The file's length at the last read.
    len: u64,
    /// The last bytes read (up to [`CHECKED`]): still there, the file is the one read.
    last_read: Vec<u8>,
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
        let meta = file.metadata()?;
        let identity = (meta.dev(), meta.ino());
        if self.file != Some(identity) || meta.len() < self.parsed_to || !self.still_there(file)? {
            *self = Self {
                file: Some(identity),
                ..Self::of(std::mem::take(&mut self.target))
            };
        }
        self.len = meta.len();
        if meta.len() <= self.parsed_to {
            return Ok(());
        }
        file.seek(SeekFrom::Start(self.parsed_to))?;
        let mut bytes = Vec::with_capacity((meta.len() - self.parsed_to) as usize);
        file.take(meta.len() - self.parsed_to)
            .read_to_end(&mut bytes)?;
        let Some(last_newline) = memchr::memrchr(b'\n', &bytes) else {
            return Ok(());
        };
        let complete = &bytes[..=last_newline];
        self.feed(complete);
        self.parsed_to += complete.len() as u64;
        let keep = complete.len().min(CHECKED);
        self.last_read
            .drain(..self.last_read.len().saturating_sub(CHECKED - keep));
        self.last_read
            .extend_from_slice(&complete[complete.len() - keep..]);
        Ok(())
    }

    /// Whether the last bytes read are still where they were read.
    fn still_there(&self, file: &mut File) -> std::io::Result<bool> {
        if self.last_read.is_empty() {
            return Ok(true);
        }
        let start = self.parsed_to - self.last_read.len() as u64;
        file.seek(SeekFrom::Start(start))?;
        let mut now = vec![0; self.last_read.len()];
        file.read_exact(&mut now)?;
        Ok(now == self.last_read)
    }

    /// Whether the file, as last read, is empty.
    pub fn is_empty_file(&self) -> bool {
        self.len == 0
    }

    /// Whether the file, as last read, ends with a line not ended (torn, or being written).
    pub fn ends_torn(&self) -> bool {
        self.len > self.parsed_to
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
