//! What `schedules.jsonl` holds, kept in memory and brought up to date by reading only the
//! lines appended since the last read ([`super::tail`]): the look at the due schedules every
//! few seconds costs what was written since, not the whole file.
//!
//! The last line of an id is the schedule as it is now. A line that cannot be read is never
//! skipped in silence: when it still names its schedule, that schedule is unreadable (not
//! open, not listed, not replaced) until a later line of it can be read; when it names none,
//! every schedule open at that point is held the same way, since the line may have been any
//! of them. Each is logged once, when read.

use std::collections::HashMap;

use crate::domain::ids::ScheduleId;
use crate::domain::schedule::record::{self, UnreadableSchedule};
use crate::domain::schedule::Schedule;

use super::tail::{LineIndex, Tail};

/// The schedules of the file, in the order they were first written.
#[derive(Debug, Default)]
pub struct ScheduleIndex {
    tail: Tail,
    /// Complete lines read.
    lines: usize,
    order: Vec<ScheduleId>,
    latest: HashMap<ScheduleId, Schedule>,
    /// The schedules whose last line cannot be read, with that line's number.
    unreadable: HashMap<ScheduleId, (usize, UnreadableSchedule)>,
    /// Lines that name no schedule, with their numbers.
    damaged: Vec<(usize, UnreadableSchedule)>,
}

impl ScheduleIndex {
    /// Forgets everything: the file is missing.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    pub fn is_empty_file(&self) -> bool {
        self.tail.is_empty_file()
    }

    pub fn ends_torn(&self) -> bool {
        self.tail.ends_torn()
    }

    /// The schedule as it is now; `Err` when its last line cannot be read.
    pub fn get(&self, id: &ScheduleId) -> Result<Option<&Schedule>, &UnreadableSchedule> {
        match self.unreadable.get(id) {
            Some((_, unreadable)) => Err(unreadable),
            None => Ok(self.latest.get(id)),
        }
    }

    /// Whether a line of `id` was ever read or met (readable or not).
    pub fn knows(&self, id: &ScheduleId) -> bool {
        self.latest.contains_key(id) || self.unreadable.contains_key(id)
    }

    /// The readable schedules, in the order first written.
    pub fn readable(&self) -> impl Iterator<Item = &Schedule> {
        self.order
            .iter()
            .filter(|id| !self.unreadable.contains_key(*id))
            .filter_map(|id| self.latest.get(id))
    }

    /// The unreadable schedules and the lines naming none, in the order of their lines.
    pub fn unreadable(&self) -> Vec<UnreadableSchedule> {
        let mut all: Vec<&(usize, UnreadableSchedule)> =
            self.unreadable.values().chain(&self.damaged).collect();
        all.sort_by_key(|(line, _)| *line);
        all.into_iter().map(|(_, u)| u.clone()).collect()
    }

    fn feed_lines(&mut self, bytes: &[u8], target: &str) {
        for raw in bytes.split_inclusive(|b| *b == b'\n') {
            self.lines += 1;
            let raw = raw.trim_ascii();
            if !raw.is_empty() {
                self.apply(raw, target);
            }
        }
    }

    fn apply(&mut self, raw: &[u8], target: &str) {
        let line = self.lines;
        let place = format!("line {line} of {target}");
        let why = match record::read(raw) {
            Ok(schedule) => {
                let id = schedule.id.clone();
                self.unreadable.remove(&id);
                if !self.latest.contains_key(&id) {
                    self.order.push(id.clone());
                }
                self.latest.insert(id, schedule);
                return;
            }
            Err(why) => why,
        };
        match record::id_of(raw) {
            Some(id) => {
                let unreadable = UnreadableSchedule {
                    id: Some(id.clone()),
                    place,
                    why,
                };
                tracing::error!(%unreadable, "a schedule's line cannot be read: the schedule is not run until the line is mended or removed");
                if !self.latest.contains_key(&id) && !self.unreadable.contains_key(&id) {
                    self.order.push(id.clone());
                }
                self.unreadable.insert(id, (line, unreadable));
            }
            None => {
                let damaged = UnreadableSchedule {
                    id: None,
                    place: place.clone(),
                    why: why.clone(),
                };
                tracing::error!(unreadable = %damaged, "a line of the schedules names no schedule: every schedule open before it is held until it is mended or removed");
                let open: Vec<ScheduleId> = self
                    .readable()
                    .filter(|s| s.state.is_open())
                    .map(|s| s.id.clone())
                    .collect();
                for id in open {
                    let held = UnreadableSchedule {
                        id: Some(id.clone()),
                        place: place.clone(),
                        why: format!(
                            "a later line naming no schedule cannot be read, and may have been \
                             this one's: {why}"
                        ),
                    };
                    self.unreadable.insert(id, (line, held));
                }
                self.damaged.push((line, damaged));
            }
        }
    }
}

impl LineIndex for ScheduleIndex {
    fn tail(&mut self) -> &mut Tail {
        &mut self.tail
    }

    fn feed(&mut self, bytes: &[u8], target: &str) {
        self.feed_lines(bytes, target);
    }
}
