//! Use cases of four-eyes approval: a deploy that needs approvals becomes a request
//! ([`ask`], from the deploy use case after every check of a deploy); approvers other than
//! the requester approve it ([`approve`]), and the approval that completes the count runs
//! the deploy, through every check of a deploy again; an approver rejects it, the requester
//! cancels it. Every change is appended compare-and-swap to the request store, so two
//! approvals at once (on two replicas) run one deploy.

use crate::domain::approval::listing::{page_of, Page, StateFilter, UnknownCursor};
use crate::domain::approval::{
    check_approval, check_cancel, check_reject, Actor, ApprovalRequest, RequestEvent, RequestLog,
    RequestRefusal, RequestState,
};
use crate::domain::deploy::{
    ApprovalTrail, Confirmation, DeployId, DeployRequest, Intent, Reason, Refusal, SeenLive,
};
use crate::domain::event::EventData;
use crate::domain::identity::{Operator, Scope};
use crate::domain::ids::RequestId;
use crate::domain::policy::Denied;
use crate::domain::release::{ReleaseAsk, ReleaseConfirmation, ReleaseRefusal};
use crate::domain::repository::RepoId;
use crate::ports::{RequestStore, RequestStoreError};

use crate::app::approvals::asking::report::report;
use crate::app::approvals::ending;
use crate::app::deploy::{deploy_approved, DeployOutcome, NotStarted};
use crate::app::events;
use crate::app::promotion::outcome::Stop;
use crate::app::promotion::turn::checked_for;
use crate::app::releases::promote::promote_approved;
use crate::app::releases::ReleaseOutcome;
use crate::app::state::AppState;

/// How many times an action is decided again when someone else acted on the request first.
const ATTEMPTS: usize = 4;

/// A request and its state now.
#[derive(Debug, Clone)]
pub struct RequestView {
    pub log: RequestLog,
    pub state: RequestState,
    /// Approvals the environment's policy needs now.
    pub needed: u32,
}

impl RequestView {
    pub fn request(&self) -> &ApprovalRequest {
        &self.log.request
    }
}

/// What an action on a request did.
#[derive(Debug)]
pub enum Acted {
    /// The approval was counted; `remaining` more are needed.
    Approved {
        remaining: u32,
    },
    /// The approval completed the count of a scheduled request: nothing ran, the deploy runs
    /// at the schedule's time.
    Scheduled {
        at: chrono::DateTime<chrono::Utc>,
    },
    /// The approval completed the count: the deploy ran, and ended so.
    Executed {
        deploy_id: DeployId,
        /// The environment the request was for.
        environment: crate::domain::environment::EnvironmentName,
        outcome: Box<DeployOutcome>,
    },
    /// The approval completed the count of a release's request: the promotion ran.
    ReleaseExecuted {
        environment: crate::domain::environment::EnvironmentName,
        outcome: Box<ReleaseOutcome>,
    },
    Rejected,
    Cancelled,
}

/// What a request asks: one repository's deploy, or a release's promotion.
enum Asked {
    Deploy { repo: RepoId, deploy: DeployRequest },
    Release { name: String, ask: ReleaseAsk },
}

impl Asked {
    /// The request's ask, checked against what the approver typed (`confirm`: the
    /// repository's name, or the release's).
    fn of(request: &ApprovalRequest, confirm: Confirmation) -> Result<Self, ActError> {
        let deploy = deploy_request(request, confirm.clone())?;
        let Some(release) = &request.release else {
            return Ok(Self::Deploy {
                repo: repo_of(request)?,
                deploy,
            });
        };
        let typed = match confirm {
            Confirmation::Typed(typed) => ReleaseConfirmation::Typed(typed),
            Confirmation::ExpectedCurrent => ReleaseConfirmation::ExpectedCurrent,
        };
        let ask = ReleaseAsk {
            environment: request.environment.clone(),
            versions: release
                .members
                .iter()
                .map(|m| (m.repository_name.clone(), m.target()))
                .collect(),
            expected: release
                .members
                .iter()
                .map(|m| (m.repository_name.clone(), m.previous()))
                .collect(),
            confirm: typed,
            intent: deploy.intent,
            override_freeze: deploy.override_freeze,
        };
        Ok(Self::Release {
            name: release.name.to_string(),
            ask,
        })
    }

