//! Whether an environment takes a deploy now: the policy's freeze windows at the clock
//! port's time. The deploy and its preview both ask, before anything is read upstream.

use crate::domain::{EnvironmentName, Freeze, Refusal};

use super::state::AppState;

/// The freeze `environment` is in now, if any.
pub async fn freeze_now(state: &AppState, environment: &EnvironmentName) -> Option<Freeze> {
    let now = state.clock.now().await;
    state.policy.freeze_at(environment, now)
}

/// The refusal of a deploy to `environment` now, when it is frozen.
pub async fn frozen(state: &AppState, environment: &EnvironmentName) -> Option<Refusal> {
    let freeze = freeze_now(state, environment).await?;
    Some(Refusal::Frozen {
        environment: environment.clone(),
        until: format!("{} (freeze window {})", freeze.until, freeze.window),
    })
}
