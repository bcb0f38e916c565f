//! The required checks' gate on a deploy, a step of its own after the policy's gate: a
//! version goes to an environment only with the checks the environment requires passed on
//! the environment before it (`[policy.<env>] required_checks`, the rule in
//! [`crate::domain::policy::checks`]), unless someone listed in its `override` overrides
//! them with a reason (recorded in the deploy's audit lines). A rollback is not gated: it
//! goes back to a version the environment served.

use crate::domain::check::PromotionKey;
use crate::domain::deploy::{ChecksOverride, DeployKind, DeployRequest, Refusal};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::policy::checks::{judge, ChecksVerdict};
use crate::domain::repository::RepoId;
use crate::ports::CheckStoreError;

use crate::app::promotion::outcome::{NotStarted, Stop};
use crate::app::state::AppState;

/// How the checks `environment` requires stand for `version` of repository `id` on the
/// environment before it; `None` when it requires none.
pub async fn verdict(
    state: &AppState,
    id: &RepoId,
    environment: &EnvironmentName,
    version: u64,
) -> Result<Option<ChecksVerdict>, CheckStoreError> {
    let required = state.policy.checks().required(environment);
    let Some(before) = state.environments.previous(environment) else {
        return Ok(None);
    };
    if required.is_empty() {
        return Ok(None);
    }
    let reports = match &state.checks {
        Some(store) => store.latest(id, Some(version)).await?,
        None => Vec::new(),
    };
    Ok(Some(judge(required, &before.name, version, &reports)))
}

/// Lets `request` through when the checks its environment requires passed, or when
/// `operator` overrides them (listed in the environment's `override`, with a reason): then
/// says which were unmet, for the audit lines. Refuses it otherwise, naming them.
pub(crate) async fn pass(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
) -> Result<Option<ChecksOverride>, Stop> {
    if request.intent.kind() == DeployKind::Rollback {
        return Ok(None);
    }
    let environment = &request.environment;
    let verdict = verdict(state, id, environment, request.target.get())
        .await
        .map_err(|error| {
            tracing::error!(%error, "deploy not started: the checks cannot be read");
            Stop::NotStarted(NotStarted::ChecksUnreadable(error))
        })?;
    let Some(verdict) = verdict.filter(|v| !v.all_passed()) else {
        return Ok(None);
    };
    let unmet = verdict.unmet();
    let may_override = state.policy.may_override(environment, operator).is_ok();
    match request.overriding() {
        Some(reason) if may_override && !reason.trim().is_empty() => {
            tracing::warn!(%environment, %operator, %unmet, "deploy without its required checks (override)");
            Ok(Some(ChecksOverride {
                checked_in: verdict.checked_in,
                unmet: unmet.to_string(),
            }))
        }
        Some(_) if may_override => Err(Stop::Refused(Refusal::OverrideReasonMissing(
            environment.clone(),
        ))),
        _ => Err(Stop::Refused(Refusal::ChecksMissing {
            version: request.target.get(),
            environment: environment.clone(),
            checked_in: verdict.checked_in,
            unmet,
        })),
    }
}

/// The promotion of `version` of `id` to `environment`, as the check store claims it.
pub fn promotion_key(id: &RepoId, environment: &EnvironmentName, version: u64) -> PromotionKey {
    PromotionKey {
        repository_uuid: id.as_str().to_owned(),
        environment: environment.clone(),
        version,
    }
}
