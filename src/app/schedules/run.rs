//! Running due schedules, exactly once across replicas: each replica looks at the open
//! schedules every few seconds (on the clock port's time); a due one is claimed by replacing
//! it, compare-and-swap, with a claim naming this replica, the claim's lapse and the deploy
//! id its run will write. The replica whose claim lands runs the deploy through the deploy use
//! case (every check again, on behalf of the author) and records how it ended; the others
//! leave it. A claim that lapses (its replica stopped mid-run) is taken over, and the truth
//! rule decides what happened, from the audit lines of the claim's deploy id: none, the run
//! never started and it runs now; an outcome line, that outcome; a `started` line alone, the
//! end is unknown (`failed`, saying what to check), never run twice.

use std::future::Future;
use std::time::Duration;

use crate::domain::schedule::rules::{claimed, due};
use chrono::{DateTime, Utc};

use crate::domain::deploy::{
    AuditOutcome, Confirmation, DeployId, DeployRecord, DeployRequest, Intent, ProductionChanged,
    Reason, Refusal, ScheduleMark, SeenLive,
};
use crate::domain::event::EventData;
use crate::domain::repository::RepoId;
use crate::domain::schedule::{Claim, Due, Schedule, ScheduleState};
use crate::ports::{ScheduleStore, ScheduleStoreError};

use crate::app::approvals::requests;
use crate::app::deploy::{deploy_scheduled, DeployOutcome};
use crate::app::events;
use crate::app::state::AppState;

/// What one look at the schedules did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Ran {
    /// Schedules this replica claimed and ran (or ended after a lapsed claim).
    pub ran: usize,
    /// Due schedules another replica claimed first.
    pub lost: usize,
}

/// Runs every schedule due now that this replica claims.
pub async fn run_due(state: &AppState) -> Result<Ran, ScheduleStoreError> {
    let Some(store) = state.schedules.as_deref() else {
        return Ok(Ran::default());
    };
    let mut ran = Ran::default();
    for schedule in store.open().await? {
        let now = state.clock.now().await;
        let Some(why) = due(&schedule, now) else {
            continue;
        };
        match take(state, store, schedule, why).await {
            Ok(()) => ran.ran += 1,
            Err(ScheduleStoreError::Conflict) => ran.lost += 1,
            Err(error) => return Err(error),
        }
    }
    Ok(ran)
}

/// Claims `schedule` (due for `why`), then runs it or, after a lapsed claim, ends it as its
/// audit lines tell.
async fn take(
    state: &AppState,
    store: &dyn ScheduleStore,
    schedule: Schedule,
    why: Due,
) -> Result<(), ScheduleStoreError> {
    let now = state.clock.now().await;
    let deploy_id = match &why {
        Due::Fresh => DeployId::new(uuid::Uuid::new_v4().to_string()),
        Due::Lapsed(claim) => claim.deploy_id.clone(),
    };
    let mine = claimed(
        schedule,
        &state.replica,
        now,
        state.claim_lapse,
        deploy_id.clone(),
    );
    store.replace(&mine).await?;
    tracing::info!(schedule = %mine.id, replica = %state.replica, lapsed = matches!(why, Due::Lapsed(_)), "schedule claimed");
    if let Due::Lapsed(claim) = &why {
        match state.audit.lines_of(&claim.deploy_id).await {
            Ok(lines) if lines.is_empty() => {}
            Ok(lines) => return end(state, store, mine, told_by(&lines, claim)).await,
            Err(error) => {
                // Unknown whether it ran: leave it claimed; the claim lapses and it is read again.
                tracing::warn!(%error, schedule = %mine.id, "a lapsed schedule's audit lines cannot be read: left for later");
                return Ok(());
            }
        }
    }
    let ending = execute(state, &mine, deploy_id).await;
    end(state, store, mine, ending).await
}

/// How a run ended, before it is stamped with the time it is recorded.
enum Ending {
    Done(DeployId),
    Failed(DeployId, String),
    Refused(String),
}

impl Ending {
    fn at(self, ended: DateTime<Utc>) -> ScheduleState {
        match self {
            Self::Done(deploy_id) => ScheduleState::Done { deploy_id, ended },
            Self::Failed(deploy_id, message) => ScheduleState::Failed {
                deploy_id,
                ended,
                message,
            },
            Self::Refused(reason) => ScheduleState::Refused { ended, reason },
        }
    }
}

