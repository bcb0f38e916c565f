//! How the insights judge a deploy failed: the rollback window, configured once
//! (`[insights] rollback_window_hours`) and given to the state by the composition root.

use std::sync::Arc;

use crate::app::parts::StatePart;
use crate::app::state::AppState;
use crate::domain::insights::RollbackWindow;

/// The insights' settings; the default window (72 hours) when none was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InsightsSettings {
    pub rollback_window: RollbackWindow,
}

impl StatePart for InsightsSettings {}

impl AppState {
    /// The insights' settings given by the composition root, or the defaults.
    pub fn insights_settings(&self) -> InsightsSettings {
        self.given::<InsightsSettings>()
            .map(|given| *Arc::as_ref(&given))
            .unwrap_or_default()
    }
}
