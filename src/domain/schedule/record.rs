//! A schedule as its store keeps it: one JSON object, written and read back by
//! [`Schedule`]'s own (de)serialization, so a store reads every record it writes. A record
//! that cannot be read is never skipped in silence: the schedule it concerns is
//! [`UnreadableSchedule`], shown as such and never run, until an operator mends the record.
//!
//! Before version 0.9 a `refused` schedule was written with the key `reason` twice (the
//! schedule's own, then the refusal's, now `refusal`). Such a line is read unambiguously, by
//! the order the writer used: the first `reason` is the schedule's and the second the
//! refusal's. Any other record holding a key twice is unreadable.

use serde_json::{Map, Value};

use crate::domain::ids::ScheduleId;
use crate::domain::record_keys::{leading_string, RecordId, Unreadable, Written};
use crate::domain::schedule::Schedule;

/// A schedule record that cannot be read (`id`: `None` when the record is too damaged to
/// tell; every schedule still open when it was written is then held as well, see the stores).
pub type UnreadableSchedule = Unreadable<ScheduleId>;

impl RecordId for ScheduleId {
    const WHAT: &'static str = "schedule";
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
    ScheduleId::parse(&leading_string(bytes, "id")?)
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