/// What the audit lines of a lapsed claim's deploy tell of it.
fn told_by(lines: &[DeployRecord], claim: &Claim) -> Ending {
    let deploy_id = claim.deploy_id.clone();
    match lines.last().map(|l| &l.outcome) {
        Some(AuditOutcome::Deployed) => Ending::Done(deploy_id),
        Some(AuditOutcome::Failed {
            production_changed,
            error,
        }) => {
            let changed = changed_word(*production_changed);
            Ending::Failed(
                deploy_id,
                format!("{error} (the environment changed: {changed})"),
            )
        }
        _ => {
            let message = format!(
                "the replica {} started deploy {} and stopped before recording its end: whether \
                 the environment changed is unknown; check its distribution in Pulp and the \
                 repository's history before deploying again",
                claim.by,
                deploy_id.as_str()
            );
            Ending::Failed(deploy_id, message)
        }
    }
}

fn changed_word(changed: ProductionChanged) -> &'static str {
    match changed {
        ProductionChanged::No => "no",
        ProductionChanged::Yes => "yes",
        ProductionChanged::Unknown => "unknown",
    }
}

/// Runs the deploy of `schedule` through the deploy use case; answers how it ended.
async fn execute(state: &AppState, schedule: &Schedule, deploy_id: DeployId) -> Ending {
    let now = state.clock.now().await;
    let author = match state.policy.author_now(
        schedule.recorded_author(),
        &schedule.environment,
        &state.tokens,
        now,
    ) {
        Ok(author) => author,
        Err(lapsed) => {
            tracing::warn!(schedule = %schedule.id, author = %schedule.author, %lapsed, "a schedule's author may no longer deploy: refused (authority_lapsed)");
            let refusal = Refusal::AuthorityLapsed {
                author: schedule.author.to_string(),
                why: lapsed.to_string(),
            };
            return Ending::Refused(refusal.to_string());
        }
    };
    let mark = ScheduleMark {
        schedule_id: schedule.id.clone(),
        author: schedule.author.clone(),
    };
    let Ok(repo) = RepoId::parse(&schedule.repository_uuid) else {
        let why = format!("'{}' is not a repository id", schedule.repository_uuid);
        return Ending::Refused(why);
    };
    let reason = match schedule.reason.as_deref().map(Reason::parse).transpose() {
        Ok(reason) => reason,
        Err(refusal) => return Ending::Refused(refusal.to_string()),
    };
    let trail = match &schedule.request_id {
        None => None,
        Some(request_id) => match requests::approved_for_schedule(state, request_id).await {
            Ok(trail) => Some(trail),
            Err(why) => return Ending::Refused(why),
        },
    };
    let request = DeployRequest {
        target: schedule.target(),
        environment: schedule.environment.clone(),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: SeenLive::of(schedule.expected()),
        intent: Intent::Deploy(reason),
        override_freeze: schedule.override_freeze,
    };
    let outcome = deploy_scheduled(
        state,
        &repo,
        &request,
        &author,
        deploy_id.clone(),
        mark,
        trail,
    )
    .await;
    if let Some(request_id) = &schedule.request_id {
        requests::scheduled_ran(state, request_id, &outcome, &deploy_id).await;
    }
    match outcome {
        DeployOutcome::Deployed { .. } => Ending::Done(deploy_id),
        DeployOutcome::Refused(refusal) => Ending::Refused(refusal.to_string()),
        DeployOutcome::NotStarted(why) => {
            Ending::Failed(deploy_id, format!("{why} (not started: nothing changed)"))
        }
        DeployOutcome::Failed {
            error,
            production_changed,
            ..
        } => {
            let changed = changed_word(production_changed);
            Ending::Failed(
                deploy_id,
                format!("{error} (the environment changed: {changed})"),
            )
        }
        DeployOutcome::Requested(request) => Ending::Refused(format!(
            "the deploy asked for approval (request {})",
            request.id
        )),
    }
}

/// Records how `running` ended, stamped now, and tells it when it was refused or failed.
async fn end(
    state: &AppState,
    store: &dyn ScheduleStore,
    running: Schedule,
    ending: Ending,
) -> Result<(), ScheduleStoreError> {
    let now = state.clock.now().await;
    let ended = running.into_state(ending.at(now));
    store.replace(&ended).await?;
    tracing::info!(schedule = %ended.id, state = ended.state.word(), "schedule ended");
    if let Some(event) = EventData::schedule_ended(&ended) {
        events::emit(state, event).await;
    }
    Ok(())
}

/// Looks at the schedules at once, then every `every`, until `stop` resolves.
pub async fn work(state: AppState, every: Duration, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        match run_due(&state).await {
            Ok(ran) if ran.ran + ran.lost > 0 => {
                tracing::info!(ran = ran.ran, lost = ran.lost, "due schedules looked at")
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "schedules could not be read: tried again later"),
        }
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}
