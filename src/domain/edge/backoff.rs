//! When an edge that did not catch up is tried again: doubling from one second, capped.

use std::time::Duration;

/// The back-off between two attempts at one edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeBackoff {
    pub first: Duration,
    /// No wait is longer (`edges_follow.retry_max_secs`, 60 s by default).
    pub cap: Duration,
}

impl EdgeBackoff {
    /// The wait after the `attempt`-th failed attempt (1 for the first).
    pub fn after(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(30);
        self.first
            .checked_mul(1u32 << doublings)
            .unwrap_or(self.cap)
            .min(self.cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_wait_doubles_the_last_and_none_passes_the_cap() {
        let backoff = EdgeBackoff {
            first: Duration::from_secs(1),
            cap: Duration::from_secs(60),
        };
        let waits: Vec<u64> = (1..=9).map(|n| backoff.after(n).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(backoff.after(u32::MAX), Duration::from_secs(60));
    }
}