    fn overriding(&self) -> Option<&str> {
        match self {
            Self::Deploy { deploy, .. } => deploy.overriding(),
            Self::Release { ask, .. } => ask.overriding(),
        }
    }
}

/// Why an action on a request was not taken; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum ActError {
    #[error("There is no request {0}.")]
    NotFound(RequestId),
    #[error("{0}")]
    Denied(Denied),
    #[error("{0}")]
    Refused(RequestRefusal),
    /// The environment moved since the request was made: now marked stale.
    #[error("This request is stale: {environment} served {asked} when it was made and serves {now} now; the deploy was asked against what it served then. Nothing was changed; ask again if the deploy is still wanted.")]
    Stale {
        environment: String,
        asked: String,
        now: String,
    },
    /// The deploy's own checks refuse it now (the text typed, a freeze, a version gone...).
    #[error("{0}")]
    Deploy(Refusal),
    /// A release's request refused now (the release's name typed wrong, a member gone...).
    #[error("{0}")]
    Release(ReleaseRefusal),
    #[error(transparent)]
    NotStarted(NotStarted),
    #[error("{0}")]
    Store(RequestStoreError),
}

/// The newest requests (of `repo`, when given), newest first, with their state now.
pub async fn list(
    state: &AppState,
    repo: Option<&RepoId>,
    limit: usize,
) -> Result<Vec<RequestView>, RequestStoreError> {
    let Some(store) = &state.requests else {
        return Ok(Vec::new());
    };
    let logs = store.recent(repo, limit).await?;
    let now = state.clock.now().await;
    Ok(logs.into_iter().map(|log| view(state, log, now)).collect())
}

