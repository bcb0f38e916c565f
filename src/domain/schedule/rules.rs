//! The rules of a schedule: when it may be made, when it is due, who claims it, who may
//! cancel it. Pure: the time is an argument.

use chrono::{DateTime, SecondsFormat, TimeDelta, Utc};

use crate::domain::deploy::DeployId;
use crate::domain::identity::{MissingScope, Operator, Scope};
use crate::domain::schedule::{Claim, Schedule, ScheduleState};

/// The furthest ahead a schedule may be made: 366 days.
pub const FURTHEST: TimeDelta = TimeDelta::days(366);

/// Why a schedule is not made or not cancelled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleRefusal {
    #[error("Schedule refused: {at} is not ahead (it is {now} now). Deploy now instead, or choose a later time.")]
    NotAhead { at: String, now: String },
    #[error("Schedule refused: {0} is more than 366 days ahead. Choose an earlier time.")]
    TooFar(String),
    #[error("Schedule refused: '{0}' is not a time. Write it as RFC 3339 with its offset, e.g. 2026-12-01T02:00:00+01:00.")]
    NotATime(String),
    #[error("Schedule refused: a rollback runs now, not later (it answers a problem now).")]
    Rollback,
    #[error("Not cancelled: the schedule is {0} (only a waiting schedule can be cancelled).")]
    NotOpen(&'static str),
    #[error("Not cancelled: {0}")]
    OutOfScope(MissingScope),
    #[error("Not cancelled: only its author ({author}) or a deployer of {environment} may cancel this schedule.")]
    NotYours { author: String, environment: String },
}

/// `text` as an instant: RFC 3339 with its offset (the offset says which side of a clock
/// change a local time is on).
pub fn parse_at(text: &str) -> Result<DateTime<Utc>, ScheduleRefusal> {
    DateTime::parse_from_rfc3339(text.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| ScheduleRefusal::NotATime(text.to_owned()))
}

/// A schedule is made for a time ahead of `now`, at most [`FURTHEST`] ahead.
pub fn check_at(at: DateTime<Utc>, now: DateTime<Utc>) -> Result<(), ScheduleRefusal> {
    let text = |t: DateTime<Utc>| t.to_rfc3339_opts(SecondsFormat::Secs, true);
    if at <= now {
        return Err(ScheduleRefusal::NotAhead {
            at: text(at),
            now: text(now),
        });
    }
    if at - now > FURTHEST {
        return Err(ScheduleRefusal::TooFar(text(at)));
    }
    Ok(())
}

/// Why a schedule is due now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Due {
    /// Waiting, and its time has come.
    Fresh,
    /// Running, but its claim lapsed: the replica that claimed it stopped; what its deploy
    /// did is in the audit under the claim's deploy id.
    Lapsed(Claim),
}

/// Whether `schedule` is due at `now`.
pub fn due(schedule: &Schedule, now: DateTime<Utc>) -> Option<Due> {
    match &schedule.state {
        ScheduleState::Waiting if schedule.at <= now => Some(Due::Fresh),
        ScheduleState::Running { claim } if claim.until <= now => Some(Due::Lapsed(claim.clone())),
        _ => None,
    }
}

/// `schedule` claimed by replica `by` at `now` for `lapse`: its run writes `deploy_id`.
pub fn claimed(
    schedule: Schedule,
    by: &str,
    now: DateTime<Utc>,
    lapse: TimeDelta,
    deploy_id: DeployId,
) -> Schedule {
    schedule.into_state(ScheduleState::Running {
        claim: Claim {
            by: by.to_owned(),
            until: now + lapse,
            deploy_id,
        },
    })
}

/// Whether `operator` may cancel `schedule`: it is waiting, a token reaches a deploy to its
/// environment, and they are its author or (`deployer`) may deploy there.
pub fn check_cancel(
    schedule: &Schedule,
    operator: &Operator,
    deployer: bool,
) -> Result<(), ScheduleRefusal> {
    if schedule.state != ScheduleState::Waiting {
        return Err(ScheduleRefusal::NotOpen(schedule.state.word()));
    }
    operator
        .holds(&Scope::deploy_to(&schedule.environment))
        .map_err(ScheduleRefusal::OutOfScope)?;
    if deployer || operator.person() == &schedule.author_key {
        return Ok(());
    }
    Err(ScheduleRefusal::NotYours {
        author: schedule.author.to_string(),
        environment: schedule.environment.to_string(),
    })
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
