//! Recurring freeze windows: a cron schedule read in a time zone, and a duration.

use std::cmp::max;
use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Datelike, LocalResult, TimeDelta, TimeZone, Utc};
use chrono_tz::Tz;
use croner::parser::{CronParser, Seconds, Year};
use croner::Cron;

use super::{InvalidFreeze, Occurrence};
use crate::domain::policy::duration::{parse_duration, BadDuration, DAYS, HOURS, MINUTES};

/// The most a clock change may lengthen an occurrence past its elapsed duration (see the
/// module's "Daylight saving time").
pub const CLOCK_CHANGE_ALLOWANCE: TimeDelta = TimeDelta::hours(3);

/// The longest duration accepted: a longer freeze is an interval.
const MAX_DURATION: TimeDelta = TimeDelta::days(366);

/// How long each occurrence of a recurring window lasts: whole minutes, more than zero and
/// at most 366 days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct FreezeDuration(TimeDelta);

impl FreezeDuration {
    /// Parses `<n>d<n>h<n>m`, each part optional but in that order, e.g. `64h`, `1h30m`.
    pub fn parse(text: &str) -> Result<Self, InvalidFreeze> {
        let invalid = |reason: &str| InvalidFreeze::Duration {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        match parse_duration(text, &[DAYS, HOURS, MINUTES], MAX_DURATION) {
            Ok(total) => Ok(Self(total)),
            Err(BadDuration::Empty) => Err(invalid("is empty")),
            Err(BadDuration::TooLong) => Err(invalid("is longer than 366 days (use an interval)")),
            Err(BadDuration::NotInUnits) => Err(invalid(
                "is not whole days (d), hours (h) and minutes (m), in that order",
            )),
            Err(BadDuration::Zero) => Err(invalid("is zero: a freeze must last")),
        }
    }

    pub fn as_delta(&self) -> TimeDelta {
        self.0
    }
}

impl fmt::Display for FreezeDuration {
    /// Hours and minutes: `64h`, `1h30m`, `30m`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (hours, minutes) = (self.0.num_hours(), self.0.num_minutes() % 60);
        match (hours, minutes) {
            (0, m) => write!(f, "{m}m"),
            (h, 0) => write!(f, "{h}h"),
            (h, m) => write!(f, "{h}h{m}m"),
        }
    }
}

/// A window that starts each time `cron` fires on `timezone`'s wall clock and lasts
/// `duration` (see the module's "Daylight saving time" for clock changes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recurring {
    /// Boxed: a parsed pattern is a few hundred bytes, an interval a few dozen.
    cron: Box<Cron>,
    duration: FreezeDuration,
    timezone: Tz,
}

impl Recurring {
    /// Parses the three fields; `timezone` `None` is UTC. The cron has exactly 5 fields
    /// (names such as FRI and JAN, `L`, `W` and `#` allowed; a restricted day of month and
    /// day of week fire on either, as in Vixie cron) and must fire at some time.
    pub fn parse(
        cron: &str,
        duration: &str,
        timezone: Option<&str>,
    ) -> Result<Self, InvalidFreeze> {
        let timezone = match timezone {
            None => Tz::UTC,
            Some(name) => {
                Tz::from_str(name.trim()).map_err(|_| InvalidFreeze::TimeZone(name.to_owned()))?
            }
        };
        Ok(Self {
            cron: Box::new(parse_cron(cron)?),
            duration: FreezeDuration::parse(duration)?,
            timezone,
        })
    }

    /// The cron expression as written (upper-cased by the parser).
    pub fn cron(&self) -> &str {
        self.cron.as_str()
    }

    pub fn duration(&self) -> FreezeDuration {
        self.duration
    }

    pub fn timezone(&self) -> Tz {
        self.timezone
    }

