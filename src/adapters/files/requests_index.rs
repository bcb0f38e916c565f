//! What `requests.jsonl` holds, kept in memory and brought up to date by reading only the
//! bytes appended since the last read: listing requests and acting on one cost what was
//! written since, not the whole history. A file renamed over it (a compaction: another
//! device or inode, or the last bytes read no longer where they were, since an inode number
//! may be reused) or one that shrank is read again whole. A last line without
//! its newline (being written, or torn by a crash) is not read until the newline comes.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;

use serde::Deserialize;
use serde_json::{Map, Value};

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
}

impl RequestIndex {
    /// Reads what `file` holds beyond what was read before (all of it when it is another
    /// file, or shorter than what was read).
    pub fn refresh(&mut self, file: &mut File) -> std::io::Result<()> {
        let meta = file.metadata()?;
        let identity = (meta.dev(), meta.ino());
        if self.file != Some(identity) || meta.len() < self.parsed_to || !self.still_there(file)? {
            *self = Self {
                file: Some(identity),
                ..Self::default()
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

    pub fn get(&self, id: &RequestId) -> Option<&RequestLog> {
        self.by_id.get(id).map(|&i| &self.logs[i])
    }

    /// The requests, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &RequestLog> {
        self.logs.iter().rev()
    }

    fn feed(&mut self, bytes: &[u8]) {
        let mut skipped = 0usize;
        for raw in bytes.split(|b| *b == b'\n') {
            if raw.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if !self.apply(raw) {
                skipped += 1;
            }
        }
        if skipped > 0 {
            tracing::debug!(skipped, "request store lines skipped (torn or not entries)");
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
                true
            }
            _ => false,
        }
    }
}
