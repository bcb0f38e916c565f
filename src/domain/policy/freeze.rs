//! Freeze windows: when deploys to an environment are refused, whoever asks. A pure rule
//! over the instant the clock port gives; the configuration's text forms are parsed here.
//!
//! # Windows
//! - An [`Interval`] is one-off: `2026-12-20T00:00:00Z/2027-01-04T00:00:00Z` (RFC 3339
//!   start and end, any offset, held in UTC; the end after the start).
//! - A [`Recurring`] window is Argo CD's sync window: an occurrence starts at each time the
//!   5-field cron schedule fires, read on the wall clock of its IANA time zone (UTC when none
//!   is given), and lasts its duration (`64h`, `30m`, `1h30m`, `2d`; zero refused).
//!
//! Every occurrence is half-open: frozen from its start (inclusive) to its end (exclusive).
//!
//! # Daylight saving time
//! Start: croner's (Open Cron Pattern Specification) rules. A schedule with one fixed minute
//! and hour (`0 2 * * *`) whose time falls in the gap of a spring-forward day starts at the
//! first instant after the gap (03:00 CEST in Europe/Berlin): it is never skipped. On a
//! fall-back day it starts once, at the first of the two 02:00s. A schedule with a range,
//! list or step in its minute or hour (`*/15 2 * * *`) fires at each wall-clock time that
//! exists: nothing at the 02:xx that do not exist, and at both of the 02:xx that happen twice.
//!
//! End: an occurrence lasts at least `duration` of elapsed time *and* at least until the
//! wall clock reads its start plus `duration` (the first instant after the start at which it
//! reads that or later). Across a clock change these differ by the change: the window ends at
//! the later of the two, so that neither reading lets a deploy through while the operator
//! meant a freeze. `0 16 * * FRI` lasting `64h` in Europe/Berlin ends on Monday at 08:00 on
//! the wall clock on the October weekend (65 hours), and at 09:00 CEST on the March weekend
//! (64 hours; the wall clock would say 08:00). The wall-clock reading extends an occurrence
//! by at most [`CLOCK_CHANGE_ALLOWANCE`] past its elapsed duration (real clock changes are
//! an hour, two at most).
//!
//! # Until when
//! [`active`] answers with the first instant at which no window covers the clock any more:
//! windows that overlap or touch (one starts when another ends) are one freeze. Following a
//! chain is bounded (see [`active`]); past the bound the answer is "at least until".

use std::fmt;

use chrono::{DateTime, TimeDelta, Utc};

#[path = "freeze_schedule.rs"]
mod schedule;

pub use schedule::{FreezeDuration, Recurring, CLOCK_CHANGE_ALLOWANCE, MAX_STARTS_VISITED};

/// How far [`active`] follows a chain of windows, in steps (one window's end to the next
/// window covering it) and in time after `now`.
pub const MAX_CHAIN_STEPS: usize = 100;
pub const CHAIN_HORIZON: TimeDelta = TimeDelta::days(366);

/// One freeze window of an environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FreezeWindow {
    Interval(Interval),
    Recurring(Recurring),
}

/// A one-off freeze, from `start` (inclusive) to `end` (exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    start: DateTime<Utc>,
    end: DateTime<Utc>,
}

/// One occurrence of a window: frozen from `start` (inclusive) to `end` (exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occurrence {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

/// Why a freeze window's text was refused; [`InvalidFreeze::key`] names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidFreeze {
    #[error("'{text}' is not a freeze interval ({reason}): write <start>/<end> in RFC 3339, e.g. 2026-12-20T00:00:00Z/2027-01-04T00:00:00Z")]
    Interval { text: String, reason: String },
    #[error("cron '{text}' is not a schedule ({reason}): write 5 fields, minute hour day-of-month month day-of-week, e.g. 0 16 * * FRI")]
    Cron { text: String, reason: String },
    #[error("cron '{0}' never fires")]
    NeverFires(String),
    #[error("duration '{text}' {reason}: write e.g. 64h, 30m, 1h30m or 2d")]
    Duration { text: String, reason: String },
    #[error("timezone '{0}' is not an IANA time zone name: write e.g. Europe/Berlin or UTC")]
    TimeZone(String),
}

impl InvalidFreeze {
    /// The configuration field at fault: `freeze` (an interval), `cron`, `duration` or
    /// `timezone`.
    pub fn key(&self) -> &'static str {
        match self {
            Self::Interval { .. } => "freeze",
            Self::Cron { .. } | Self::NeverFires(_) => "cron",
            Self::Duration { .. } => "duration",
            Self::TimeZone(_) => "timezone",
        }
    }
}

