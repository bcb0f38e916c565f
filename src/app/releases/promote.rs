//! Use case: promote a release's set to one environment, all members or none.
//!
//! Every precondition is checked for every member before anything moves (the policy once
//! for the environment; per member: verification, the path's order, the version it is
//! expected to serve now, compared and swapped). Where the environment needs approvals the
//! promotion becomes one request for the whole release. Then every member is published, and
//! the distributions are moved one by one in the release's order; when one move fails, those
//! already moved are put back, and the record says per member what is true. Each member holds
//! its own deploy lock (in this process, and across replicas), taken in the release's order,
//! so that neither another promotion of the release nor a single deploy of a member
//! interleaves.

use std::time::{Duration, Instant};

use tracing::Instrument;

use crate::domain::deploy::progress::{DeployPhase, UnderWay};
use crate::domain::{
    ApprovalTrail, AuditOutcome, Authority, DeployId, DeployRecord, EventData, Intent, MemberLine,
    MemberOutcome, Operator, ProductionChanged, Refusal, Release, ReleaseAsk, ReleaseId,
    ReleaseLine, ReleaseRecord, ReleaseRef, ReleaseRefusal, ServedSet, VersionNumber,
};
use crate::ports::{AuditError, DeployAsked, DeployEnd};

use super::members::{members_of, Member};
use super::outcome::{ReleaseEnded, ReleaseOutcome};
use super::restore::restore;
use super::steps::{move_one, publish_all, Moving};
use crate::app::deploy::member_gates::{self, Gated};
use crate::app::deploy::{measure, policy_gate, replica_turn, DeployOutcome, NotStarted};
use crate::app::events;
use crate::app::facts::ReadError;
use crate::app::state::AppState;

/// From the first failed move to the answer: the restores of the members already moved end
/// within this (an answer comes within 30 s of a failure, restores included).
const RESTORE_BUDGET: Duration = Duration::from_secs(25);

/// Promotes what `ask` asks of release `name`, on behalf of `operator`.
pub async fn promote(
    state: &AppState,
    name: &str,
    ask: &ReleaseAsk,
    operator: &Operator,
) -> ReleaseOutcome {
    promote_as(state, name, ask, operator, None).await
}

/// The promotion of an approval request whose approvals are complete (`trail`), on behalf
/// of the requester, every check made again.
pub(crate) async fn promote_approved(
    state: &AppState,
    name: &str,
    ask: &ReleaseAsk,
    requester: &Operator,
    trail: ApprovalTrail,
) -> ReleaseOutcome {
    promote_as(state, name, ask, requester, Some(trail)).await
}

/// Runs the promotion in a task of the application's: once asked, it goes on to its end
/// whatever becomes of the request that asked for it.
#[tracing::instrument(skip_all, fields(release = name, environment = %ask.environment, %operator))]
async fn promote_as(
    state: &AppState,
    name: &str,
    ask: &ReleaseAsk,
    operator: &Operator,
    trail: Option<ApprovalTrail>,
) -> ReleaseOutcome {
    let work = {
        let (state, name) = (state.clone(), name.to_owned());
        let (ask, operator) = (ask.clone(), operator.clone());
        async move {
            let began = Instant::now();
            let outcome = promote_gated(&state, &name, &ask, &operator, trail).await;
            count(&state, &name, &ask.environment, &outcome, began);
            outcome
        }
        .instrument(tracing::Span::current())
    };
    state.running.run(work).await
}

