//! Freeze windows on fixed instants: edges, time zones, clock changes, chains, bad input.
//!
//! 2026's clock changes in Europe/Berlin: Sunday 29 March at 01:00 UTC (02:00 CET becomes
//! 03:00 CEST) and Sunday 25 October at 01:00 UTC (03:00 CEST becomes 02:00 CET).

use chrono::{DateTime, TimeDelta, Utc};
use proptest::prelude::*;

use super::*;

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .expect("a test instant")
        .with_timezone(&Utc)
}

fn interval(text: &str) -> FreezeWindow {
    FreezeWindow::interval(text).expect("a valid interval")
}

fn recurring(cron: &str, duration: &str, timezone: &str) -> FreezeWindow {
    FreezeWindow::recurring(cron, duration, Some(timezone)).expect("a valid window")
}

fn weekend() -> FreezeWindow {
    recurring("0 16 * * FRI", "64h", "Europe/Berlin")
}

/// `(occurrence start, until)` of the freeze at `now`, or `None`.
fn freeze_at(windows: &[FreezeWindow], now: &str) -> Option<(DateTime<Utc>, Until)> {
    active(windows, at(now)).map(|f| (f.occurrence.start, f.until))
}

fn frozen(windows: &[FreezeWindow], now: &str) -> bool {
    active(windows, at(now)).is_some()
}

// region: intervals

#[test]
fn an_interval_is_frozen_from_its_start_inclusive_to_its_end_exclusive() {
    let new_year = [interval("2026-12-20T00:00:00Z/2027-01-04T00:00:00Z")];
    assert!(!frozen(&new_year, "2026-12-19T23:59:59Z"));
    assert!(frozen(&new_year, "2026-12-20T00:00:00Z"));
    assert!(frozen(&new_year, "2026-12-31T23:59:59Z"));
    assert!(frozen(&new_year, "2027-01-03T23:59:59.999999999Z"));
    assert!(!frozen(&new_year, "2027-01-04T00:00:00Z"));
}

#[test]
fn the_new_year_freeze_says_until_when() {
    let windows = [interval("2026-12-20T00:00:00Z/2027-01-04T00:00:00Z")];
    let freeze = active(&windows, at("2026-12-24T18:00:00Z")).unwrap();
    assert_eq!(freeze.index, 0);
    assert_eq!(freeze.until, Until::At(at("2027-01-04T00:00:00Z")));
    assert_eq!(
        freeze.to_string(),
        "frozen until 2027-01-04T00:00:00Z (freeze window 2026-12-20T00:00:00Z/2027-01-04T00:00:00Z)"
    );
}

#[test]
fn an_interval_written_with_offsets_is_held_in_utc() {
    let FreezeWindow::Interval(i) = interval("2026-12-20T01:00:00+01:00/2027-01-04T00:00:00-05:00")
    else {
        panic!("an interval")
    };
    assert_eq!(i.start(), at("2026-12-20T00:00:00Z"));
    assert_eq!(i.end(), at("2027-01-04T05:00:00Z"));
}

#[test]
fn no_windows_no_freeze() {
    assert!(active(&[], at("2026-12-24T18:00:00Z")).is_none());
}

// endregion
// region: recurring windows, edges and time zones

#[test]
fn the_weekend_freeze_in_winter_runs_from_friday_16_00_to_monday_08_00_berlin() {
    let w = [weekend()];
    assert!(!frozen(&w, "2026-01-09T14:59:59Z"));
    assert_eq!(
        freeze_at(&w, "2026-01-09T15:00:00Z"),
        Some((
            at("2026-01-09T15:00:00Z"),
            Until::At(at("2026-01-12T07:00:00Z"))
        ))
    );
    assert!(frozen(&w, "2026-01-11T12:00:00Z"));
    assert!(frozen(&w, "2026-01-12T06:59:59Z"));
    assert!(!frozen(&w, "2026-01-12T07:00:00Z"));
    assert!(!frozen(&w, "2026-01-14T12:00:00Z"));
}

#[test]
fn the_weekend_freeze_in_summer_runs_from_friday_16_00_to_monday_08_00_berlin() {
    let w = [weekend()];
    assert!(!frozen(&w, "2026-07-10T13:59:59Z"));
    assert_eq!(
        freeze_at(&w, "2026-07-11T09:00:00Z"),
        Some((
            at("2026-07-10T14:00:00Z"),
            Until::At(at("2026-07-13T06:00:00Z"))
        ))
    );
    assert!(frozen(&w, "2026-07-13T05:59:59Z"));
    assert!(!frozen(&w, "2026-07-13T06:00:00Z"));
}

