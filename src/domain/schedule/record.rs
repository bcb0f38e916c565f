//! A schedule as its store keeps it: one JSON object, written and read back by
//! [`Schedule`]'s own (de)serialization, so a store reads every record it writes. A record
//! that cannot be read is never skipped in silence: the schedule it concerns is
//! [`UnreadableSchedule`], shown as such and never run, until an operator mends the record.
//!
//! Before version 0.9 a `refused` schedule was written with the key `reason` twice (the
//! schedule's own, then the refusal's, now `refusal`). Such a line is read unambiguously, by
//! the order the writer used: the first `reason` is the schedule's and the second the
//! refusal's. Any other record holding a key twice is unreadable.

use std::fmt;

use serde_json::{Map, Value};

use crate::domain::record_keys::Written;
use crate::domain::schedule::model::{Schedule, ScheduleId};

/// A schedule record that cannot be read: the schedule it concerns (when the record still
/// tells), where the record is (a line of a file, a row) and why it cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableSchedule {
    /// `None`: the record is too damaged to tell; every schedule still open when it was
    /// written is then held as well (see the stores).
    pub id: Option<ScheduleId>,
    pub place: String,
    pub why: String,
}

impl fmt::Display for UnreadableSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.id {
            Some(id) => write!(
                f,
                "schedule {id} cannot be read ({}: {})",
                self.place, self.why
            ),
            None => write!(
                f,
                "a schedule record cannot be read ({}: {})",
                self.place, self.why
            ),
        }
    }
}

/// The record of `schedule`, as JSON.
pub fn write(schedule: &Schedule) -> Result<Vec<u8>, serde_json::Error> {
    serde_json::to_vec(schedule)
}

/// The schedule `bytes` records, or why it cannot be read.
pub fn read(bytes: &[u8]) -> Result<Schedule, String> {
    match serde_json::from_slice::<Schedule>(bytes) {
        Ok(schedule) => Ok(schedule),
        Err(error) => read_refused_before_0_9(bytes).ok_or_else(|| error.to_string()),
    }
}

/// The id a record names, when it can still be told (a record torn after its id, or one
/// whose other fields are wrong): the stores hold that schedule rather than skip the record.
pub fn id_of(bytes: &[u8]) -> Option<ScheduleId> {
    if let Ok(Written::Object(entries)) = Written::parse(bytes) {
        return entries.into_iter().find_map(|(key, value)| match value {
            Written::Scalar(Value::String(id)) if key == "id" => ScheduleId::parse(&id),
            _ => None,
        });
    }
    // Torn: the writer puts the id first, so a line cut after it still names it.
    let text = std::str::from_utf8(bytes).ok().or_else(|| {
        let valid = std::str::from_utf8(bytes).err()?.valid_up_to();
        std::str::from_utf8(&bytes[..valid]).ok()
    })?;
    let rest = text.trim_start().strip_prefix('{')?.trim_start();
    let rest = rest.strip_prefix("\"id\"")?.trim_start();
    let rest = rest.strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let (id, _) = rest.split_once('"')?;
    ScheduleId::parse(id)
}

/// A `refused` record written before 0.9 (`reason` twice): read with the second `reason` as
/// the refusal; `None` for any other record.
fn read_refused_before_0_9(bytes: &[u8]) -> Option<Schedule> {
    let written = Written::parse(bytes).ok()?;
    if written.duplicate_keys() != ["reason"] {
        return None;
    }
    let Written::Object(entries) = written else {
        return None;
    };
    let reasons: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].0 == "reason")
        .collect();
    let refused = entries
        .iter()
        .any(|(key, value)| key == "state" && *value == Written::Scalar("refused".into()));
    if reasons.len() != 2 || !refused || entries.iter().any(|(key, _)| key == "refusal") {
        return None;
    }
    let mut object = Map::new();
    for (i, (key, value)) in entries.into_iter().enumerate() {
        let key = if i == reasons[1] {
            "refusal".into()
        } else {
            key
        };
        if object.insert(key, value.into_value()).is_some() {
            return None;
        }
    }
    serde_json::from_value(Value::Object(object)).ok()
}
