//! The `[schedules]` table: how often each replica looks for due schedules, and how long its
//! claim on one keeps the other replicas away (a replica that stops mid-run leaves the
//! schedule to another only when its claim lapses), and how long an ended one is kept.

use std::time::Duration;

use serde::Deserialize;

use crate::wiring::sections::error::{invalid, ConfigError};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSchedules {
    pub check_interval_secs: u64,
    pub claim_lapse_secs: u64,
    pub retention_days: u64,
}

/// The schedules' timing, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScheduleSettings {
    /// Between two looks at the due schedules.
    pub every: Duration,
    /// How long a claim lasts.
    pub lapse: chrono::Duration,
    /// How long an ended schedule is kept.
    pub retention: chrono::Duration,
}

/// A schedule runs within 60 seconds of its time: a look at least every 30 seconds; a claim
/// outlasts a deploy's two tasks (at least a minute, at most a day).
pub(crate) fn validate(raw: RawSchedules) -> Result<ScheduleSettings, ConfigError> {
    if !(1..=30).contains(&raw.check_interval_secs) {
        let reason = format!(
            "{}: from 1 to 30 (a schedule runs within 60 seconds of its time)",
            raw.check_interval_secs
        );
        return Err(invalid("schedules.check_interval_secs", reason));
    }
    if !(60..=86_400).contains(&raw.claim_lapse_secs) {
        let reason = format!(
            "{}: from 60 to 86400 (longer than a deploy takes, at most a day)",
            raw.claim_lapse_secs
        );
        return Err(invalid("schedules.claim_lapse_secs", reason));
    }
    if !(1..=3650).contains(&raw.retention_days) {
        let reason = format!("{}: from 1 to 3650 days", raw.retention_days);
        return Err(invalid("schedules.retention_days", reason));
    }
    Ok(ScheduleSettings {
        every: Duration::from_secs(raw.check_interval_secs),
        lapse: chrono::Duration::seconds(i64::try_from(raw.claim_lapse_secs).unwrap_or(86_400)),
        retention: chrono::Duration::days(i64::try_from(raw.retention_days).unwrap_or(3650)),
    })
}
