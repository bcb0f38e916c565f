//! What a promotion keeps and tells: every moving member's `started` line before anything
//! changes upstream, then each member's outcome line, its event and its signed evidence, and
//! for a set the release's line and its event. The fact is kept, then told (an event never fails or holds
//! a promotion).

use crate::domain::deploy::progress::DeployPhase;
use crate::domain::deploy::{AuditOutcome, Authority, DeployRecord, ProductionChanged};
use crate::domain::event::EventData;
use crate::domain::ids::ReleaseRef;
use crate::domain::promotion::Promotion;
use crate::domain::release::{MemberLine, MemberOutcome, ReleaseLine, ReleaseRecord, ServedSet};
use crate::domain::repository::{TaskHref, VersionNumber};
use crate::ports::AuditError;

use crate::app::events;
use crate::app::promotion::moves::failure_words;
use crate::app::promotion::outcome::{MemberRun, Ran};
use crate::app::state::AppState;

/// Who promotes, why, under what authority, as which release run: what every line repeats.
pub(super) struct Lines<'a> {
    pub promotion: &'a Promotion,
    pub authority: &'a Authority,
    /// The release's run, for a set.
    pub release: Option<ReleaseRef>,
}

/// Every moving member's `started` line, before anything changes upstream; an audit log
/// that cannot take them stops the promotion before it starts.
pub(super) async fn started(
    state: &AppState,
    lines: &Lines<'_>,
    moving: &[MemberRun],
) -> Result<(), AuditError> {
    state.audit.check_writable().await?;
    for member in moving {
        let line = line_of(state, lines, member, AuditOutcome::Started).await;
        if let Err(error) = state.audit.record(&line).await {
            tracing::error!(%error, record = ?line, "audit line not written");
            return Err(error);
        }
    }
    Ok(())
}

/// Each member's outcome line and event (each shown ended), then, for a set, the release's
/// line and event.
pub(super) async fn ended(
    state: &AppState,
    lines: &Lines<'_>,
    moving: Vec<MemberRun>,
    staying: Vec<MemberLine>,
    error: Option<String>,
) -> Ran {
    let mut audit = Ok(());
    for member in &moving {
        if let Some((step, failure)) = &member.failure {
            tracing::warn!(
                member = %member.name,
                ?step,
                error = %failure.error,
                production_changed = ?failure.production_changed,
                task = failure.task.as_ref().map(TaskHref::as_str),
                "deploy failed"
            );
        }
        let outcome = outcome_of(lines.promotion, member, &error);
        let line = line_of(state, lines, member, outcome).await;
        state.running_deploys().reach(
            &member.deploy_id,
            shown(lines.promotion, member, &line),
            line.timestamp,
        );
        if let Err(e) = state.audit.record(&line).await {
            tracing::error!(error = %e, record = ?line, "audit line not written");
            audit = Err(e);
        }
        if let Some(event) = EventData::deployment(&line) {
            events::emit(state, event).await;
        }
        // Signed evidence of a move, when the console signs (never failing the promotion).
        let (distribution, operator) = (&member.plan.distribution, &lines.promotion.operator);
        crate::app::evidence::attest(state, &line, distribution, operator).await;
    }
    let release = match &lines.release {
        Some(release) => {
            let record = release_line(state, lines, release, &moving, staying, &error).await;
            if let Err(e) = state.audit.record_release(&record).await {
                tracing::error!(error = %e, "release line not written");
                audit = Err(e);
            }
            tracing::info!(served = record.served.as_str(), "release promotion ended");
            events::emit(state, EventData::release(&record)).await;
            Some(record)
        }
        None => None,
    };
    Ran {
        members: moving,
        error,
        release,
        audit,
    }
}

/// A member's outcome line. Deployed when it serves its target and nothing stopped the
/// promotion; otherwise failed, saying whether its environment changed: a single deploy as
/// its failed step proved it, a member of a set as it ended (put back: no).
pub(super) fn outcome_of(
    promotion: &Promotion,
    member: &MemberRun,
    error: &Option<String>,
) -> AuditOutcome {
    if !promotion.all_or_none() {
        return match &member.failure {
            None => AuditOutcome::Deployed,
            Some((_, failure)) => AuditOutcome::Failed {
                production_changed: failure.production_changed,
                error: failure_words(failure),
            },
        };
    }
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

/// The phase an ended member is shown in: its failed step's words for a single deploy, the
/// set's words for a member of one.
fn shown(promotion: &Promotion, member: &MemberRun, line: &DeployRecord) -> DeployPhase {
    match (&line.outcome, &member.failure) {
        (
            AuditOutcome::Failed {
                production_changed, ..
            },
            Some((_, failure)),
        ) if !promotion.all_or_none() => DeployPhase::Ended {
            production_changed: *production_changed,
            summary: failure.error.to_string(),
        },
        (
            AuditOutcome::Failed {
                production_changed,
                error,
            },
            _,
        ) => DeployPhase::Ended {
            production_changed: *production_changed,
            summary: error.clone(),
        },
        _ => DeployPhase::Deployed,
    }
}

async fn line_of(
    state: &AppState,
    lines: &Lines<'_>,
    member: &MemberRun,
    outcome: AuditOutcome,
) -> DeployRecord {
    let mut line = DeployRecord::of_plan(
        member.deploy_id.clone(),
        &member.plan,
        &lines.promotion.intent,
        state.clock.now().await,
        lines.promotion.operator.as_str(),
        member.publication.clone(),
        outcome,
    )
    .under(lines.authority);
    line.release = lines.release.clone();
    line.soak_override = member.soak_override.clone();
    line.checks_override = member.checks_override.clone();
    line
}

async fn release_line(
    state: &AppState,
    lines: &Lines<'_>,
    release: &ReleaseRef,
    moving: &[MemberRun],
    staying: Vec<MemberLine>,
    error: &Option<String>,
) -> ReleaseRecord {
    let promotion = lines.promotion;
    let served = ServedSet::of(moving.iter().map(|m| m.outcome));
    let mut members: Vec<MemberLine> = moving.iter().map(member_line).collect();
    members.extend(staying);
    if let Some(set) = &promotion.set {
        let order = |line: &MemberLine| {
            set.release
                .members()
                .iter()
                .position(|m| *m == line.repository_name)
        };
        members.sort_by_key(order);
    }
    ReleaseRecord {
        record: ReleaseLine::Release,
        release: release.clone(),
        timestamp: state.clock.now().await,
        operator: promotion.operator.as_str().to_owned(),
        environment: promotion.environment.clone(),
        kind: promotion.intent.kind(),
        reason: promotion.intent.reason().map(str::to_owned),
        request: lines.authority.request.clone(),
        freeze_override: lines.authority.freeze_override.clone(),
        members,
        served,
        error: error.clone(),
    }
}

fn member_line(member: &MemberRun) -> MemberLine {
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
