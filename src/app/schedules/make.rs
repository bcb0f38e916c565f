//! Making a schedule: every check a deploy would make, judged at the schedule's time where
//! time matters (the freeze then, the soak then), against what the environment serves now
//! (the schedule runs only if it still does). A rollback is not scheduled. Where the
//! environment needs approvals the schedule carries a request, which expires an hour after
//! the schedule's time: its completing approval runs nothing, the schedule runs only if it
//! is approved then.

use chrono::{DateTime, Utc};

use crate::domain::approval::{ApprovalRequest, ScheduledFor};
use crate::domain::deploy::{DeployAsk, DeployKind, Refusal};
use crate::domain::identity::Operator;
use crate::domain::ids::ScheduleId;
use crate::domain::repository::RepoId;
use crate::domain::schedule::rules::check_at;
use crate::domain::schedule::{Schedule, ScheduleRefusal, ScheduleState};
use crate::ports::RequestStoreError;

use crate::app::approvals::asking::ask::ask_scheduled;

use crate::app::deploy::DeployOutcome;
use crate::app::promotion::turn::checked_for;
use crate::app::schedules::{store, StoreProblem};
use crate::app::state::AppState;

/// Why a deploy was not scheduled.
#[derive(Debug, thiserror::Error)]
pub enum NotScheduled {
    /// The time does not fit.
    #[error(transparent)]
    Time(#[from] ScheduleRefusal),
    /// A check of the deploy refuses it at that time (or the facts could not be read).
    #[error("a check of the deploy refuses it at that time")]
    Deploy(Box<DeployOutcome>),
    #[error("Not scheduled: {0}. Schedules are kept beside the audit log: fix it first.")]
    NotKept(#[from] StoreProblem),
    #[error("Not scheduled: {0}. The environment needs approvals, and requests are kept beside the audit log: fix it first.")]
    RequestNotKept(RequestStoreError),
}

/// A schedule made, and the approval request it carries where the environment needs one.
#[derive(Debug)]
pub struct Made {
    pub schedule: Schedule,
    pub request: Option<ApprovalRequest>,
}

/// Schedules what `ask` asks, for `at`, on behalf of `operator`.
#[tracing::instrument(skip_all, fields(repo = %id, target = %ask.target, environment = %ask.environment, %operator, %at))]
pub async fn schedule(
    state: &AppState,
    id: &RepoId,
    ask: DeployAsk<'_>,
    at: DateTime<Utc>,
    operator: &Operator,
) -> Result<Made, NotScheduled> {
    let store = store(state)?;
    let now = state.clock.now().await;
    check_at(at, now)?;
    let refused =
        |refusal: Refusal| NotScheduled::Deploy(Box::new(DeployOutcome::Refused(refusal)));
    let request = ask.request().map_err(refused)?;
    if request.intent.kind() == DeployKind::Rollback {
        return Err(ScheduleRefusal::Rollback.into());
    }
    let environment = &request.environment;
    state
        .policy
        .gate(environment, operator, at, request.overriding())
        .map_err(|refusal| refused(refusal.into_refusal(environment)))?;
    let checked = checked_for(state, id, &request, operator, at)
        .await
        .map_err(|stop| NotScheduled::Deploy(Box::new(stop.into())))?;
    let plan = checked.plan;
    let id = ScheduleId::parse(&uuid::Uuid::new_v4().to_string()).expect("a uuid is an id");
    let asked = match state.policy.approvals_needed(environment) {
        0 => None,
        _ => {
            let schedule = ScheduledFor {
                schedule_id: id.clone(),
                at,
            };
            let asked = ask_scheduled(state, &plan, &request, operator, schedule)
                .await
                .map_err(NotScheduled::RequestNotKept)?;
            Some(asked)
        }
    };
    let schedule = Schedule {
        id,
        repository_uuid: plan.repo.id.to_string(),
        repository_name: plan.repo.display_name().to_owned(),
        environment: plan.environment.clone(),
        target_version: plan.target_number().get(),
        expected: plan.current.map(|n| n.get()),
        kind: request.intent.kind(),
        reason: request.intent.reason().map(str::to_owned),
        override_freeze: request.override_freeze,
        author: operator.name().clone(),
        author_key: operator.person().clone(),
        author_groups: operator.groups(),
        author_kind: Some(crate::domain::policy::ActorKind::of(operator)),
        at,
        created: now,
        request_id: asked.as_ref().map(|r| r.id.clone()),
        revision: 0,
        state: ScheduleState::Waiting,
    };
    store
        .create(&schedule)
        .await
        .map_err(|e| NotScheduled::NotKept(e.into()))?;
    tracing::info!(schedule = %schedule.id, "deploy scheduled");
    Ok(Made {
        schedule,
        request: asked,
    })
}
