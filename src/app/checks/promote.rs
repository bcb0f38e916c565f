//! Automatic promotion: when a passing report completes the checks the next environment
//! requires (`auto_promote` there), the console promotes the version through the deploy use
//! case, acting as `[policy] automation`: the same gates (policy, freeze, required checks,
//! and any other the deploy has), the deploy's compare-and-swap on what the environment serves
//! (read just before), its audit lines marked `automation` with the triggering check; where
//! approvals are needed, a request. Made once: the promotion is claimed in the check store
//! (shared by the replicas) before it runs, and given back when it was refused before
//! anything changed, so that a later report may try again.

use crate::domain::check::{CheckReport, PromotionKey};
use crate::domain::deploy::{
    Automation, CheckTrigger, Confirmation, DeployRequest, Intent, Reason, SeenLive,
};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::policy::checks::{promotion_due, NotDue};
use crate::domain::repository::{RepoId, VersionNumber};
use crate::ports::CheckStoreError;

use crate::app::deploy::{deploy_automated, DeployOutcome};
use crate::app::facts::{environment_facts, ReadError};
use crate::app::promotion::checks_gate::{promotion_key, verdict};
use crate::app::state::AppState;

/// What a passing report did about the environment after its own.
#[derive(Debug)]
pub enum Promotion {
    /// It promotes nothing (yet): why.
    NotDue {
        environment: EnvironmentName,
        why: NotDue,
    },
    /// Another report (here or on another replica) claimed this promotion first.
    AlreadyClaimed { environment: EnvironmentName },
    /// What it needed could not be read: nothing was tried.
    Unreadable {
        environment: EnvironmentName,
        error: String,
    },
    /// The deploy ran (or recorded a request): how it ended.
    Ran {
        environment: EnvironmentName,
        outcome: Box<DeployOutcome>,
    },
}

/// The promotion `report` (just recorded, of repository `id`) triggers, if the environment
/// after its own promotes by itself; `None` otherwise.
pub(crate) async fn promote_after(
    state: &AppState,
    id: &RepoId,
    report: &CheckReport,
) -> Option<Promotion> {
    let next = state
        .environments
        .next(&report.key.environment)?
        .name
        .clone();
    let checks = state.policy.checks();
    if !checks.auto_promotes(&next) || !report.passed {
        return None;
    }
    let automation = checks.automation()?;
    let unreadable = |error: String| Promotion::Unreadable {
        environment: next.clone(),
        error,
    };
    let version = report.key.version;
    let standing = match verdict(state, id, &next, version).await {
        Ok(Some(standing)) => standing,
        Ok(None) => return None,
        Err(error) => return Some(unreadable(error.to_string())),
    };
    let serving = match environment_facts(state, state.manager.as_ref(), id, &next).await {
        Ok((_, environment)) => environment.deployed.map(|d| d.number),
        Err(ReadError::UnknownRepository(unknown)) => return Some(unreadable(unknown.to_string())),
        Err(ReadError::Upstream(error)) => return Some(unreadable(error.to_string())),
    };
    if let Err(why) = promotion_due(report, &next, &standing, serving) {
        tracing::info!(%why, environment = %next, "no promotion");
        return Some(Promotion::NotDue {
            environment: next,
            why,
        });
    }
    let operator = match Operator::with_matching(automation.as_str(), state.policy.matching()) {
        Ok(operator) => operator,
        Err(error) => return Some(unreadable(error.to_string())),
    };
    let key = promotion_key(id, &next, version);
    match claim(state, &key).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::info!(environment = %next, version, "promotion claimed already");
            return Some(Promotion::AlreadyClaimed { environment: next });
        }
        Err(error) => return Some(unreadable(error.to_string())),
    }
    let request = request_for(report, &next, serving);
    tracing::info!(environment = %next, version, %operator, "promoting by itself");
    let outcome = deploy_automated(state, id, &request, &operator, trigger_of(report)).await;
    if matches!(
        outcome,
        DeployOutcome::Refused(_) | DeployOutcome::NotStarted(_)
    ) {
        give_back(state, &key).await;
    }
    Some(Promotion::Ran {
        environment: next,
        outcome: Box::new(outcome),
    })
}

/// The deploy of the report's version to `next`, confirmed by what `next` served when read
/// (the deploy's compare-and-swap), its reason naming the check.
fn request_for(
    report: &CheckReport,
    next: &EnvironmentName,
    serving: Option<VersionNumber>,
) -> DeployRequest {
    let reason = format!(
        "automatic promotion: {} passed on {}",
        report.key.name, report.key.environment
    );
    DeployRequest {
        target: VersionNumber::new(report.key.version),
        environment: next.clone(),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: serving.map_or(SeenLive::Nothing, SeenLive::Version),
        intent: Intent::Deploy(Reason::parse(&reason).ok()),
        override_freeze: false,
    }
}

/// What the promotion's audit lines say triggered it.
fn trigger_of(report: &CheckReport) -> Automation {
    Automation::triggered_by(CheckTrigger {
        check: report.key.name.clone(),
        environment: report.key.environment.clone(),
        version: report.key.version,
        url: report.url.clone(),
        reporter: report.reporter.clone(),
    })
}

async fn claim(state: &AppState, key: &PromotionKey) -> Result<bool, CheckStoreError> {
    match &state.checks {
        Some(store) => store.claim_promotion(key).await,
        None => Ok(false),
    }
}

/// Gives a claim back: nothing changed, so a later report may promote the version.
async fn give_back(state: &AppState, key: &PromotionKey) {
    let Some(store) = &state.checks else {
        return;
    };
    if let Err(error) = store.release_promotion(key).await {
        tracing::warn!(%error, "a refused promotion's claim could not be given back: report the check again after fixing the store");
    }
}