#[test]
fn the_weekend_freeze_over_the_spring_change_lasts_its_64_elapsed_hours() {
    // Wall clock: Monday 08:00 CEST (06:00 UTC); elapsed: 09:00 CEST. The later wins.
    let w = [weekend()];
    assert_eq!(
        freeze_at(&w, "2026-03-29T12:00:00Z"),
        Some((
            at("2026-03-27T15:00:00Z"),
            Until::At(at("2026-03-30T07:00:00Z"))
        ))
    );
    assert!(frozen(&w, "2026-03-30T06:30:00Z"));
    assert!(!frozen(&w, "2026-03-30T07:00:00Z"));
}

#[test]
fn the_weekend_freeze_over_the_autumn_change_lasts_until_monday_08_00_on_the_wall_clock() {
    // Elapsed: Monday 07:00 CET (06:00 UTC); wall clock: 08:00 CET. The later wins.
    let w = [weekend()];
    assert_eq!(
        freeze_at(&w, "2026-10-25T12:00:00Z"),
        Some((
            at("2026-10-23T14:00:00Z"),
            Until::At(at("2026-10-26T07:00:00Z"))
        ))
    );
    assert!(frozen(&w, "2026-10-26T06:30:00Z"));
    assert!(!frozen(&w, "2026-10-26T07:00:00Z"));
}

#[test]
fn a_nightly_window_spans_midnight() {
    let w = [recurring("0 22 * * *", "8h", "UTC")];
    assert!(!frozen(&w, "2026-05-05T21:59:00Z"));
    assert_eq!(
        freeze_at(&w, "2026-05-05T23:30:00Z"),
        Some((
            at("2026-05-05T22:00:00Z"),
            Until::At(at("2026-05-06T06:00:00Z"))
        ))
    );
    assert_eq!(
        freeze_at(&w, "2026-05-06T05:59:59Z"),
        Some((
            at("2026-05-05T22:00:00Z"),
            Until::At(at("2026-05-06T06:00:00Z"))
        ))
    );
    assert!(!frozen(&w, "2026-05-06T06:00:00Z"));
}

#[test]
fn a_saturday_night_window_spans_midnight_into_sunday_in_its_time_zone() {
    // 22:00 Saturday in New York (EDT, -04:00) is 02:00 Sunday UTC.
    let w = [recurring("0 22 * * SAT", "4h", "America/New_York")];
    assert!(!frozen(&w, "2026-06-06T22:00:00Z"));
    assert_eq!(
        freeze_at(&w, "2026-06-07T05:00:00Z"),
        Some((
            at("2026-06-07T02:00:00Z"),
            Until::At(at("2026-06-07T06:00:00Z"))
        ))
    );
    assert!(!frozen(&w, "2026-06-07T06:00:00Z"));
}

#[test]
fn a_half_hour_zone_is_read_on_its_own_wall_clock() {
    // 09:00 in Kolkata (+05:30) is 03:30 UTC.
    let w = [recurring("0 9 * * *", "30m", "Asia/Kolkata")];
    assert!(!frozen(&w, "2026-02-02T03:29:59Z"));
    assert!(frozen(&w, "2026-02-02T03:30:00Z"));
    assert!(!frozen(&w, "2026-02-02T04:00:00Z"));
}

#[test]
fn without_a_timezone_a_window_is_read_in_utc() {
    let FreezeWindow::Recurring(r) = FreezeWindow::recurring("0 16 * * FRI", "1h", None).unwrap()
    else {
        panic!("a recurring window")
    };
    assert_eq!(r.timezone(), chrono_tz::Tz::UTC);
    let w = [FreezeWindow::Recurring(r)];
    assert!(frozen(&w, "2026-01-09T16:00:00Z"));
    assert!(!frozen(&w, "2026-01-09T15:59:59Z"));
}

// endregion
// region: clock changes at the start

