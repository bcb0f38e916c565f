//! The limit on writes per caller ([`crate::domain::policy::write_rate`]), over the clock
//! port: the pages and the JSON API ask it before any write is handled, so a refused write
//! records nothing. Each replica counts its own writes (a caller's writes spread over `n`
//! replicas may reach `n` times the limit); the counts are not kept across a restart.

use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use crate::domain::policy::write_rate::{RetryAfter, WriteRate};
use crate::domain::Operator;
use crate::ports::Clock;

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

    /// Counts a write of `caller` now, or says how long they must wait.
    pub async fn admit(&self, caller: &Operator) -> Result<(), RetryAfter> {
        let now = self.clock.now().await;
        let mut rate = self
            .rate
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        rate.admit(caller.as_str(), now)
    }

    /// The limit, writes per minute per caller.
    pub fn per_minute(&self) -> NonZeroU32 {
        self.rate
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .per_minute()
    }
}
