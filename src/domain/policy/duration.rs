//! Durations as the policy writes them: `<n>d<n>h<n>m<n>s`, each part optional but in that
//! order, whole units only. The freeze's durations and the soak time both read them (the
//! freeze's without seconds); each says what is wrong in its own words.

use chrono::TimeDelta;

/// A unit of a duration and its length in seconds.
pub type Unit = (char, i64);

pub const DAYS: Unit = ('d', 86_400);
pub const HOURS: Unit = ('h', 3_600);
pub const MINUTES: Unit = ('m', 60);
pub const SECONDS: Unit = ('s', 1);

/// Why a text is not a duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadDuration {
    Empty,
    /// Longer than the most accepted.
    TooLong,
    /// Not whole numbers of the units, in their order.
    NotInUnits,
    Zero,
}

/// `text` in `units` (largest first), more than zero and at most `max`.
pub fn parse_duration(
    text: &str,
    units: &[Unit],
    max: TimeDelta,
) -> Result<TimeDelta, BadDuration> {
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(BadDuration::Empty);
    }
    let mut total = TimeDelta::zero();
    for &(unit, seconds) in units {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 || !rest[digits..].starts_with(unit) {
            continue;
        }
        let n: i64 = rest[..digits]
            .parse()
            .ok()
            .filter(|n: &i64| n.saturating_mul(seconds) <= max.num_seconds())
            .ok_or(BadDuration::TooLong)?;
        total += TimeDelta::seconds(n * seconds);
        rest = &rest[digits + 1..];
    }
    if !rest.is_empty() {
        return Err(BadDuration::NotInUnits);
    }
    if total.is_zero() {
        return Err(BadDuration::Zero);
    }
    if total > max {
        return Err(BadDuration::TooLong);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Unit; 4] = [DAYS, HOURS, MINUTES, SECONDS];

    #[test]
    fn parts_come_in_order_whole_and_bounded() {
        let max = TimeDelta::days(366);
        assert_eq!(
            parse_duration("1h30m", &ALL, max),
            Ok(TimeDelta::minutes(90))
        );
        assert_eq!(parse_duration(" 2d ", &ALL, max), Ok(TimeDelta::days(2)));
        assert_eq!(parse_duration("90s", &ALL, max), Ok(TimeDelta::seconds(90)));
        assert_eq!(
            parse_duration("30m1h", &ALL, max),
            Err(BadDuration::NotInUnits)
        );
        assert_eq!(
            parse_duration("90s", &ALL[..3], max),
            Err(BadDuration::NotInUnits)
        );
        assert_eq!(parse_duration("", &ALL, max), Err(BadDuration::Empty));
        assert_eq!(parse_duration("0h", &ALL, max), Err(BadDuration::Zero));
        assert_eq!(parse_duration("367d", &ALL, max), Err(BadDuration::TooLong));
        assert_eq!(
            parse_duration("99999999999999999999d", &ALL, max),
            Err(BadDuration::TooLong)
        );
    }
}
