//! Weeks as the insights count them: ISO weeks, Monday 00:00 UTC to the next Monday.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};

/// The Monday (UTC) of the week holding `at`.
pub fn week_start(at: DateTime<Utc>) -> NaiveDate {
    let day = at.date_naive();
    day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

/// Every week's Monday from the week of `from` to the week of `to` (inclusive), in order.
pub fn weeks_between(from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<NaiveDate> {
    let last = week_start(to);
    let mut week = week_start(from);
    let mut weeks = Vec::new();
    while week <= last {
        weeks.push(week);
        week += Duration::days(7);
    }
    weeks
}
