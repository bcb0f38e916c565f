//! Use cases of a single repository's deploy: its preview ([`preview`]), and the deploy of a
//! version to an environment, however it was asked for (the pages and the API, an approved
//! request, a schedule, an automatic promotion): each builds a [`Promotion`] of one member
//! and runs it through the promotion pipeline ([`crate::app::promotion`]), then tells its
//! end as a [`DeployOutcome`].
//!
//! The server re-checks every precondition, whatever the page showed. Once upstream is
//! touched, the answer always says whether production changed: no, yes, or unknown.

pub(crate) mod outcome;
pub(crate) mod preview;

use crate::domain::deploy::progress::UnderWay;
use crate::domain::deploy::{
    ApprovalTrail, Automation, DeployAsk, DeployId, DeployRequest, ScheduleMark,
};
use crate::domain::identity::Operator;
use crate::domain::promotion::{AskedBy, Member, Promotion};
use crate::domain::repository::RepoId;
use crate::ports::DeployAsked;

pub use crate::app::deploy::outcome::DeployOutcome;
pub use crate::app::deploy::preview::{preview, Preview, PreviewError};
pub use crate::app::promotion::measure::unidentified;
pub use crate::app::promotion::outcome::{DeployStep, NotStarted};
pub use crate::app::promotion::steps::StepError;
use crate::app::promotion::{measure, promote};
use crate::app::state::AppState;

/// The deploys of `repo` (to `environment`, when given) running in this console now, or
/// ended within the last minute: what the versions page and the confirm dialog show.
pub async fn deploys_under_way(
    state: &AppState,
    repo: &RepoId,
    environment: Option<&crate::domain::environment::EnvironmentName>,
) -> Vec<UnderWay> {
    let now = state.clock.now().await;
    state.running_deploys().of_repo(repo, environment, now)
}

/// Deploys what the page's form or the API asked ([`DeployAsk`]): refused at once when its
/// reason does not fit (a rollback without one, or one too long), otherwise [`deploy`].
pub async fn deploy_asked(
    state: &AppState,
    id: &RepoId,
    ask: DeployAsk<'_>,
    operator: &Operator,
) -> DeployOutcome {
    let environment = ask.environment.clone();
    let asked = if ask.rollback {
        DeployAsked::Rollback
    } else {
        DeployAsked::Deploy
    };
    match ask.request() {
        Ok(request) => deploy(state, id, &request, operator).await,
        Err(refusal) => {
            let outcome = DeployOutcome::Refused(refusal);
            measure::ended(
                state,
                crate::ports::DeployEnd::Refused,
                asked,
                &environment,
                None,
            );
            outcome
        }
    }
}

/// Deploys `request.target` of repository `id` to the distribution of `request.environment`,
/// on behalf of `operator`, when the policy lets them now; where the environment needs
/// approvals, records a request instead ([`DeployOutcome::Requested`]), after the same
/// checks. Two audit lines share one `deploy_id`: `started` before anything changes
/// upstream, then the outcome; every upstream request of the deploy carries it as its
/// correlation id.
pub async fn deploy(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
) -> DeployOutcome {
    let single = single(id, request, operator, AskedBy::Operator, None);
    promote(state, single).await.into()
}

/// A promotion the console makes by itself (`auto_promote`), acting as `automation`'s
/// operator: its audit lines marked with `automation` (the check that triggered it); where
/// the environment needs approvals, a request instead.
pub(crate) async fn deploy_automated(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
    automation: Automation,
) -> DeployOutcome {
    let asked = AskedBy::Automation(automation);
    promote(state, single(id, request, operator, asked, None))
        .await
        .into()
}

/// The deploy of an approval request whose approvals are complete (`trail`), on behalf of
/// the requester, without asking for approvals again.
pub(crate) async fn deploy_approved(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    requester: &Operator,
    deploy_id: DeployId,
    trail: ApprovalTrail,
) -> DeployOutcome {
    let asked = AskedBy::Approval(trail);
    promote(
        state,
        single(id, request, requester, asked, Some(deploy_id)),
    )
    .await
    .into()
}

/// The deploy of a schedule at its time, on behalf of its author (`mark` names the schedule
/// and the author on the audit lines and events), under the approvals of its request
/// (`trail`) where the environment needs them; without them it is refused, not asked: a
/// schedule runs only what was approved.
pub(crate) async fn deploy_scheduled(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    author: &Operator,
    deploy_id: DeployId,
    mark: ScheduleMark,
    trail: Option<ApprovalTrail>,
) -> DeployOutcome {
    let asked = AskedBy::Schedule {
        mark,
        approvals: trail,
    };
    promote(state, single(id, request, author, asked, Some(deploy_id)))
        .await
        .into()
}

/// The promotion of one repository that `request` asks.
fn single(
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
    asked_by: AskedBy,
    deploy_id: Option<DeployId>,
) -> Promotion {
    Promotion {
        environment: request.environment.clone(),
        members: vec![Member {
            name: id.to_string(),
            repo: id.clone(),
            target: request.target,
            confirm: request.confirm.clone(),
            seen_live: request.seen_live,
            deploy_id,
        }],
        operator: operator.clone(),
        asked_by,
        intent: request.intent.clone(),
        override_freeze: request.override_freeze,
        set: None,
    }
}