/// Counts each member of the promotion as one deploy (asked `release`): those that moved or
/// tried to, by how each ended; when nothing was tried, each member of the release by how the
/// promotion ended. Members that already served their target are not counted.
fn count(
    state: &AppState,
    name: &str,
    environment: &crate::domain::EnvironmentName,
    outcome: &ReleaseOutcome,
    began: Instant,
) {
    let each_member = |end| {
        let members = state.releases.get(name).map_or(1, |r| r.members().len());
        for _ in 0..members {
            measure::ended(state, end, DeployAsked::Release, environment, None);
        }
    };
    match outcome {
        ReleaseOutcome::Refused(_) => each_member(DeployEnd::Refused),
        ReleaseOutcome::NotStarted(_) => each_member(DeployEnd::NotStarted),
        ReleaseOutcome::Requested(_) => each_member(DeployEnd::Requested),
        ReleaseOutcome::Ended(ended) => {
            let record = &ended.record;
            for member in record.members.iter().filter(|m| m.deploy_id.is_some()) {
                let end = if member.outcome == MemberOutcome::Moved && record.error.is_none() {
                    DeployEnd::Deployed
                } else {
                    DeployEnd::Failed
                };
                measure::ended(state, end, DeployAsked::Release, environment, Some(began));
            }
        }
    }
}

async fn promote_gated(
    state: &AppState,
    name: &str,
    ask: &ReleaseAsk,
    operator: &Operator,
    trail: Option<ApprovalTrail>,
) -> ReleaseOutcome {
    let Some(release) = state.releases.get(name) else {
        return ReleaseRefusal::UnknownRelease(name.to_owned()).into();
    };
    if let Err(refusal) = ask.check(release) {
        return refusal.into();
    }
    let environment = &ask.environment;
    let mut authority =
        match policy_gate::pass(state, environment, operator, ask.overriding()).await {
            Ok(authority) => authority,
            Err(refusal) => return ReleaseRefusal::Gate(refusal).into(),
        };
    let members = match members_of(state.manager.as_ref(), release).await {
        Ok(members) => members,
        Err(error) => return ReleaseOutcome::NotStarted(NotStarted::Unreadable(error.into())),
    };
    if let Some(missing) = members.missing.first() {
        return ReleaseRefusal::UnknownMember {
            release: release.name.clone(),
            repository: missing.clone(),
        }
        .into();
    }
    let mut turns = Vec::with_capacity(members.found.len());
    for member in &members.found {
        turns.push(
            state
                .deploy_locks
                .acquire(&member.repo.id, environment)
                .await,
        );
    }
    let planned = match plan_members(state, ask, &members.found, operator).await {
        Ok(planned) => planned,
        Err(outcome) => return outcome,
    };
    if planned.moving.is_empty() {
        return ReleaseRefusal::NothingToPromote {
            release: release.name.clone(),
            environment: environment.clone(),
        }
        .into();
    }
    if trail.is_none() && state.policy.approvals_needed(environment) > 0 {
        return crate::app::approvals::release_ask::ask(
            state,
            release,
            ask,
            &planned.lines(),
            operator,
        )
        .await;
    }
    authority.request = trail;
    let mut replica_turns = Vec::new();
    let mut moving = Vec::with_capacity(planned.moving.len());
    for (member, request, plan) in planned.moving {
        let (plan, checks_override) = plan;
        match replica_turn(state, &member.repo.id, &request, operator, plan).await {
            Ok((turn, checked)) => {
                replica_turns.push(turn);
                moving.push(Moving {
                    name: member.name.clone(),
                    deploy_id: DeployId::new(uuid::Uuid::new_v4().to_string()),
                    soak_override: checked.soak_override,
                    checks_override,
                    plan: checked.plan,
                    publication: None,
                    outcome: MemberOutcome::Unchanged,
                    detail: None,
                    failure: None,
                });
            }
            Err(outcome) => return member_outcome(&member.name, outcome),
        }
    }
    let run = Run {
        release_ref: ReleaseRef {
            name: release.name.clone(),
            id: ReleaseId::new(uuid::Uuid::new_v4().to_string()),
        },
        operator,
        intent: &ask.intent,
        authority: &authority,
    };
    if let Err(error) = started(state, &run, &moving).await {
        tracing::error!(%error, "release not promoted: the audit log cannot be written");
        return ReleaseOutcome::NotStarted(NotStarted::AuditUnavailable(error));
    }
    let error = run_steps(state, &mut moving).await;
    let ended = finish(state, &run, release, moving, planned.staying, error).await;
    drop(replica_turns);
    drop(turns);
    ReleaseOutcome::Ended(Box::new(ended))
}

