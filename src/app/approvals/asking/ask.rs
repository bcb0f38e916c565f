//! A deploy that needs approvals becomes a request: recorded after every check of a deploy
//! passed, against what the environment serves now (see `app::approvals::requests`
//! for what follows). Asking again what an open request already asks (same repository,
//! environment, target version and requester) answers that request: no second request, no
//! second event.

use std::sync::Arc;

use crate::domain::approval::{ApprovalRequest, RequestEvent, ScheduledFor};
use crate::domain::deploy::{DeployPlan, DeployRequest};
use crate::domain::event::EventData;
use crate::domain::identity::Operator;
use crate::domain::ids::RequestId;
use crate::ports::{RequestStore, RequestStoreError};

use crate::app::approvals::asking::one_open::SameAsk;
use crate::app::approvals::asking::report::report;
use crate::app::events;
use crate::app::state::AppState;

/// Records the request for `plan` (every check of the deploy passed), made by `operator`,
/// or answers the open request that already asks the same.
pub(crate) async fn ask(
    state: &AppState,
    plan: &DeployPlan,
    request: &DeployRequest,
    operator: &Operator,
) -> Result<Box<ApprovalRequest>, RequestStoreError> {
    let store = request_store(state)?;
    let now = state.clock.now().await;
    let unnamed = RequestId::parse("unnamed").expect("a word is an id");
    let asked = request_of(
        plan,
        request,
        operator,
        unnamed,
        now,
        now + state.request_ttl,
    );
    let same = SameAsk::of(
        &asked.repository_uuid,
        &asked.environment,
        asked.target_version,
        operator,
    );
    match keep(state, store.as_ref(), asked, &same).await? {
        Kept::Made(request) => Ok(request),
        Kept::Open(open) => {
            tracing::info!(request_id = %open.id, "deploy asked again: the open request answers it");
            Ok(open)
        }
    }
}

/// A request kept: made now, or the open one that already asked the same.
pub(crate) enum Kept {
    Made(Box<ApprovalRequest>),
    Open(Box<ApprovalRequest>),
}

/// Records `asked` (its id is set here) as the next request of `same`, or answers the one
/// of them that is open. The requests of one ask are looked at in turn: the first that is
/// open is answered; past the last one, a new request is made (of two replicas making it at
/// once, one does).
pub(crate) async fn keep(
    state: &AppState,
    store: &dyn RequestStore,
    mut asked: ApprovalRequest,
    same: &SameAsk,
) -> Result<Kept, RequestStoreError> {
    let mut n: u64 = 0;
    loop {
        asked.id = same.id(n);
        match seen(state, store, &asked).await? {
            Seen::Open(open) => return Ok(Kept::Open(open)),
            Seen::Closed => n += 1,
            // Acted on meanwhile: looked at again.
            Seen::Changed => {}
            Seen::Missing => match store.create(&asked).await {
                Ok(()) => {
                    tracing::info!(request_id = %asked.id, "deploy requested: it needs approvals");
                    events::emit(state, EventData::request_created(&asked)).await;
                    return Ok(Kept::Made(Box::new(asked)));
                }
                // Made meanwhile (another replica, another tab): looked at again.
                Err(RequestStoreError::Conflict) => {}
                Err(error) => return Err(error),
            },
        }
    }
}

/// A request of the ask, as found.
enum Seen {
    Missing,
    /// Pending, asked against what the environment serves now.
    Open(Box<ApprovalRequest>),
    Closed,
    /// Someone acted on it while it was marked stale.
    Changed,
}