    /// The occurrence containing `now` that ends last, if any.
    ///
    /// Work is bounded, whatever the duration: an occurrence ends within `duration` +
    /// [`CLOCK_CHANGE_ALLOWANCE`] of its start, so the walk goes back from the latest start
    /// at or before `now` and stops at the first start that could neither contain `now` nor
    /// end later than the best found. That leaves the starts of the allowance's 3 hours
    /// (starts are whole minutes apart: 181 for an every-minute cron);
    /// [`MAX_STARTS_VISITED`] caps the walk besides.
    pub(super) fn occurrence_at(&self, now: DateTime<Utc>) -> Option<Occurrence> {
        let reach = self.duration.0 + CLOCK_CHANGE_ALLOWANCE;
        let mut best: Option<Occurrence> = None;
        let mut fire = self
            .cron
            .find_previous_occurrence(&now.with_timezone(&self.timezone), true);
        for _ in 0..MAX_STARTS_VISITED {
            let Ok(start) = fire else { break };
            let latest_possible_end = start.with_timezone(&Utc) + reach;
            if latest_possible_end <= now || best.is_some_and(|b| latest_possible_end <= b.end) {
                break;
            }
            let end = self.end_of(start);
            if end > now && best.is_none_or(|b| end > b.end) {
                best = Some(Occurrence {
                    start: start.with_timezone(&Utc),
                    end,
                });
            }
            fire = self.cron.find_previous_occurrence(&start, false);
        }
        best
    }

    /// The end of the occurrence starting at `start`: the later of `duration` elapsed and
    /// the wall clock reading `start` + `duration` (capped at the allowance).
    fn end_of(&self, start: DateTime<Tz>) -> DateTime<Utc> {
        let elapsed = start.with_timezone(&Utc) + self.duration.0;
        let wall = wall_clock_reaches(start, self.duration.0);
        max(elapsed, wall.min(elapsed + CLOCK_CHANGE_ALLOWANCE))
    }
}

/// A cap on the starts one [`Recurring::occurrence_at`] looks at (the 181 of an
/// every-minute cron, with room).
pub const MAX_STARTS_VISITED: usize = 200;

impl fmt::Display for Recurring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' for {} in {}",
            self.cron(),
            self.duration,
            self.timezone.name()
        )
    }
}

fn parse_cron(text: &str) -> Result<Cron, InvalidFreeze> {
    let parser = CronParser::builder()
        .seconds(Seconds::Disallowed)
        .year(Year::Disallowed)
        .build();
    let cron = parser.parse(text).map_err(|e| InvalidFreeze::Cron {
        text: text.to_owned(),
        reason: e.to_string(),
    })?;
    // Any 5-field schedule that fires at all fires within 28 years of any date.
    let from = Utc.with_ymd_and_hms(2000, 1, 1, 0, 0, 0).single();
    match from.map(|t| cron.find_next_occurrence(&t, true)) {
        Some(Ok(first)) if first.year() < 2100 => Ok(cron),
        _ => Err(InvalidFreeze::NeverFires(text.to_owned())),
    }
}

/// The first instant after `start` at which `start`'s wall clock reads `start` + `delta`
/// or later: that reading itself, or the first instant after a gap when it falls in one.
/// Of a reading that happens twice, the first after `start`.
fn wall_clock_reaches(start: DateTime<Tz>, delta: TimeDelta) -> DateTime<Utc> {
    let zone = start.timezone();
    let target = start.naive_local() + delta;
    // A gap lasts hours at most; a day of minutes is ample, and the elapsed end stands in.
    for minutes in 0..=24 * 60 {
        let reading = target + TimeDelta::minutes(minutes);
        match zone.from_local_datetime(&reading) {
            LocalResult::Single(t) => return t.with_timezone(&Utc),
            LocalResult::Ambiguous(earlier, later) => {
                return if earlier > start { earlier } else { later }.with_timezone(&Utc)
            }
            LocalResult::None => {}
        }
    }
    start.with_timezone(&Utc) + delta
}
