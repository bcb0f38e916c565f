//! `SystemClock`: the machine's clock.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::ports::Clock;

pub struct SystemClock;

#[async_trait]
impl Clock for SystemClock {
    async fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}
