//! Whether an environment takes a deploy now: the policy's freeze windows at the clock
//! port's time. The deploy and its preview both ask, before anything is read upstream; the
//! pages ask to show a banner per frozen environment.

use chrono::{DateTime, Utc};

use crate::domain::{EnvironmentName, Refusal};

use super::state::AppState;

/// An environment frozen now, as the pages' banners show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrozenEnvironment {
    pub name: EnvironmentName,
    /// Until when, and by which window.
    pub freeze: String,
}

/// The refusal of a deploy to `environment` now, when it is frozen.
pub async fn frozen(state: &AppState, environment: &EnvironmentName) -> Option<Refusal> {
    let now = state.clock.now().await;
    let freeze = state.policy.freeze_at(environment, now)?;
    Some(Refusal::Frozen {
        environment: environment.clone(),
        until: format!("{} (freeze window {})", freeze.until, freeze.window),
    })
}

/// Until when, and by which window, `environment` is frozen at `now`, as pages show it.
pub fn freeze_shown(
    state: &AppState,
    environment: &EnvironmentName,
    now: DateTime<Utc>,
) -> Option<String> {
    state
        .policy
        .freeze_at(environment, now)
        .map(|f| f.to_string())
}

/// Every environment frozen now, in path order (the dashboard shows them all).
pub async fn frozen_environments(state: &AppState) -> Vec<FrozenEnvironment> {
    let now = state.clock.now().await;
    state
        .environments
        .iter()
        .filter_map(|e| {
            Some(FrozenEnvironment {
                freeze: freeze_shown(state, &e.name, now)?,
                name: e.name.clone(),
            })
        })
        .collect()
}
