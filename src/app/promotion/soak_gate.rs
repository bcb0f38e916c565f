//! The soak step of a deploy's gate, after the facts are read: a version goes to an
//! environment with a soak time only once the environment before has served it that long
//! ([`crate::domain::policy::soak`]), on the clock port's time. Rollbacks are exempt; those the
//! policy lists in the environment's `override` may go through it with a reason (recorded on
//! the audit lines as a soak override).

use chrono::{DateTime, Utc};

use crate::domain::deploy::{
    DeployFacts, DeployKind, DeployRequest, Refusal, SoakOverride, SoakRefusal,
};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::policy::{check_soak, Soaking};
use crate::domain::repository::VersionNumber;

use crate::app::state::AppState;

/// Why `target` may not go to the facts' environment at `now` yet (`None`: it may, or
/// there is no soak there, or it is a rollback).
pub fn soaking(
    state: &AppState,
    facts: &DeployFacts,
    kind: DeployKind,
    target: VersionNumber,
    now: DateTime<Utc>,
) -> Option<Soaking> {
    if kind == DeployKind::Rollback {
        return None;
    }
    let soak = state.policy.soak_of(&facts.environment)?;
    let previous = facts.previous.as_ref()?;
    check_soak(soak, previous, target, now).err()
}

/// Lets `request` of `operator` through the soak at `now`: at once when it soaked (or needs
/// none), through it when they override it with a reason (answered, for the audit lines),
/// else refused.
pub(crate) fn pass(
    state: &AppState,
    facts: &DeployFacts,
    request: &DeployRequest,
    operator: &Operator,
    now: DateTime<Utc>,
) -> Result<Option<SoakOverride>, Refusal> {
    let environment = &request.environment;
    let Some(soaking) = soaking(state, facts, request.intent.kind(), request.target, now) else {
        return Ok(None);
    };
    let may_override = state.policy.may_override(environment, operator).is_ok();
    match request.overriding() {
        Some(reason) if may_override && !reason.trim().is_empty() => {
            tracing::warn!(%environment, %operator, previous = %soaking.previous, "deploy through a soak (override)");
            Ok(Some(SoakOverride {
                previous: soaking.previous.clone(),
                soak: soaking.soak.to_string(),
                until: soaking.until_text(),
            }))
        }
        Some(_) if may_override => Err(Refusal::OverrideReasonMissing(environment.clone())),
        _ => Err(refusal(&soaking, environment, may_override)),
    }
}

/// The refusal of a deploy to `environment` that has not soaked.
pub fn refusal(soaking: &Soaking, environment: &EnvironmentName, may_override: bool) -> Refusal {
    Refusal::Soak(Box::new(SoakRefusal {
        environment: environment.clone(),
        previous: soaking.previous.clone(),
        version: soaking.version.get(),
        soak: soaking.soak.to_string(),
        until: soaking.until_text(),
        why: soaking.why.clone(),
        may_override,
    }))
}
