//! The limit on writes per caller ([`crate::domain::policy::write_rate`]), over the clock
//! port: the pages and the JSON API ask it before any write is handled, so a refused write
//! records nothing. Each replica counts its own writes (a caller's writes spread over `n`
//! replicas may reach `n` times the limit); the counts are not kept across a restart.

use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use crate::domain::identity::Operator;
use crate::domain::policy::write_rate::{RetryAfter, WriteRate};
use crate::ports::Clock;

/// A write refused by the limit: nothing was recorded; the caller may write again after
/// `retry_after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "Too many changes: each operator may make {per_minute} a minute (api.writes_per_minute). \
     Nothing was changed; try again in {} s.",
    retry_after.seconds()
)]
pub struct TooManyWrites {
    pub per_minute: NonZeroU32,
    pub retry_after: RetryAfter,
}

/// The writes of every caller in the last minute, and the limit.
pub struct WriteLimit {
    rate: Mutex<WriteRate>,
    clock: Arc<dyn Clock>,
}

impl WriteLimit {
    pub fn new(per_minute: NonZeroU32, clock: Arc<dyn Clock>) -> Self {
        Self {
            rate: Mutex::new(WriteRate::new(per_minute)),
            clock,
        }
    }

    /// Counts a write of `caller` now (by the canonical key of their name), or says how long
    /// they must wait.
    pub async fn admit(&self, caller: &Operator) -> Result<(), TooManyWrites> {
        let now = self.clock.now().await;
        let mut rate = self
            .rate
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let per_minute = rate.per_minute();
        rate.admit(caller.key().as_str(), now)
            .map_err(|retry_after| TooManyWrites {
                per_minute,
                retry_after,
            })
    }

    /// The limit, writes per minute per caller.
    pub fn per_minute(&self) -> NonZeroU32 {
        self.rate
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .per_minute()
    }
}
