//! What the environment before another serves, and since when: the fact a soak is judged on,
//! read with a deploy's facts.

use chrono::{DateTime, Utc};

use crate::domain::environment::EnvironmentName;
use crate::domain::repository::VersionNumber;

/// What the environment before the target's serves, and since when, as read for a deploy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousServing {
    pub environment: EnvironmentName,
    pub serving: Option<VersionNumber>,
    /// Since when it serves it without a break (see
    /// [`served_since`](crate::domain::policy::served_since)); `None`: unknown.
    pub since: Option<DateTime<Utc>>,
}
