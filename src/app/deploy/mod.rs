//! Use cases: preview a deploy, and deploy a version to production (each deploy counted by
//! how it ended, through the metrics port: [`measure`]).
//!
//! The server re-checks every precondition, whatever the page showed. Once upstream is
//! touched, the answer always says whether production changed: no, yes, or unknown.

pub mod checks_gate;
pub mod lock;
pub(crate) mod measure;
pub(crate) mod member_gates;
pub(crate) mod outcome;
pub mod policy_gate;
pub(crate) mod preview;
pub mod soak_gate;
pub(crate) mod steps;
pub(crate) mod turn;
pub mod under_way;

use std::time::Instant;

use tracing::Instrument;

use crate::domain::deploy::progress::{DeployPhase, UnderWay};
use crate::domain::{
    ApprovalTrail, AuditOutcome, Authority, Automation, DeployAsk, DeployId, DeployPlan,
    DeployRecord, DeployRequest, EventData, Intent, Operator, ProductionChanged, PublicationHref,
    Refusal, RepoId, ScheduleMark, TaskHref,
};
use crate::ports::{correlation, AuditError};

pub use crate::app::deploy::outcome::{DeployOutcome, DeployStep, NotStarted};
pub use crate::app::deploy::steps::StepError;
pub(crate) use crate::app::deploy::steps::{
    ensure_unmoved, point_production, publish, StepFailure,
};
pub(crate) use crate::app::deploy::turn::replica_turn;
use crate::app::events;

pub use crate::app::deploy::measure::unidentified;
pub use crate::app::deploy::preview::{preview, Preview, PreviewError};
use crate::app::state::AppState;

/// The deploys of `repo` (to `environment`, when given) running in this console now, or
/// ended within the last minute: what the versions page and the confirm dialog show.
pub async fn deploys_under_way(
    state: &AppState,
    repo: &RepoId,
    environment: Option<&crate::domain::EnvironmentName>,
) -> Vec<UnderWay> {
    let now = state.clock.now().await;
    state.running.of_repo(repo, environment, now)
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
        crate::ports::DeployAsked::Rollback
    } else {
        crate::ports::DeployAsked::Deploy
    };
    match ask.request() {
        Ok(request) => deploy(state, id, &request, operator).await,
        Err(refusal) => {
            let outcome = DeployOutcome::Refused(refusal);
            measure::record(state, &outcome, asked, &environment, Instant::now());
            outcome
        }
    }
}

/// Deploys `request.target` of repository `id` to the distribution of `request.environment`,
/// on behalf of `operator`, when the policy lets them now; where the environment needs
/// approvals, records a request instead ([`DeployOutcome::Requested`]), after the same
/// checks. Deploys to one environment of a repository run one at a time in this process.
/// Two audit lines share one `deploy_id`: `started` before anything changes upstream, then
/// the outcome. Every upstream request of the deploy carries the `deploy_id` as its
/// correlation id.
pub async fn deploy(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
) -> DeployOutcome {
    let deploy_id = DeployId::new(uuid::Uuid::new_v4().to_string());
    deploy_as(
        state,
        id,
        request,
        operator,
        deploy_id,
        Authority::default(),
    )
    .await
}

/// A promotion the console makes by itself (`auto_promote`), acting as `automation`'s
/// operator: every check and gate of a deploy, its audit lines marked with `automation` (the
/// check that triggered it); where the environment needs approvals, a request instead.
pub(crate) async fn deploy_automated(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
    automation: Automation,
) -> DeployOutcome {
    let deploy_id = DeployId::new(uuid::Uuid::new_v4().to_string());
    let given = Authority {
        automation: Some(automation),
        ..Authority::default()
    };
    deploy_as(state, id, request, operator, deploy_id, given).await
}

/// The deploy of an approval request whose approvals are complete (`trail`): every check
/// of a deploy, on behalf of the requester, without asking for approvals again.
pub(crate) async fn deploy_approved(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    requester: &Operator,
    deploy_id: DeployId,
    trail: ApprovalTrail,
) -> DeployOutcome {
    let given = Authority {
        request: Some(trail),
        ..Authority::default()
    };
    deploy_as(state, id, request, requester, deploy_id, given).await
}

