//! What the background work reports to metrics: drift per repository and environment, and
//! how webhook deliveries end.

use crate::domain::EnvironmentName;

/// One environment of one repository, as a drift check found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriftReading {
    /// The repository's name.
    pub repository: String,
    pub environment: EnvironmentName,
    pub drifted: bool,
}

/// How one delivery attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptEnd {
    Delivered,
    /// Failed; another attempt is scheduled.
    Retried,
    /// Failed for the last time.
    GivenUp,
}

impl AttemptEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Delivered => "delivered",
            Self::Retried => "retried",
            Self::GivenUp => "given_up",
        }
    }
}

pub trait EventMetrics: Send + Sync {
    /// The readings of one drift check. `complete`: every repository was read, so a
    /// repository or environment not among them is gone (its reading is dropped).
    fn drift_checked(&self, readings: &[DriftReading], complete: bool);

    /// A delivery attempt ended so.
    fn delivery(&self, end: AttemptEnd);
}