#[test]
fn a_start_in_the_spring_gap_moves_to_the_first_instant_after_it() {
    // 02:00 does not exist on 29 March: the window starts at 03:00 CEST (01:00 UTC),
    // the instant 02:00 CET would have been, and lasts its hour.
    let w = [recurring("0 2 * * *", "1h", "Europe/Berlin")];
    assert!(!frozen(&w, "2026-03-29T00:59:59Z"));
    assert_eq!(
        freeze_at(&w, "2026-03-29T01:00:00Z"),
        Some((
            at("2026-03-29T01:00:00Z"),
            Until::At(at("2026-03-29T02:00:00Z"))
        ))
    );
    assert!(!frozen(&w, "2026-03-29T02:00:00Z"));
    // The days around keep their 02:00.
    assert!(frozen(&w, "2026-03-28T01:00:00Z"));
    assert!(frozen(&w, "2026-03-30T00:00:00Z"));
}

#[test]
fn a_start_in_the_autumn_fold_is_the_first_02_00_and_the_freeze_covers_both() {
    // 02:00 happens at 00:00 UTC (CEST) and 01:00 UTC (CET): frozen from the first until
    // the wall clock reads 03:00 (02:00 UTC), two elapsed hours.
    let w = [recurring("0 2 * * *", "1h", "Europe/Berlin")];
    assert!(!frozen(&w, "2026-10-24T23:59:59Z"));
    assert_eq!(
        freeze_at(&w, "2026-10-25T00:00:00Z"),
        Some((
            at("2026-10-25T00:00:00Z"),
            Until::At(at("2026-10-25T02:00:00Z"))
        ))
    );
    assert!(frozen(&w, "2026-10-25T01:30:00Z"));
    assert!(!frozen(&w, "2026-10-25T02:00:00Z"));
}

#[test]
fn a_stepped_schedule_fires_at_neither_missing_time_in_the_spring_gap() {
    // `*/30 2 * * *` names 02:00 and 02:30, which do not exist that night: no freeze,
    // and none at any wall-clock time the operator named.
    let w = [recurring("*/30 2 * * *", "30m", "Europe/Berlin")];
    assert!(frozen(&w, "2026-03-28T01:15:00Z"));
    assert!(!frozen(&w, "2026-03-29T00:59:59Z"));
    assert!(!frozen(&w, "2026-03-29T01:15:00Z"));
    assert!(!frozen(&w, "2026-03-29T01:45:00Z"));
}

#[test]
fn a_stepped_schedule_fires_at_both_of_the_repeated_times_in_the_autumn_fold() {
    let w = [recurring("*/30 2 * * *", "30m", "Europe/Berlin")];
    for now in [
        "2026-10-25T00:00:00Z",
        "2026-10-25T00:45:00Z",
        "2026-10-25T01:15:00Z",
    ] {
        assert!(frozen(&w, now), "{now}");
    }
    // From the first 02:00 the freeze runs on until the wall clock reads 03:00 after the
    // second 02:30.
    assert_eq!(
        active(&w, at("2026-10-25T00:10:00Z")).unwrap().until,
        Until::At(at("2026-10-25T02:00:00Z"))
    );
    assert!(!frozen(&w, "2026-10-25T02:00:00Z"));
}

// endregion
// region: chains and overlaps

#[test]
fn overlapping_and_touching_windows_freeze_until_the_end_of_the_chain() {
    let windows = [
        interval("2026-05-01T10:00:00Z/2026-05-01T12:00:00Z"),
        interval("2026-05-01T11:00:00Z/2026-05-01T14:00:00Z"),
        interval("2026-05-01T14:00:00Z/2026-05-01T15:00:00Z"),
        interval("2026-05-01T16:00:00Z/2026-05-01T17:00:00Z"),
    ];
    let early = active(&windows, at("2026-05-01T10:30:00Z")).unwrap();
    assert_eq!(
        (early.index, early.until),
        (0, Until::At(at("2026-05-01T15:00:00Z")))
    );
    let overlap = active(&windows, at("2026-05-01T11:30:00Z")).unwrap();
    assert_eq!(overlap.index, 1, "the window ending last");
    assert_eq!(overlap.until, Until::At(at("2026-05-01T15:00:00Z")));
    assert!(!frozen(&windows, "2026-05-01T15:00:00Z"));
    assert_eq!(
        active(&windows, at("2026-05-01T16:00:00Z")).unwrap().until,
        Until::At(at("2026-05-01T17:00:00Z"))
    );
}

#[test]
fn of_two_occurrences_of_one_window_containing_now_the_later_ending_one_counts() {
    let w = [recurring("0 8,9 * * *", "90m", "UTC")];
    let freeze = active(&w, at("2026-05-01T09:15:00Z")).unwrap();
    assert_eq!(freeze.occurrence.start, at("2026-05-01T09:00:00Z"));
    assert_eq!(freeze.until, Until::At(at("2026-05-01T10:30:00Z")));
}