/// The deploy of a schedule at its time: every check of a deploy, on behalf of its author
/// (`mark` names the schedule and the author on the audit lines and events), under the
/// approvals of its request (`trail`) where the environment needs them; without them it is
/// refused, not asked: a schedule runs only what was approved.
pub(crate) async fn deploy_scheduled(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    author: &Operator,
    deploy_id: DeployId,
    mark: ScheduleMark,
    trail: Option<ApprovalTrail>,
) -> DeployOutcome {
    let given = Authority {
        schedule: Some(mark),
        request: trail,
        ..Authority::default()
    };
    deploy_as(state, id, request, author, deploy_id, given).await
}

#[tracing::instrument(skip_all, fields(repo = %id, target = %request.target, environment = %request.environment, %operator, deploy_id = deploy_id.as_str(), request_id))]
async fn deploy_as(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
    deploy_id: DeployId,
    given: Authority,
) -> DeployOutcome {
    if let Some(trail) = &given.request {
        tracing::Span::current().record("request_id", trail.request_id.as_str());
    }
    state.running.begin(UnderWay {
        deploy_id: deploy_id.clone(),
        repo: id.clone(),
        environment: request.environment.clone(),
        target: request.target,
        operator: operator.clone(),
        started_at: state.clock.now().await,
        phase: DeployPhase::Checking,
        ended_at: None,
    });
    let asked = measure::asked(&given, &request.intent);
    // From here the deploy is the application's: it runs to its end in a task of its own,
    // whatever becomes of the request that asked for it (a closed tab, a client's timeout).
    let work = {
        let (state, id) = (state.clone(), id.clone());
        let (request, operator) = (request.clone(), operator.clone());
        async move {
            let began = Instant::now();
            let shown = deploy_id.clone();
            let correlation = deploy_id.as_str().to_owned();
            let outcome = correlation::scope(
                correlation,
                gated(&state, &id, &request, &operator, deploy_id, given),
            )
            .await;
            let now = state.clock.now().await;
            state.running.reach(&shown, ended_phase(&outcome), now);
            measure::record(&state, &outcome, asked, &request.environment, began);
            outcome
        }
        .instrument(tracing::Span::current())
    };
    state.running.run(work).await
}

/// The phase a deploy that ended with `outcome` is shown in.
fn ended_phase(outcome: &DeployOutcome) -> DeployPhase {
    let unchanged = |summary: String| DeployPhase::Ended {
        production_changed: ProductionChanged::No,
        summary,
    };
    match outcome {
        DeployOutcome::Deployed { .. } => DeployPhase::Deployed,
        DeployOutcome::Failed {
            error,
            production_changed,
            ..
        } => DeployPhase::Ended {
            production_changed: *production_changed,
            summary: error.to_string(),
        },
        DeployOutcome::Requested(request) => {
            unchanged(format!("approvals requested (request {})", request.id))
        }
        DeployOutcome::Refused(refusal) => unchanged(refusal.to_string()),
        DeployOutcome::NotStarted(why) => unchanged(why.to_string()),
    }
}

async fn gated(
    state: &AppState,
    id: &RepoId,
    request: &DeployRequest,
    operator: &Operator,
    deploy_id: DeployId,
    given: Authority,
) -> DeployOutcome {
    let environment = &request.environment;
    let mut authority =
        match policy_gate::pass(state, environment, operator, request.overriding()).await {
            Ok(authority) => authority,
            Err(refusal) => {
                tracing::warn!(%refusal, "deploy refused by the policy");
                return DeployOutcome::Refused(refusal);
            }
        };
    authority.automation = given.automation;
    let _turn = state.deploy_locks.acquire(id, environment).await;
    let checked = match member_gates::pass(state, id, request, operator).await {
        Ok((checked, checks_override)) => {
            authority.checks_override = checks_override;
            checked
        }
        Err(outcome) => return outcome,
    };
    if given.request.is_none() && state.policy.approvals_needed(environment) > 0 {
        if given.schedule.is_some() {
            return DeployOutcome::Refused(Refusal::ApprovalsNeeded(environment.clone()));
        }
        return crate::app::approvals::ask::ask(state, &checked.plan, request, operator).await;
    }
    authority.request = given.request;
    authority.schedule = given.schedule;
    let (_replica_turn, checked) = match replica_turn(state, id, request, operator, checked).await {
        Ok(held) => held,
        Err(outcome) => return outcome,
    };
    authority.soak_override = checked.soak_override;
    let plan = checked.plan;
    let done = Done {
        deploy_id,
        operator,
        intent: &request.intent,
        authority: &authority,
    };
    let ready = match state.audit.check_writable().await {
        Ok(()) => {
            let started = record_of(state, &done, &plan, None, AuditOutcome::Started).await;
            write(state, &started).await
        }
        Err(error) => Err(error),
    };
    if let Err(error) = ready {
        tracing::error!(%error, "deploy not started: the audit log cannot be written");
        return DeployOutcome::NotStarted(NotStarted::AuditUnavailable(error));
    }
    let result = run_steps(state, &done.deploy_id, &plan).await;
    finish(state, &done, plan, result).await
}

