//! How many writes one caller may make: at most `per_minute` in any sixty seconds. A caller
//! is one person or one token, by the key the identity scheme gives them; a write beyond
//! the limit is refused before anything is recorded, with the time until one is allowed
//! again. Reads are never limited.
//!
//! The window slides: each caller's last writes are kept (never more than the limit), so a
//! burst at the end of one minute and another at the start of the next cannot add up to
//! twice the limit, and callers that have not written for a minute are forgotten.

use std::collections::{HashMap, VecDeque};
use std::num::NonZeroU32;
use std::time::Duration;

use chrono::{DateTime, Utc};

/// The window the limit counts writes in.
pub const WINDOW: Duration = Duration::from_secs(60);

/// A write refused: the caller may write again after this long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub Duration);

impl RetryAfter {
    /// Whole seconds, at least one (the `Retry-After` header's unit).
    pub fn seconds(self) -> u64 {
        self.0.as_secs() + u64::from(self.0.subsec_nanos() > 0)
    }
}

/// The writes of every caller within the last [`WINDOW`].
#[derive(Debug)]
pub struct WriteRate {
    per_minute: NonZeroU32,
    writes: HashMap<String, VecDeque<DateTime<Utc>>>,
}

impl WriteRate {
    pub fn new(per_minute: NonZeroU32) -> Self {
        Self {
            per_minute,
            writes: HashMap::new(),
        }
    }

    pub fn per_minute(&self) -> NonZeroU32 {
        self.per_minute
    }

    /// Counts a write of `caller` at `now` if the limit allows it; otherwise says when it will.
    pub fn admit(&mut self, caller: &str, now: DateTime<Utc>) -> Result<(), RetryAfter> {
        let window = chrono::Duration::from_std(WINDOW).expect("sixty seconds");
        self.forget_before(now - window);
        let writes = self.writes.entry(caller.to_owned()).or_default();
        if writes.len() < self.per_minute.get() as usize {
            writes.push_back(now);
            return Ok(());
        }
        let oldest = *writes.front().expect("a full window holds writes");
        let wait = (oldest + window - now).to_std().unwrap_or(Duration::ZERO);
        Err(RetryAfter(wait.max(Duration::from_millis(1))))
    }

    /// How many callers are remembered (each has written within the window).
    pub fn callers(&self) -> usize {
        self.writes.len()
    }

    fn forget_before(&mut self, horizon: DateTime<Utc>) {
        self.writes.retain(|_, writes| {
            while writes.front().is_some_and(|&at| at <= horizon) {
                writes.pop_front();
            }
            !writes.is_empty()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + seconds, 0).unwrap()
    }

    fn rate(n: u32) -> WriteRate {
        WriteRate::new(NonZeroU32::new(n).unwrap())
    }

    #[test]
    fn the_write_beyond_the_limit_waits_for_the_oldest_to_leave_the_window() {
        let mut limit = rate(3);
        for s in [0, 10, 20] {
            assert_eq!(limit.admit("alice", at(s)), Ok(()));
        }
        let refused = limit.admit("alice", at(30)).unwrap_err();
        assert_eq!(
            refused.seconds(),
            30,
            "the write at 0 leaves the window at 60"
        );
        assert_eq!(limit.admit("alice", at(60)), Ok(()));
        assert!(
            limit.admit("alice", at(61)).is_err(),
            "10 and 20 still count"
        );
    }

    #[test]
    fn callers_are_counted_apart() {
        let mut limit = rate(1);
        assert_eq!(limit.admit("alice", at(0)), Ok(()));
        assert!(limit.admit("alice", at(1)).is_err());
        assert_eq!(limit.admit("bob", at(1)), Ok(()));
    }

    #[test]
    fn a_refused_write_is_not_counted() {
        let mut limit = rate(1);
        limit.admit("alice", at(0)).unwrap();
        for s in 1..59 {
            assert!(limit.admit("alice", at(s)).is_err());
        }
        assert_eq!(limit.admit("alice", at(60)), Ok(()));
    }

    #[test]
    fn callers_quiet_for_a_minute_are_forgotten() {
        let mut limit = rate(5);
        limit.admit("alice", at(0)).unwrap();
        limit.admit("bob", at(30)).unwrap();
        limit.admit("carol", at(70)).unwrap();
        assert_eq!(limit.callers(), 2, "alice's write left the window");
    }

    #[test]
    fn retry_after_rounds_up_to_whole_seconds() {
        assert_eq!(RetryAfter(Duration::from_millis(1)).seconds(), 1);
        assert_eq!(RetryAfter(Duration::from_millis(2500)).seconds(), 3);
        assert_eq!(RetryAfter(Duration::from_secs(2)).seconds(), 2);
    }

    proptest! {
        /// Whatever the times, no sixty seconds ever hold more admitted writes than the limit,
        /// and a refusal's wait is never longer than the window.
        #[test]
        fn no_window_holds_more_than_the_limit(
            n in 1u32..6,
            gaps in proptest::collection::vec(0i64..40, 1..80),
        ) {
            let mut limit = rate(n);
            let mut now = 0;
            let mut admitted = Vec::new();
            for gap in gaps {
                now += gap;
                match limit.admit("alice", at(now)) {
                    Ok(()) => admitted.push(now),
                    Err(wait) => prop_assert!(wait.0 <= WINDOW),
                }
            }
            for (i, &start) in admitted.iter().enumerate() {
                let within = admitted[i..].iter().take_while(|&&t| t < start + 60).count();
                prop_assert!(within <= n as usize, "{within} writes within 60 s of {start}");
            }
        }
    }
}
