//! The policy's gate on a deploy: who may deploy to the environment, and whether it is
//! frozen now (by the clock port), overridden or not. The deploy, its preview and the
//! approval of a request all ask here, before anything is read upstream.

use chrono::{DateTime, Utc};

use crate::domain::deploy::{Authority, FreezeOverride, Refusal};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::policy::Gate;

/// Why a deploy button is disabled for a viewer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocked {
    /// The policy (or the token's scopes) does not let them deploy there: why.
    Policy(String),
    /// Frozen, and they may not override it: until when.
    Freeze(String),
}

impl Blocked {
    /// The word pages put in `data-denied`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Policy(_) => "policy",
            Self::Freeze(_) => "freeze",
        }
    }

    /// What the viewer reads (the button's title).
    pub fn reason(&self) -> &str {
        match self {
            Self::Policy(why) | Self::Freeze(why) => why,
        }
    }
}

use crate::app::state::AppState;

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
                freeze_override: Some(FreezeOverride {
                    window: freeze.window.to_string(),
                    until: freeze.until.to_string(),
                }),
                ..Authority::default()
            })
        }
        Err(refusal) => Err(refusal.into_refusal(environment)),
    }
}

/// An environment frozen now, as the pages' banners show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrozenEnvironment {
    pub name: EnvironmentName,
    /// Until when, and by which window.
    pub freeze: String,
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

/// Why `viewer` cannot deploy to (or roll back) `environment` at `now`, as pages disable
/// their buttons: the policy's refusal, or the freeze they may not override. `None` for
/// someone who may, and for an unidentified viewer (the deploy asks for an identity first),
/// who still sees a freeze.
pub fn blocked(
    state: &AppState,
    environment: &EnvironmentName,
    viewer: Option<&Operator>,
    now: DateTime<Utc>,
) -> Option<Blocked> {
    if let Some(denied) = viewer.and_then(|op| state.policy.may_deploy(environment, op).err()) {
        return Some(Blocked::Policy(denied.to_string()));
    }
    let frozen = freeze_shown(state, environment, now)?;
    let may_override = viewer.is_some_and(|op| state.policy.may_override(environment, op).is_ok());
    (!may_override).then(|| Blocked::Freeze(format!("{environment} takes no deploy: {frozen}")))
}

/// [`blocked`] for every environment of the path, at the clock's time.
pub async fn blocked_everywhere(
    state: &AppState,
    viewer: Option<&Operator>,
) -> std::collections::BTreeMap<EnvironmentName, Blocked> {
    let now = state.clock.now().await;
    state
        .environments
        .iter()
        .filter_map(|e| Some((e.name.clone(), blocked(state, &e.name, viewer, now)?)))
        .collect()
}