type StepResult = Result<PublicationHref, (DeployStep, StepFailure)>;

/// Runs the two upstream steps (inside the deploy's correlation scope, so that Pulp's
/// record of the change names this deploy), each shown as it starts (the publication with
/// the progress Pulp reports of its task).
async fn run_steps(state: &AppState, deploy_id: &DeployId, plan: &DeployPlan) -> StepResult {
    let manager = state.manager.as_ref();
    let at_step = |step| move |failure| (step, failure);
    let running = &state.running;
    running.reach(
        deploy_id,
        DeployPhase::Publishing(None),
        state.clock.now().await,
    );
    let publication =
        under_way::publishing(running, deploy_id, publish(manager, &plan.target.href))
            .await
            .map_err(at_step(DeployStep::Publish))?;
    running.reach(deploy_id, DeployPhase::Moving, state.clock.now().await);
    ensure_unmoved(manager, &plan.distribution, &publication)
        .await
        .map_err(at_step(DeployStep::PointDistribution))?;
    point_production(manager, &plan.distribution, &publication)
        .await
        .map_err(at_step(DeployStep::PointDistribution))?;
    Ok(publication)
}

/// Who deployed, why, and under what authority: what each audit line of a deploy repeats.
struct Done<'a> {
    deploy_id: DeployId,
    operator: &'a Operator,
    intent: &'a Intent,
    authority: &'a Authority,
}

async fn finish(
    state: &AppState,
    done: &Done<'_>,
    plan: DeployPlan,
    result: StepResult,
) -> DeployOutcome {
    let (publication, outcome) = match &result {
        Ok(publication) => (Some(publication.clone()), AuditOutcome::Deployed),
        Err((_, failure)) => (
            failure.publication.clone(),
            AuditOutcome::Failed {
                production_changed: failure.production_changed,
                error: match &failure.task {
                    Some(task) => format!("{} (Pulp task {task})", failure.error),
                    None => failure.error.to_string(),
                },
            },
        ),
    };
    let record = record_of(state, done, &plan, publication, outcome).await;
    let audit = write(state, &record).await;
    // After the outcome line: the fact is kept, then told (never failing or holding the deploy).
    if let Some(event) = EventData::deployment(&record) {
        events::emit(state, event).await;
    }
    crate::app::evidence::attest(state, &record, &plan.distribution).await;
    let plan = Box::new(plan);
    match result {
        Ok(publication) => DeployOutcome::Deployed {
            deploy_id: done.deploy_id.clone(),
            plan,
            publication,
            audit,
        },
        Err((step, failure)) => {
            tracing::warn!(
                ?step,
                error = %failure.error,
                production_changed = ?failure.production_changed,
                task = failure.task.as_ref().map(TaskHref::as_str),
                "deploy failed"
            );
            DeployOutcome::Failed {
                deploy_id: done.deploy_id.clone(),
                plan,
                step,
                error: failure.error,
                production_changed: failure.production_changed,
                task: failure.task,
                audit,
            }
        }
    }
}

/// One audit line of this deploy, stamped now.
async fn record_of(
    state: &AppState,
    done: &Done<'_>,
    plan: &DeployPlan,
    publication: Option<PublicationHref>,
    outcome: AuditOutcome,
) -> DeployRecord {
    let at = state.clock.now().await;
    DeployRecord::of_plan(
        done.deploy_id.clone(),
        plan,
        done.intent,
        at,
        done.operator.as_str(),
        publication,
        outcome,
    )
    .under(done.authority)
}

/// Writes `record` to the audit log; a failure is logged here and answered.
async fn write(state: &AppState, record: &DeployRecord) -> Result<(), AuditError> {
    let written = state.audit.record(record).await;
    if let Err(error) = &written {
        tracing::error!(%error, record = ?record, "audit line not written");
    }
    written
}