/// Why a page of requests cannot be listed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ListError {
    #[error(transparent)]
    Store(#[from] RequestStoreError),
    #[error(transparent)]
    Cursor(#[from] UnknownCursor),
}

/// A page of requests (of `repo` only, when given) in the state `filter` keeps, newest
/// first, after the request `after`: every request can be reached, page by page.
pub async fn page(
    state: &AppState,
    repo: Option<&RepoId>,
    filter: StateFilter,
    after: Option<&RequestId>,
    size: usize,
) -> Result<Page<RequestView>, ListError> {
    let views = list(state, repo, usize::MAX).await?;
    Ok(page_of(
        views,
        |view| &view.log.request.id,
        |view| filter.keeps(&view.state),
        after,
        size,
    )?)
}

/// One request with its state now.
pub async fn get(state: &AppState, id: &RequestId) -> Result<RequestView, ActError> {
    let store = store(state)?;
    let log = store
        .get(id)
        .await
        .map_err(ActError::Store)?
        .ok_or_else(|| ActError::NotFound(id.clone()))?;
    let now = state.clock.now().await;
    Ok(view(state, log, now))
}

fn view(state: &AppState, log: RequestLog, now: chrono::DateTime<chrono::Utc>) -> RequestView {
    let needed = state.policy.approvals_needed(&log.request.environment);
    RequestView {
        state: log.state(now, needed),
        needed,
        log,
    }
}

fn store(state: &AppState) -> Result<&dyn RequestStore, ActError> {
    state.requests.as_deref().ok_or_else(|| {
        ActError::Store(RequestStoreError::Unavailable {
            target: "none".into(),
            reason: "this console keeps no requests".into(),
        })
    })
}

/// `approver` approves request `id`, having typed `confirm` (the repository's name, as for
/// a deploy). The environment must still serve what the request was made against (else the
/// request turns stale); the approval that completes the count runs the deploy.
#[tracing::instrument(skip_all, fields(request_id = %id, %approver))]
pub async fn approve(
    state: &AppState,
    id: &RequestId,
    approver: &Operator,
    confirm: Confirmation,
) -> Result<Acted, ActError> {
    let store = store(state)?;
    for _ in 0..ATTEMPTS {
        let current = get(state, id).await?;
        let request = &current.log.request;
        state
            .policy
            .may_approve(&request.environment, approver)
            .map_err(ActError::Denied)?;
        check_approval(&current.log, &current.state, approver).map_err(ActError::Refused)?;
        let asked = Asked::of(request, confirm.clone())?;
        match &asked {
            Asked::Deploy { repo, deploy } => {
                still_current(state, store, &current, repo, deploy).await?;
            }
            // The promotion checks every member again when it runs; the typed name now.
            Asked::Release { name, ask } => {
                if let Some(release) = state.releases.get(name) {
                    ask.check(release).map_err(ActError::Release)?;
                }
            }
        }
        let approvers = current.state.approvers().len() as u32 + 1;
        let completes = approvers >= current.needed.max(1);
        let mut requester = request.requester(state.policy.matching());
        // A requester whose authority lapsed: the completing approval is recorded and the
        // request ends refused (`authority_lapsed`), nothing run.
        let mut lapsed = None;
        if completes {
            match requester_now(state, request).await {
                Ok(now) => requester = now,
                Err(refusal) => lapsed = Some(refusal),
            }
        }
        if completes && lapsed.is_none() {
            // The deploy's policy gate, for the requester when it runs (now, or at the
            // schedule's time): refused before the approval is spent (e.g. frozen then).
            let when = match &request.schedule {
                Some(schedule) => schedule.at,
                None => state.clock.now().await,
            };
            state
                .policy
                .gate(&request.environment, &requester, when, asked.overriding())
                .map_err(|refusal| ActError::Deploy(refusal.into_refusal(&request.environment)))?;
        }
        let now = state.clock.now().await;
        let event = RequestEvent::Approved {
            actor: Actor::of(approver),
            at: now,
        };
        let seen = current.log.events.len();
        match store.append(id, seen, &event).await {
            Err(RequestStoreError::Conflict) => continue,
            Err(error) => return Err(ActError::Store(error)),
            Ok(()) => {}
        }
        if let Some(refusal) = lapsed {
            let mut log = current.log.clone();
            log.events.push(event);
            return Err(end_lapsed(state, store, log, current.needed, refusal).await);
        }
        if !completes {
            let remaining = current.needed.saturating_sub(approvers);
            tracing::info!(remaining, "approval counted");
            return Ok(Acted::Approved { remaining });
        }
        let mut approvers = current.state.approvers().to_vec();
        approvers.push(approver.name().clone());
        if let Some(schedule) = &request.schedule {
            tracing::info!(schedule = %schedule.schedule_id, "approvals complete: the deploy runs at its schedule's time");
            events::emit(state, EventData::request_scheduled(request, approvers)).await;
            return Ok(Acted::Scheduled { at: schedule.at });
        }
        events::emit(
            state,
            EventData::request_approved(request, approvers.clone()),
        )
        .await;
        let mut log = current.log.clone();
        log.events.push(event);
        let ready = Ready {
            trail: ApprovalTrail {
                request_id: id.clone(),
                requester: request.requester.clone(),
                approvers,
            },
            events: seen + 1,
            log,
            needed: current.needed,
            asked,
            requester,
        };
        return Ok(execute(state, store, ready).await);
    }
    Err(ActError::Store(RequestStoreError::Conflict))
}

/// Ends the request of `log` (its completing approval recorded) refused for `refusal`, the
/// requester's authority lapsed: `failed`, nothing run, its last event sent; answers the
/// refusal for the approver.
async fn end_lapsed(
    state: &AppState,
    store: &dyn RequestStore,
    mut log: RequestLog,
    needed: u32,
    refusal: Refusal,
) -> ActError {
    let deploy_id = DeployId::new(uuid::Uuid::new_v4().to_string());
    let at = state.clock.now().await;
    let outcome = DeployOutcome::Refused(refusal.clone());
    let end = ending::end_of(&outcome, &deploy_id, at);
    match store.append(&log.request.id, log.events.len(), &end).await {
        Ok(()) => {
            log.events.push(end);
            report(state, &log, needed).await;
        }
        Err(error) => {
            tracing::error!(%error, "a request refused for its requester's lapsed authority could not be ended: it stays approved until it expires, and never runs")
        }
    }
    ActError::Deploy(refusal)
}

/// The requester of `request` as they may act now (a token: as configured now), or the
/// refusal `authority_lapsed` when their token was removed or expired or the policy no
/// longer allows them (said in the log).
async fn requester_now(state: &AppState, request: &ApprovalRequest) -> Result<Operator, Refusal> {
    let now = state.clock.now().await;
    let person = request.requester_person();
    state
        .policy
        .author_now(
            request.recorded_requester(&person),
            &request.environment,
            &state.tokens,
            now,
        )
        .map_err(|lapsed| {
            tracing::warn!(request_id = %request.id, requester = %request.requester, %lapsed, "a request's requester may no longer deploy: approval refused (authority_lapsed)");
            Refusal::AuthorityLapsed {
                author: request.requester.to_string(),
                why: lapsed.to_string(),
            }
        })
}

/// Refuses the approval, marking the request stale, when its environment moved since it was
/// made; refuses it (nothing recorded) when the deploy's checks refuse it now.
async fn still_current(
    state: &AppState,
    store: &dyn RequestStore,
    current: &RequestView,
    repo: &RepoId,
    deploy: &DeployRequest,
) -> Result<(), ActError> {
    let requester = current.log.request.requester(state.policy.matching());
    // A scheduled request is judged as its deploy will run: at the schedule's time.
    let when = match &current.log.request.schedule {
        Some(schedule) => schedule.at,
        None => state.clock.now().await,
    };
    match checked_for(state, repo, deploy, &requester, when)
        .await
        .map(|c| c.plan)
    {
        Ok(_) => Ok(()),
        Err(Stop::Refused(Refusal::ProductionMoved {
            environment,
            seen,
            now,
        })) => {
            let at = state.clock.now().await;
            let event = RequestEvent::Stale {
                now_serving: now.clone(),
                at,
            };
            match store
                .append(&current.log.request.id, current.log.events.len(), &event)
                .await
            {
                Ok(()) => {
                    let mut log = current.log.clone();
                    log.events.push(event);
                    report(state, &log, current.needed).await;
                }
                Err(error) => tracing::warn!(%error, "the request could not be marked stale"),
            }
            Err(ActError::Stale {
                environment: environment.to_string(),
                asked: seen,
                now,
            })
        }
        Err(Stop::Refused(refusal)) => Err(ActError::Deploy(refusal)),
        Err(Stop::NotStarted(why)) => Err(ActError::NotStarted(why)),
    }
}

/// A request whose approvals are complete: the deploy it runs, on behalf of whom, and the
/// number of events it holds (with the completing approval).
struct Ready {
    trail: ApprovalTrail,
    events: usize,
    /// The request with the completing approval, and the approvals it needs.
    log: RequestLog,
    needed: u32,
    asked: Asked,
    requester: Operator,
}

/// Runs the deploy of a request whose approvals are complete, and records how it ended.
async fn execute(state: &AppState, store: &dyn RequestStore, ready: Ready) -> Acted {
    let request_id = ready.trail.request_id.clone();
    let environment = ready.log.request.environment.clone();
    let (end, acted) = match &ready.asked {
        Asked::Deploy { repo, deploy } => {
            let deploy_id = DeployId::new(uuid::Uuid::new_v4().to_string());
            let outcome = deploy_approved(
                state,
                repo,
                deploy,
                &ready.requester,
                deploy_id.clone(),
                ready.trail.clone(),
            )
            .await;
            let at = state.clock.now().await;
            let end = ending::end_of(&outcome, &deploy_id, at);
            let acted = Acted::Executed {
                deploy_id,
                environment,
                outcome: Box::new(outcome),
            };
            (end, acted)
        }
        Asked::Release { name, ask } => {
            let outcome =
                promote_approved(state, name, ask, &ready.requester, ready.trail.clone()).await;
            let at = state.clock.now().await;
            let end = ending::end_of_release(&outcome, at);
            let acted = Acted::ReleaseExecuted {
                environment,
                outcome: Box::new(outcome),
            };
            (end, acted)
        }
    };
    match store.append(&request_id, ready.events, &end).await {
        Ok(()) => {
            let mut log = ready.log;
            log.events.push(end);
            report(state, &log, ready.needed).await;
        }
        Err(error) => {
            tracing::error!(%error, "the outcome of the request's deploy was not recorded on it (the audit log has it)")
        }
    }
    acted
}

/// The approval trail of scheduled request `id` when it is approved now (`scheduled`), or why
/// its schedule may not run (pending, rejected, expired...), in words.
pub(crate) async fn approved_for_schedule(
    state: &AppState,
    id: &RequestId,
) -> Result<ApprovalTrail, String> {
    let view = get(state, id).await.map_err(|e| e.to_string())?;
    match &view.state {
        RequestState::Scheduled { approvers } => Ok(ApprovalTrail {
            request_id: id.clone(),
            requester: view.log.request.requester.clone(),
            approvers: approvers.clone(),
        }),
        other => Err(format!(
            "its approval request {id} is {}: a schedule that needs approvals runs only once \
             approved",
            other.word()
        )),
    }
}

/// Withdraws scheduled request `id` with its schedule, cancelled by `operator` (its author,
/// or a deployer of the environment: the schedule's rule, checked by the caller), while it
/// still waits for approvals; an approved one is left to expire an hour after the schedule's
/// time (its schedule never runs it). Nothing else is refused for it.
pub(crate) async fn withdrawn_with_schedule(state: &AppState, id: &RequestId, operator: &Operator) {
    let Ok(store) = store(state) else { return };
    for _ in 0..ATTEMPTS {
        let Ok(current) = get(state, id).await else {
            return;
        };
        if !current.state.is_open() {
            return;
        }
        let at = state.clock.now().await;
        let event = RequestEvent::Cancelled {
            actor: Actor::of(operator),
            at,
        };
        match store.append(id, current.log.events.len(), &event).await {
            Ok(()) => return,
            Err(RequestStoreError::Conflict) => continue,
            Err(error) => {
                tracing::warn!(%error, "the request of a cancelled schedule was not withdrawn: it expires");
                return;
            }
        }
    }
}

/// Records on scheduled request `id` how the deploy its schedule ran (`deploy_id`) ended,
/// then sends its last event.
pub(crate) async fn scheduled_ran(
    state: &AppState,
    id: &RequestId,
    outcome: &DeployOutcome,
    deploy_id: &DeployId,
) {
    let Ok(store) = store(state) else { return };
    for _ in 0..ATTEMPTS {
        let current = match get(state, id).await {
            Ok(current) => current,
            Err(error) => {
                tracing::error!(%error, "the outcome of the scheduled deploy was not recorded on its request (the audit log has it)");
                return;
            }
        };
        let at = state.clock.now().await;
        let end = ending::end_of(outcome, deploy_id, at);
        match store.append(id, current.log.events.len(), &end).await {
            Ok(()) => {
                let mut log = current.log;
                log.events.push(end);
                report(state, &log, current.needed).await;
                return;
            }
            Err(RequestStoreError::Conflict) => continue,
            Err(error) => {
                tracing::error!(%error, "the outcome of the scheduled deploy was not recorded on its request (the audit log has it)");
                return;
            }
        }
    }
}

/// `approver` (listed among the environment's approvers, not the requester) rejects it.
pub async fn reject(
    state: &AppState,
    id: &RequestId,
    approver: &Operator,
) -> Result<Acted, ActError> {
    let rejected = |actor, at| RequestEvent::Rejected { actor, at };
    close(state, id, approver, rejected, |current, operator| {
        state
            .policy
            .may_approve(&current.log.request.environment, operator)
            .map_err(ActError::Denied)?;
        check_reject(&current.log, &current.state, operator).map_err(ActError::Refused)
    })
    .await?;
    Ok(Acted::Rejected)
}

/// The requester withdraws it.
pub async fn cancel(
    state: &AppState,
    id: &RequestId,
    requester: &Operator,
) -> Result<Acted, ActError> {
    let cancelled = |actor, at| RequestEvent::Cancelled { actor, at };
    close(state, id, requester, cancelled, |current, operator| {
        // Withdrawing a deploy is a deploy's write: a token needs the deploy scope.
        operator
            .holds(&Scope::deploy_to(&current.log.request.environment))
            .map_err(|missing| ActError::Denied(Denied::OutOfScope(missing)))?;
        check_cancel(&current.log, &current.state, operator).map_err(ActError::Refused)
    })
    .await?;
    Ok(Acted::Cancelled)
}

/// Appends the rejection or cancellation (`event`, by whom and when) that `allowed` lets
/// `operator` make.
async fn close(
    state: &AppState,
    id: &RequestId,
    operator: &Operator,
    event: impl Fn(Actor, chrono::DateTime<chrono::Utc>) -> RequestEvent,
    allowed: impl Fn(&RequestView, &Operator) -> Result<(), ActError>,
) -> Result<(), ActError> {
    let store = store(state)?;
    for _ in 0..ATTEMPTS {
        let current = get(state, id).await?;
        allowed(&current, operator)?;
        let at = state.clock.now().await;
        let event = event(Actor::of(operator), at);
        match store.append(id, current.log.events.len(), &event).await {
            Err(RequestStoreError::Conflict) => continue,
            Err(error) => return Err(ActError::Store(error)),
            Ok(()) => return Ok(()),
        }
    }
    Err(ActError::Store(RequestStoreError::Conflict))
}

/// The deploy a request asks for, checked against what the environment served when it was
/// made (`confirm`: what the approver typed).
fn deploy_request(
    request: &ApprovalRequest,
    confirm: Confirmation,
) -> Result<DeployRequest, ActError> {
    let reason = request
        .reason
        .as_deref()
        .map(Reason::parse)
        .transpose()
        .map_err(ActError::Deploy)?;
    let intent = match (request.kind, reason) {
        (crate::domain::deploy::DeployKind::Rollback, Some(reason)) => Intent::Rollback(reason),
        (crate::domain::deploy::DeployKind::Rollback, None) => {
            return Err(ActError::Deploy(Refusal::ReasonMissing))
        }
        (crate::domain::deploy::DeployKind::Deploy, reason) => Intent::Deploy(reason),
    };
    Ok(DeployRequest {
        target: request.target(),
        environment: request.environment.clone(),
        confirm,
        seen_live: match request.asked_against() {
            Some(version) => SeenLive::Version(version),
            None => SeenLive::Nothing,
        },
        intent,
        override_freeze: request.override_freeze,
    })
}

fn repo_of(request: &ApprovalRequest) -> Result<RepoId, ActError> {
    RepoId::parse(&request.repository_uuid).map_err(|_| {
        ActError::Deploy(Refusal::NotAllowed(format!(
            "the request names no valid repository ({})",
            request.repository_uuid
        )))
    })
}
