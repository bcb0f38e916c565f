//! Delivering an event to a webhook, at least once: attempts until the receiver answers
//! 2xx, retried with exponential backoff (doubling, with jitter, capped) until a deadline
//! after the event was recorded, then given up.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::domain::event::{ConsoleEvent, WebhookUrl};

/// How failed attempts are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The wait after the first failed attempt (before jitter); doubled after each further one.
    pub first: Duration,
    /// The longest wait between two attempts.
    pub cap: Duration,
    /// How long after the event was recorded attempts go on.
    pub give_up_after: Duration,
}

impl Default for RetryPolicy {
    /// 10 s, doubling up to 15 min, for 24 hours.
    fn default() -> Self {
        Self {
            first: Duration::from_secs(10),
            cap: Duration::from_secs(15 * 60),
            give_up_after: Duration::from_secs(24 * 3600),
        }
    }
}

/// What follows a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextAttempt {
    At(DateTime<Utc>),
    GiveUp,
}

impl RetryPolicy {
    /// After attempt number `attempt` (1 for the first) of an event recorded at `recorded`
    /// failed at `now`. `jitter`, from 0 to 1, places the wait between half the backoff and
    /// all of it, so that receivers coming back are not hit by every console at once. The
    /// last attempt is made at the deadline; one failing then gives up.
    pub fn after_failure(
        &self,
        attempt: u32,
        recorded: DateTime<Utc>,
        now: DateTime<Utc>,
        jitter: f64,
    ) -> NextAttempt {
        let deadline = recorded + chrono_duration(self.give_up_after);
        if now >= deadline {
            return NextAttempt::GiveUp;
        }
        let doublings = attempt.saturating_sub(1).min(30);
        let backoff = self
            .first
            .saturating_mul(1 << doublings)
            .min(self.cap)
            .max(Duration::from_millis(1));
        let wait = backoff.mul_f64(0.5 + jitter.clamp(0.0, 1.0) / 2.0);
        NextAttempt::At((now + chrono_duration(wait)).min(deadline))
    }
}

fn chrono_duration(duration: Duration) -> chrono::Duration {
    chrono::Duration::from_std(duration).unwrap_or(chrono::Duration::MAX)
}

/// One delivery of one event to one webhook, as claimed for an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub event: ConsoleEvent,
    pub webhook: WebhookUrl,
    /// This attempt's number, from 1.
    pub attempt: u32,
    /// When the event was recorded (the retry deadline counts from it).
    pub recorded: DateTime<Utc>,
}

/// How an attempt ended, as the outbox keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// The receiver answered 2xx.
    Delivered { at: DateTime<Utc> },
    /// It failed at `at`; try again at `next`.
    Retry {
        at: DateTime<Utc>,
        next: DateTime<Utc>,
        error: String,
    },
    /// It failed at the deadline (or the webhook is no longer configured): no more attempts.
    GaveUp { at: DateTime<Utc>, error: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).unwrap().into()
    }

    const RECORDED: &str = "2026-11-22T10:00:00Z";

    fn wait_after(attempt: u32, jitter: f64) -> chrono::Duration {
        let now = at("2026-11-22T10:00:00Z");
        match RetryPolicy::default().after_failure(attempt, at(RECORDED), now, jitter) {
            NextAttempt::At(next) => next - now,
            NextAttempt::GiveUp => panic!("gave up after attempt {attempt}"),
        }
    }

    #[test]
    fn the_wait_doubles_after_each_failure_up_to_the_cap() {
        let full: Vec<i64> = (1..=9).map(|n| wait_after(n, 1.0).num_seconds()).collect();
        assert_eq!(full, [10, 20, 40, 80, 160, 320, 640, 900, 900]);
        assert_eq!(wait_after(1_000, 1.0).num_seconds(), 900, "no overflow");
    }

    #[test]
    fn jitter_keeps_the_wait_between_half_the_backoff_and_all_of_it() {
        assert_eq!(wait_after(3, 0.0).num_seconds(), 20);
        assert_eq!(wait_after(3, 0.5).num_seconds(), 30);
        assert_eq!(wait_after(3, 7.0).num_seconds(), 40, "clamped");
    }

    #[test]
    fn the_last_attempt_is_at_the_deadline_then_it_gives_up() {
        let policy = RetryPolicy::default();
        let recorded = at(RECORDED);
        let almost = at("2026-11-23T09:59:00Z");
        assert_eq!(
            policy.after_failure(40, recorded, almost, 1.0),
            NextAttempt::At(at("2026-11-23T10:00:00Z"))
        );
        let deadline = at("2026-11-23T10:00:00Z");
        assert_eq!(
            policy.after_failure(41, recorded, deadline, 0.3),
            NextAttempt::GiveUp
        );
    }
}
