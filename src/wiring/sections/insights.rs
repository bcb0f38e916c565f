//! The `[insights]` table: within how many hours a rollback counts the deploy it undid as
//! failed.

use serde::Deserialize;

use crate::app::insights::InsightsSettings;
use crate::domain::insights::RollbackWindow;
use crate::wiring::sections::error::{invalid, ConfigError};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawInsights {
    pub rollback_window_hours: u64,
}

/// The window, checked: an hour to a year.
pub(crate) fn validate(raw: RawInsights) -> Result<InsightsSettings, ConfigError> {
    match u32::try_from(raw.rollback_window_hours) {
        Ok(hours @ 1..=8760) => Ok(InsightsSettings {
            rollback_window: RollbackWindow::hours(hours),
        }),
        _ => Err(invalid(
            "insights.rollback_window_hours",
            format!("{}: from 1 to 8760 hours", raw.rollback_window_hours),
        )),
    }
}