impl Interval {
    /// Parses `<start>/<end>`, both RFC 3339; the end must come after the start.
    pub fn parse(text: &str) -> Result<Self, InvalidFreeze> {
        let invalid = |reason: String| InvalidFreeze::Interval {
            text: text.to_owned(),
            reason,
        };
        let (start, end) = text
            .split_once('/')
            .ok_or_else(|| invalid("no '/' between start and end".to_owned()))?;
        let instant = |part: &str, which: &str| {
            DateTime::parse_from_rfc3339(part.trim())
                .map(|t| t.with_timezone(&Utc))
                .map_err(|e| invalid(format!("its {which} '{}': {e}", part.trim())))
        };
        let (start, end) = (instant(start, "start")?, instant(end, "end")?);
        if end <= start {
            return Err(invalid("it ends before it starts".to_owned()));
        }
        Ok(Self { start, end })
    }

    pub fn start(&self) -> DateTime<Utc> {
        self.start
    }

    pub fn end(&self) -> DateTime<Utc> {
        self.end
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", rfc3339(self.start), rfc3339(self.end))
    }
}

impl FreezeWindow {
    /// A one-off window from its text, `<start>/<end>`.
    pub fn interval(text: &str) -> Result<Self, InvalidFreeze> {
        Interval::parse(text).map(Self::Interval)
    }

    /// A recurring window from its fields; `timezone` `None` is UTC.
    pub fn recurring(
        cron: &str,
        duration: &str,
        timezone: Option<&str>,
    ) -> Result<Self, InvalidFreeze> {
        Recurring::parse(cron, duration, timezone).map(Self::Recurring)
    }

    /// The occurrence of this window that contains `now` (the one ending last, should
    /// several), if any.
    pub fn occurrence_at(&self, now: DateTime<Utc>) -> Option<Occurrence> {
        match self {
            Self::Interval(i) => (i.start <= now && now < i.end).then_some(Occurrence {
                start: i.start,
                end: i.end,
            }),
            Self::Recurring(r) => r.occurrence_at(now),
        }
    }
}

impl fmt::Display for FreezeWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Interval(i) => i.fmt(f),
            Self::Recurring(r) => r.fmt(f),
        }
    }
}

/// When deploys are possible again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// At this instant, no window covers the clock.
    At(DateTime<Utc>),
    /// The windows chain on past [`MAX_CHAIN_STEPS`] or [`CHAIN_HORIZON`]: frozen at least
    /// until this instant.
    AtLeast(DateTime<Utc>),
}

impl Until {
    pub fn instant(&self) -> DateTime<Utc> {
        match self {
            Self::At(t) | Self::AtLeast(t) => *t,
        }
    }
}

impl fmt::Display for Until {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::At(t) => write!(f, "until {}", rfc3339(*t)),
            Self::AtLeast(t) => write!(f, "at least until {}", rfc3339(*t)),
        }
    }
}

/// A freeze in force: the window that contains now and ends last (the first listed, on a
/// tie), its occurrence, and when deploys are possible again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Freeze {
    /// The window's position in the list given to [`active`].
    pub index: usize,
    pub window: FreezeWindow,
    pub occurrence: Occurrence,
    pub until: Until,
}

impl fmt::Display for Freeze {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frozen {} (freeze window {})", self.until, self.window)
    }
}

/// The freeze in force at `now`, if any window contains it.
///
/// `until` is the end of the chain: from the end of the window found, as long as some
/// window covers that instant, on to the end of that window. The chain is followed for at
/// most [`MAX_CHAIN_STEPS`] steps and [`CHAIN_HORIZON`] after `now` (an every-minute
/// schedule would chain for ever); past either, `until` is [`Until::AtLeast`].
pub fn active(windows: &[FreezeWindow], now: DateTime<Utc>) -> Option<Freeze> {
    let (index, occurrence) = covering(windows, now)?;
    Some(Freeze {
        index,
        window: windows[index].clone(),
        occurrence,
        until: chain_end(windows, now, occurrence.end),
    })
}

/// The window containing `t` whose occurrence ends last (the first listed, on a tie).
fn covering(windows: &[FreezeWindow], t: DateTime<Utc>) -> Option<(usize, Occurrence)> {
    windows
        .iter()
        .enumerate()
        .filter_map(|(i, w)| w.occurrence_at(t).map(|o| (i, o)))
        .fold(
            None,
            |best: Option<(usize, Occurrence)>, (i, o)| match best {
                Some((_, b)) if b.end >= o.end => best,
                _ => Some((i, o)),
            },
        )
}

fn chain_end(windows: &[FreezeWindow], now: DateTime<Utc>, mut end: DateTime<Utc>) -> Until {
    for _ in 0..MAX_CHAIN_STEPS {
        let Some((_, next)) = covering(windows, end) else {
            return Until::At(end);
        };
        end = next.end;
        if end - now > CHAIN_HORIZON {
            return Until::AtLeast(end);
        }
    }
    Until::AtLeast(end)
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

#[cfg(test)]
#[path = "freeze_tests.rs"]
mod tests;
