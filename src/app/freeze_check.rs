//! Whether an environment takes a deploy now: the policy's freeze windows at the clock
//! port's time. The deploy and its preview both ask, before anything is read upstream.

use crate::domain::{EnvironmentName, Refusal};

use super::state::AppState;

/// The refusal of a deploy to `environment` now, when it is frozen.
pub async fn frozen(state: &AppState, environment: &EnvironmentName) -> Option<Refusal> {
    let now = state.clock.now().await;
    let freeze = state.policy.freeze_at(environment, now)?;
    Some(Refusal::Frozen {
        environment: environment.clone(),
        until: format!("{} (freeze window {})", freeze.until, freeze.window),
    })
}