#[test]
fn a_weekly_window_chained_to_an_interval_freezes_through_both() {
    let windows = [
        weekend(),
        interval("2026-01-12T07:00:00Z/2026-01-13T00:00:00Z"),
    ];
    let freeze = active(&windows, at("2026-01-10T12:00:00Z")).unwrap();
    assert_eq!(freeze.index, 0);
    assert_eq!(freeze.occurrence.end, at("2026-01-12T07:00:00Z"));
    assert_eq!(freeze.until, Until::At(at("2026-01-13T00:00:00Z")));
}

#[test]
fn an_every_minute_window_lasting_two_days_is_found_and_its_chain_is_bounded() {
    let w = [recurring("* * * * *", "2d", "UTC")];
    let now = at("2026-05-04T12:34:56Z");
    let freeze = active(&w, now).unwrap();
    assert_eq!(freeze.occurrence.start, at("2026-05-04T12:34:00Z"));
    assert_eq!(freeze.occurrence.end, at("2026-05-06T12:34:00Z"));
    // Each step of the chain is one more occurrence, two days later.
    let steps = MAX_CHAIN_STEPS as i64;
    assert_eq!(
        freeze.until,
        Until::AtLeast(freeze.occurrence.end + TimeDelta::days(2 * steps))
    );
}

#[test]
fn an_every_minute_window_over_the_autumn_change_ends_when_the_wall_clock_says() {
    // Started at 13:34 CEST on Saturday; two days on the wall clock is 13:34 CET on Monday,
    // 49 elapsed hours.
    let w = [recurring("* * * * *", "2d", "Europe/Berlin")];
    let freeze = active(&w, at("2026-10-24T11:34:56Z")).unwrap();
    assert_eq!(freeze.occurrence.start, at("2026-10-24T11:34:00Z"));
    assert_eq!(freeze.occurrence.end, at("2026-10-26T12:34:00Z"));
}

#[test]
fn an_every_minute_window_of_one_minute_stops_after_the_chain_steps() {
    let w = [recurring("* * * * *", "1m", "UTC")];
    let freeze = active(&w, at("2026-05-01T00:00:30Z")).unwrap();
    assert_eq!(
        freeze.until,
        Until::AtLeast(at("2026-05-01T00:01:00Z") + TimeDelta::minutes(MAX_CHAIN_STEPS as i64))
    );
    assert_eq!(
        freeze.to_string(),
        "frozen at least until 2026-05-01T01:41:00Z (freeze window '* * * * *' for 1m in UTC)"
    );
}

// endregion
// region: bad input

fn refusal(result: Result<FreezeWindow, InvalidFreeze>) -> (String, &'static str) {
    let error = result.expect_err("refused");
    (error.to_string(), error.key())
}

#[test]
fn bad_intervals_are_refused_with_what_to_write() {
    for (text, says) in [
        ("2026-12-20T00:00:00Z", "no '/' between start and end"),
        ("2026-12-20/2027-01-04T00:00:00Z", "its start '2026-12-20'"),
        ("2026-12-20T00:00:00Z/tomorrow", "its end 'tomorrow'"),
        (
            "2027-01-04T00:00:00Z/2026-12-20T00:00:00Z",
            "it ends before it starts",
        ),
        (
            "2026-12-20T00:00:00Z/2026-12-20T00:00:00Z",
            "it ends before it starts",
        ),
    ] {
        let (message, key) = refusal(FreezeWindow::interval(text));
        assert_eq!(key, "freeze");
        assert!(message.contains(says), "{message}");
        assert!(message.contains("e.g. 2026-12-20T00:00:00Z/2027-01-04T00:00:00Z"));
    }
}

#[test]
fn bad_crons_are_refused_naming_the_cron() {
    for cron in [
        "",
        "0 16 * * FRY",
        "0 16 * *",
        "0 0 16 * * FRI",
        "61 * * * *",
        "0 0 1 1 * 2027",
    ] {
        let (message, key) = refusal(FreezeWindow::recurring(cron, "1h", None));
        assert_eq!(key, "cron", "{cron}");
        assert!(message.starts_with(&format!("cron '{cron}'")), "{message}");
    }
    let (message, key) = refusal(FreezeWindow::recurring("0 0 30 2 *", "1h", None));
    assert_eq!(
        (message.as_str(), key),
        ("cron '0 0 30 2 *' never fires", "cron")
    );
}

