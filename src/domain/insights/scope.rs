//! What a view of the insights covers: a time range, and optionally some repositories, a
//! release and an environment; and the window within which a rollback marks a deploy failed.

use chrono::{DateTime, Duration, Utc};

use crate::domain::environment::EnvironmentName;
use crate::domain::ids::ReleaseName;

/// The arrivals counted: those at or after `from` and before `to`, of the given repositories
/// (by UUID; all when `None`), carried by the given release's promotions (all when `None`),
/// in the given environment (all when `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub repositories: Option<Vec<String>>,
    pub release: Option<ReleaseName>,
    pub environment: Option<EnvironmentName>,
}

impl Scope {
    /// The last `days` days before `now`, everything else unfiltered.
    pub fn last_days(now: DateTime<Utc>, days: u32) -> Self {
        Self {
            from: now - Duration::days(i64::from(days)),
            to: now,
            repositories: None,
            release: None,
            environment: None,
        }
    }

    /// Whether a line at `at` of repository `uuid` in `environment` is inside (the release
    /// is checked by the caller, who knows the line's).
    pub fn covers(&self, at: DateTime<Utc>, uuid: &str, environment: &EnvironmentName) -> bool {
        at >= self.from
            && at < self.to
            && self
                .repositories
                .as_ref()
                .is_none_or(|repos| repos.iter().any(|r| r == uuid))
            && self.environment.as_ref().is_none_or(|e| e == environment)
    }
}

/// How soon after a deploy a rollback counts it as failed (`[insights]
/// rollback_window_hours`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollbackWindow(Duration);

impl RollbackWindow {
    pub fn hours(hours: u32) -> Self {
        Self(Duration::hours(i64::from(hours)))
    }

    pub fn seconds(&self) -> i64 {
        self.0.num_seconds()
    }
}

impl Default for RollbackWindow {
    fn default() -> Self {
        Self::hours(72)
    }
}