/// The request named as `asked` is, if it exists. One still open but asked against what the
/// environment no longer serves is stale: marked so (its last event sent), then closed.
async fn seen(
    state: &AppState,
    store: &dyn RequestStore,
    asked: &ApprovalRequest,
) -> Result<Seen, RequestStoreError> {
    let Some(mut log) = store.get(&asked.id).await? else {
        return Ok(Seen::Missing);
    };
    let now = state.clock.now().await;
    let needed = state.policy.approvals_needed(&log.request.environment);
    if !log.state(now, needed).is_open() {
        return Ok(Seen::Closed);
    }
    if asked_against(&log.request) == asked_against(asked) {
        return Ok(Seen::Open(Box::new(log.request)));
    }
    let stale = RequestEvent::Stale {
        now_serving: asked
            .asked_against
            .map_or_else(|| "nothing".to_owned(), |v| format!("v{v}")),
        at: now,
    };
    match store.append(&asked.id, log.events.len(), &stale).await {
        Ok(()) => {
            log.events.push(stale);
            report(state, &log, needed).await;
            Ok(Seen::Closed)
        }
        Err(RequestStoreError::Conflict) => Ok(Seen::Changed),
        Err(error) => Err(error),
    }
}

/// What the environment served when a request was made: the repository's version, and for a
/// release every member's.
fn asked_against(request: &ApprovalRequest) -> (Option<u64>, Option<Vec<Option<u64>>>) {
    let members = request
        .release
        .as_ref()
        .map(|r| r.members.iter().map(|m| m.previous_version).collect());
    (request.asked_against, members)
}

/// Records the request a schedule carries (every check of the deploy passed, judged at the
/// schedule's time): a new request, which expires an hour after that time; its completing
/// approval runs nothing (the request turns `scheduled`), the schedule runs it then.
pub(crate) async fn ask_scheduled(
    state: &AppState,
    plan: &DeployPlan,
    request: &DeployRequest,
    operator: &Operator,
    schedule: ScheduledFor,
) -> Result<ApprovalRequest, RequestStoreError> {
    let store = request_store(state)?;
    let now = state.clock.now().await;
    let id = RequestId::parse(&uuid::Uuid::new_v4().to_string()).expect("a uuid is an id");
    let expires = schedule.at + SCHEDULED_GRACE;
    let asked = ApprovalRequest {
        schedule: Some(schedule),
        ..request_of(plan, request, operator, id, now, expires)
    };
    store.create(&asked).await?;
    tracing::info!(request_id = %asked.id, "scheduled deploy requested: it needs approvals");
    events::emit(state, EventData::request_created(&asked)).await;
    Ok(asked)
}

/// Where requests are kept, or why none can be.
pub(crate) fn request_store(state: &AppState) -> Result<&Arc<dyn RequestStore>, RequestStoreError> {
    state
        .requests
        .as_ref()
        .ok_or_else(|| RequestStoreError::Unavailable {
            target: "none".into(),
            reason: "this console keeps no requests (no request store is configured)".into(),
        })
}

/// The request of `operator` for the deploy `request` planned as `plan`, made at `created`.
fn request_of(
    plan: &DeployPlan,
    request: &DeployRequest,
    operator: &Operator,
    id: RequestId,
    created: chrono::DateTime<chrono::Utc>,
    expires: chrono::DateTime<chrono::Utc>,
) -> ApprovalRequest {
    ApprovalRequest {
        id,
        repository_uuid: plan.repo.id.to_string(),
        repository_name: plan.repo.display_name().to_owned(),
        environment: plan.environment.clone(),
        target_version: plan.target_number().get(),
        asked_against: plan.current.map(|n| n.get()),
        requester: operator.name().clone(),
        requester_key: Some(operator.person().clone()),
        requester_groups: operator.groups(),
        requester_kind: Some(crate::domain::policy::ActorKind::of(operator)),
        kind: request.intent.kind(),
        reason: request.intent.reason().map(str::to_owned),
        override_freeze: request.override_freeze,
        release: None,
        created,
        expires,
        schedule: None,
    }
}

/// How long after its schedule's time a scheduled request expires.
pub const SCHEDULED_GRACE: chrono::Duration = chrono::Duration::hours(1);