/// Each member's plan, checked as a single deploy's would be: the members that move, and
/// those that already serve their target (nothing to do for them).
struct Planned<'a> {
    moving: Vec<(&'a Member, crate::domain::DeployRequest, Gated)>,
    staying: Vec<MemberLine>,
}

impl Planned<'_> {
    /// Every member as the request for approvals records it: from, to.
    fn lines(&self) -> Vec<MemberLine> {
        let moving = self
            .moving
            .iter()
            .map(|(member, _, (checked, _))| (member, &checked.plan));
        let moving = moving.map(|(member, plan)| MemberLine {
            repository_name: member.name.clone(),
            repository_uuid: member.repo.id.to_string(),
            deploy_id: None,
            previous_version: plan.current.map(VersionNumber::get),
            target_version: plan.target_number().get(),
            outcome: MemberOutcome::Unchanged,
            detail: None,
        });
        moving.chain(self.staying.iter().cloned()).collect()
    }
}

async fn plan_members<'a>(
    state: &AppState,
    ask: &ReleaseAsk,
    members: &'a [Member],
    operator: &Operator,
) -> Result<Planned<'a>, ReleaseOutcome> {
    let plans = futures::future::join_all(members.iter().map(|member| async move {
        let request = ask
            .member_request(&member.name)
            .expect("the ask names every member (checked)");
        // The gates of a single deploy's member, the same function.
        let plan = member_gates::pass(state, &member.repo.id, &request, operator).await;
        (member, request, plan)
    }))
    .await;
    let mut planned = Planned {
        moving: Vec::new(),
        staying: Vec::new(),
    };
    for (member, request, plan) in plans {
        match plan {
            Ok(plan) => planned.moving.push((member, request, plan)),
            Err(DeployOutcome::Refused(Refusal::AlreadyDeployed { version, .. }))
                if ask.expected.get(&member.name) == Some(&Some(VersionNumber::new(version))) =>
            {
                planned.staying.push(MemberLine {
                    repository_name: member.name.clone(),
                    repository_uuid: member.repo.id.to_string(),
                    deploy_id: None,
                    previous_version: Some(version),
                    target_version: version,
                    outcome: MemberOutcome::Unchanged,
                    detail: Some(format!("already served v{version}: nothing to do")),
                });
            }
            Err(DeployOutcome::Refused(Refusal::AlreadyDeployed {
                version,
                environment,
            })) => {
                let seen = ask.expected.get(&member.name).copied().flatten();
                let refusal = Refusal::ProductionMoved {
                    environment,
                    seen: seen.map_or_else(|| "nothing".to_owned(), VersionNumber::label),
                    now: format!("v{version}"),
                };
                return Err(member_refused(&member.name, refusal));
            }
            Err(outcome) => return Err(member_outcome(&member.name, outcome)),
        }
    }
    Ok(planned)
}

fn member_refused(name: &str, refusal: Refusal) -> ReleaseOutcome {
    ReleaseRefusal::Member {
        repository: name.to_owned(),
        refusal,
    }
    .into()
}

/// A member's deploy that could not go ahead: the whole release does not.
fn member_outcome(name: &str, outcome: DeployOutcome) -> ReleaseOutcome {
    match outcome {
        DeployOutcome::Refused(refusal) => member_refused(name, refusal),
        DeployOutcome::NotStarted(error) => ReleaseOutcome::NotStarted(error),
        other => {
            // Planning answers only refusals and unreadable facts.
            tracing::error!(
                ?other,
                member = name,
                "unexpected answer while planning a release"
            );
            ReleaseOutcome::NotStarted(NotStarted::Unreadable(ReadError::Upstream(
                crate::ports::UpstreamError::BadResponse(format!(
                    "{name}: unexpected state while planning"
                )),
            )))
        }
    }
}

