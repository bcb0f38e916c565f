//! The policy's gate on a deploy: who may deploy to the environment, and whether it is
//! frozen now (by the clock port), overridden or not. The deploy, its preview and the
//! approval of a request all ask here, before anything is read upstream.

use crate::domain::{Authority, EnvironmentName, FreezeOverride, Gate, Operator, Refusal};

use super::state::AppState;

/// Lets the deploy of `operator` to `environment` through now, saying under which freeze
/// override if any (`overriding`: the reason given to override a freeze, when the operator
/// asked to), or refuses it.
pub async fn pass(
    state: &AppState,
    environment: &EnvironmentName,
    operator: &Operator,
    overriding: Option<&str>,
) -> Result<Authority, Refusal> {
    let now = state.clock.now().await;
    match state.policy.gate(environment, operator, now, overriding) {
        Ok(Gate::Open) => Ok(Authority::default()),
        Ok(Gate::ThroughFreeze(freeze)) => {
            tracing::warn!(%environment, %operator, %freeze, "deploy through a freeze (override)");
            Ok(Authority {
                request: None,
                freeze_override: Some(FreezeOverride {
                    window: freeze.window.to_string(),
                    until: freeze.until.to_string(),
                }),
            })
        }
        Err(refusal) => Err(refusal.into_refusal(environment)),
    }
}

/// The freeze `environment` is in now, as the pages show it: until when and by which window.
pub async fn freeze_now(state: &AppState, environment: &EnvironmentName) -> Option<String> {
    let now = state.clock.now().await;
    state
        .policy
        .freeze_at(environment, now)
        .map(|f| f.to_string())
}
