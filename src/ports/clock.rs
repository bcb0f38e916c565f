//! The clock port, so that timestamps can be pinned in tests.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

#[async_trait]
pub trait Clock: Send + Sync {
    async fn now(&self) -> DateTime<Utc>;
}