/// Who promotes, why, under what authority, as which release run.
struct Run<'a> {
    release_ref: ReleaseRef,
    operator: &'a Operator,
    intent: &'a Intent,
    authority: &'a Authority,
}

/// Every moving member's `started` line, before anything changes upstream.
async fn started(state: &AppState, run: &Run<'_>, moving: &[Moving]) -> Result<(), AuditError> {
    state.audit.check_writable().await?;
    for member in moving {
        let line = deploy_line(state, run, member, AuditOutcome::Started).await;
        state.audit.record(&line).await?;
        state.running.begin(UnderWay {
            deploy_id: member.deploy_id.clone(),
            repo: member.plan.repo.id.clone(),
            environment: member.plan.environment.clone(),
            target: member.plan.target_number(),
            operator: run.operator.clone(),
            started_at: line.timestamp,
            phase: DeployPhase::Checking,
            ended_at: None,
        });
    }
    Ok(())
}

/// Publishes every member, then moves them one by one; when one fails, puts back those
/// already moved (newest first). Answers why it stopped, if it did.
async fn run_steps(state: &AppState, moving: &mut [Moving]) -> Option<String> {
    let manager = state.manager.as_ref();
    let now = state.clock.now().await;
    for member in moving.iter() {
        state
            .running
            .reach(&member.deploy_id, DeployPhase::Publishing(None), now);
    }
    if !publish_all(manager, moving).await {
        let failed = failed_names(moving);
        for member in moving.iter_mut() {
            member.outcome = MemberOutcome::Unchanged;
            member.detail = Some(match &member.failure {
                Some(failure) => format!(
                    "not moved: publishing it failed: {}",
                    failure_words(failure)
                ),
                None => {
                    format!("not moved: publishing {failed} failed, so no distribution was touched")
                }
            });
        }
        return Some(format!(
            "publishing {failed} failed; no distribution was touched"
        ));
    }
    let mut stopped_at = None;
    for (i, member) in moving.iter_mut().enumerate() {
        let now = state.clock.now().await;
        state
            .running
            .reach(&member.deploy_id, DeployPhase::Moving, now);
        move_one(manager, member).await;
        if member.failure.is_some() {
            stopped_at = Some(i);
            break;
        }
    }
    let at = stopped_at?;
    let stopper = moving[at].name.clone();
    let why = moving[at]
        .failure
        .as_ref()
        .map(failure_words)
        .unwrap_or_default();
    moving[at].detail = Some(format!("its move failed: {why}"));
    for member in moving.iter_mut().skip(at + 1) {
        member.detail = Some(format!("not moved: the promotion stopped at {stopper}"));
    }
    let deadline = Instant::now() + RESTORE_BUDGET;
    for member in moving[..=at].iter_mut().rev() {
        if !member.outcome.needs_restore() {
            continue;
        }
        let Some(moved_to) = member.publication.clone() else {
            continue;
        };
        let budget = deadline.saturating_duration_since(Instant::now());
        let restored = crate::ports::correlation::scope(
            member.deploy_id.as_str().to_owned(),
            restore(
                manager,
                &member.plan.distribution,
                &moved_to,
                member.outcome,
                budget,
            ),
        )
        .await;
        member.outcome = restored.outcome;
        member.detail = Some(match &member.detail {
            Some(first) => format!("{first}; {}", restored.detail),
            None => restored.detail,
        });
    }
    Some(format!("moving {stopper} failed: {why}"))
}

fn failed_names(moving: &[Moving]) -> String {
    let names: Vec<&str> = moving
        .iter()
        .filter(|m| m.failure.is_some())
        .map(|m| m.name.as_str())
        .collect();
    names.join(", ")
}

fn failure_words(failure: &crate::app::deploy::StepFailure) -> String {
    match &failure.task {
        Some(task) => format!("{} (Pulp task {task})", failure.error),
        None => failure.error.to_string(),
    }
}

