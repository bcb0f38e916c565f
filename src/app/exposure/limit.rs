//! The limit on anonymous exposure questions, per client address: each new question costs
//! several upstream reads (a handful per served version), so a caller nobody vouches for (no
//! bearer token, no trusted proxy's name) may ask at most `per_minute` in any sixty seconds
//! from one address ([`crate::domain::policy::write_rate`]'s sliding window, keyed by the
//! address). Beyond it the question is refused before anything is read. Each replica counts
//! its own; the counts are not kept across a restart.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use crate::app::parts::StatePart;
use crate::app::state::{AppState, AppStateBuilder};
use crate::domain::policy::write_rate::{RetryAfter, WriteRate};
use crate::ports::Clock;

/// An anonymous question refused by the limit: nothing was read; ask again after
/// `retry_after`, or sign in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "Too many exposure questions from your address: without signing in, each address may ask \
     {per_minute} a minute (api.anonymous_exposure_per_minute). Try again in {} s, or sign in.",
    retry_after.seconds()
)]
pub struct TooManyQuestions {
    pub per_minute: NonZeroU32,
    pub retry_after: RetryAfter,
}

/// The anonymous questions of every address in the last minute, and the limit.
pub struct QuestionLimit {
    rate: Mutex<WriteRate>,
    clock: Arc<dyn Clock>,
}

impl QuestionLimit {
    pub fn new(per_minute: NonZeroU32, clock: Arc<dyn Clock>) -> Self {
        Self {
            rate: Mutex::new(WriteRate::new(per_minute)),
            clock,
        }
    }

    /// Counts a question from `address` now, or says how long it must wait.
    pub async fn admit(&self, address: IpAddr) -> Result<(), TooManyQuestions> {
        let now = self.clock.now().await;
        let mut rate = self
            .rate
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let per_minute = rate.per_minute();
        // IPv6 clients are counted by their /64: one host holds a whole /64.
        let key = match address {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => {
                    let s = v6.segments();
                    format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
        };
        rate.admit(&key, now)
            .map_err(|retry_after| TooManyQuestions {
                per_minute,
                retry_after,
            })
    }
}

/// Given by the composition root when anonymous questions are limited.
impl StatePart for QuestionLimit {}

impl AppState {
    /// The limit on anonymous exposure questions per client address (none: unlimited).
    pub fn question_limit(&self) -> Option<Arc<QuestionLimit>> {
        self.given()
    }
}

impl AppStateBuilder {
    /// Limits anonymous exposure questions to `per_minute` per client address (on the
    /// clock set so far).
    pub fn question_limit(self, per_minute: NonZeroU32) -> Self {
        let limit = QuestionLimit::new(per_minute, self.clock_so_far());
        self.part(limit)
    }
}