#[test]
fn bad_durations_are_refused_naming_the_duration() {
    for (text, says) in [
        ("0h", "is zero"),
        ("0d0h0m", "is zero"),
        ("", "is empty"),
        ("64", "whole days (d), hours (h) and minutes (m)"),
        ("1.5h", "whole days"),
        ("30m1h", "in that order"),
        ("10s", "whole days"),
        ("-1h", "whole days"),
        ("367d", "longer than 366 days"),
        ("99999999999999999999999d", "longer than 366 days"),
    ] {
        let (message, key) = refusal(FreezeWindow::recurring("0 16 * * FRI", text, None));
        assert_eq!(key, "duration");
        assert!(
            message.starts_with(&format!("duration '{text}' ")),
            "{message}"
        );
        assert!(message.contains(says), "{text}: {message}");
    }
}

#[test]
fn durations_read_days_hours_and_minutes() {
    for (text, minutes, shown) in [
        ("64h", 64 * 60, "64h"),
        ("30m", 30, "30m"),
        ("1h30m", 90, "1h30m"),
        ("2d", 48 * 60, "48h"),
        (" 1d1m ", 24 * 60 + 1, "24h1m"),
        ("366d", 366 * 24 * 60, "8784h"),
    ] {
        let d = FreezeDuration::parse(text).unwrap();
        assert_eq!(d.as_delta(), TimeDelta::minutes(minutes), "{text}");
        assert_eq!(d.to_string(), shown);
    }
}

#[test]
fn an_unknown_time_zone_is_refused_naming_the_timezone() {
    let (message, key) = refusal(FreezeWindow::recurring(
        "0 16 * * FRI",
        "1h",
        Some("Europe/Berlinn"),
    ));
    assert_eq!(key, "timezone");
    assert_eq!(
        message,
        "timezone 'Europe/Berlinn' is not an IANA time zone name: write e.g. Europe/Berlin or UTC"
    );
}

// endregion
// region: properties

fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    // 2020 to 2035, to the second.
    (1_577_836_800i64..2_082_758_400).prop_map(|s| DateTime::from_timestamp(s, 0).unwrap())
}

fn cron() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "0 16 * * FRI",
        "0 2 * * *",
        "30 1 * * *",
        "*/15 * * * *",
        "0 */6 * * *",
        "0 0 1 * *",
        "0 22 * * SAT,SUN",
        "0 9 L * *",
    ])
}

fn zone() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "UTC",
        "Europe/Berlin",
        "America/New_York",
        "Australia/Lord_Howe",
    ])
}

proptest! {
    #[test]
    fn an_interval_is_active_exactly_from_its_start_to_before_its_end(
        start in instant(), minutes in 1i64..100_000, now in instant()
    ) {
        let end = start + TimeDelta::minutes(minutes);
        let text = format!("{}/{}", start.to_rfc3339(), end.to_rfc3339());
        let freeze = active(&[interval(&text)], now);
        prop_assert_eq!(freeze.is_some(), start <= now && now < end);
        if let Some(f) = freeze {
            prop_assert_eq!(f.until, Until::At(end));
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn in_utc_a_window_is_active_exactly_when_it_fired_less_than_its_duration_ago(
        cron in cron(), minutes in 1i64..3_000, now in instant()
    ) {
        let duration = TimeDelta::minutes(minutes);
        let w = recurring(cron, &format!("{minutes}m"), "UTC");
        let schedule = croner::parser::CronParser::builder().build().parse(cron).unwrap();
        let first_after = schedule.find_next_occurrence(&(now - duration), false).unwrap();
        prop_assert_eq!(active(&[w], now).is_some(), first_after <= now);
    }

    #[test]
    fn a_freeze_holds_from_its_occurrence_to_until_and_not_at_until(
        cron in cron(), zone in zone(), minutes in 1i64..5_000, now in instant()
    ) {
        let w = [recurring(cron, &format!("{minutes}m"), zone)];
        if let Some(f) = active(&w, now) {
            prop_assert!(f.occurrence.start <= now && now < f.occurrence.end);
            prop_assert!(f.occurrence.end - f.occurrence.start >= TimeDelta::minutes(minutes));
            prop_assert!(f.until.instant() >= f.occurrence.end);
            prop_assert!(active(&w, f.until.instant() - TimeDelta::seconds(1)).is_some());
            if let Until::At(until) = f.until {
                prop_assert!(active(&w, until).is_none());
            }
        }
    }
}

// endregion