/// The members' outcome lines and the release's line, then its event.
async fn finish(
    state: &AppState,
    run: &Run<'_>,
    release: &Release,
    moving: Vec<Moving>,
    staying: Vec<MemberLine>,
    error: Option<String>,
) -> ReleaseEnded {
    let mut audit = Ok(());
    for member in &moving {
        let line = deploy_line(state, run, member, member_audit_outcome(member, &error)).await;
        let shown = match &line.outcome {
            AuditOutcome::Failed {
                production_changed,
                error,
            } => DeployPhase::Ended {
                production_changed: *production_changed,
                summary: error.clone(),
            },
            _ => DeployPhase::Deployed,
        };
        state
            .running
            .reach(&member.deploy_id, shown, line.timestamp);
        if let Err(e) = state.audit.record(&line).await {
            tracing::error!(error = %e, record = ?line, "audit line not written");
            audit = Err(e);
        }
        if let Some(event) = EventData::deployment(&line) {
            events::emit(state, event).await;
        }
        crate::app::evidence::attest(state, &line, &member.plan.distribution).await;
    }
    let served = ServedSet::of(moving.iter().map(|m| m.outcome));
    let mut lines: Vec<MemberLine> = moving.iter().map(member_line).collect();
    lines.extend(staying);
    let order = |line: &MemberLine| {
        release
            .members()
            .iter()
            .position(|m| *m == line.repository_name)
    };
    lines.sort_by_key(order);
    let record = ReleaseRecord {
        record: ReleaseLine::Release,
        release: run.release_ref.clone(),
        timestamp: state.clock.now().await,
        operator: run.operator.as_str().to_owned(),
        environment: moving
            .first()
            .map(|m| m.plan.environment.clone())
            .unwrap_or_else(crate::domain::EnvironmentName::production),
        kind: run.intent.kind(),
        reason: run.intent.reason().map(str::to_owned),
        request: run.authority.request.clone(),
        freeze_override: run.authority.freeze_override.clone(),
        members: lines,
        served,
        error,
    };
    if let Err(e) = state.audit.record_release(&record).await {
        tracing::error!(error = %e, "release line not written");
        audit = Err(e);
    }
    tracing::info!(served = served.as_str(), "release promotion ended");
    events::emit(state, EventData::release(&record)).await;
    ReleaseEnded { record, audit }
}

fn member_line(member: &Moving) -> MemberLine {
    MemberLine {
        repository_name: member.name.clone(),
        repository_uuid: member.plan.repo.id.to_string(),
        deploy_id: Some(member.deploy_id.clone()),
        previous_version: member.plan.current.map(VersionNumber::get),
        target_version: member.plan.target_number().get(),
        outcome: member.outcome,
        detail: member.detail.clone(),
    }
}

/// A member's outcome line: deployed when it serves its target, else failed, saying
/// whether its environment changed (a member put back serves what it did: no).
fn member_audit_outcome(member: &Moving, error: &Option<String>) -> AuditOutcome {
    let changed = match member.outcome {
        MemberOutcome::Moved if error.is_none() => return AuditOutcome::Deployed,
        MemberOutcome::Moved => ProductionChanged::Yes,
        MemberOutcome::Restored | MemberOutcome::Unchanged => ProductionChanged::No,
        MemberOutcome::Unknown => ProductionChanged::Unknown,
    };
    let detail = member.detail.clone().unwrap_or_default();
    let why = error.clone().unwrap_or_default();
    AuditOutcome::Failed {
        production_changed: changed,
        error: format!("release promotion stopped ({why}); this member: {detail}"),
    }
}

async fn deploy_line(
    state: &AppState,
    run: &Run<'_>,
    member: &Moving,
    outcome: AuditOutcome,
) -> DeployRecord {
    let mut line = DeployRecord::of_plan(
        member.deploy_id.clone(),
        &member.plan,
        run.intent,
        state.clock.now().await,
        run.operator.as_str(),
        member.publication.clone(),
        outcome,
    )
    .under(run.authority);
    line.release = Some(run.release_ref.clone());
    line.soak_override = member.soak_override.clone();
    line.checks_override = member.checks_override.clone();
    line
}
