//! The promotion pipeline: the one use case every way a version moves goes through (single
//! deploys, rollbacks, releases, scheduled runs, approved requests, automatic promotions),
//! given one [`Promotion`] value. In one written order:
//!
//! 1. the policy: who may promote to the environment, and its freeze ([`policy_gate`]);
//! 2. the members' deploy locks in this process, in a stable order ([`lock`]);
//! 3. the members' pins: an automatic promotion or a schedule stops at an environment a
//!    rollback pinned ([`pin_gate`]);
//! 4. each member's gates at once: the checks the environment requires ([`checks_gate`]),
//!    then its plan read now: verification, the path's order, the version the asker saw it
//!    serve, a rollback's target, the soak ([`turn`], [`soak_gate`]);
//! 5. the approvals: where the environment needs them, a request instead of a move;
//! 6. the turn shared with other replicas on each member's distribution, in a stable order,
//!    and its plan read again under it (compare and swap);
//! 7. every moving member's `started` line in the audit log;
//! 8. publish every member, then move their distributions one by one, putting back those
//!    already moved when one fails in a set ([`moves`], [`restore`]);
//! 9. each member's outcome line and event, a set's release line and event ([`record`]);
//!    then each member a rollback moved is pinned, and each a person's deploy moved has its
//!    pin lifted ([`pin_gate`]);
//! 10. the edges that copy the environment asked to replicate, in a task of their own that
//!     never holds the promotion ([`crate::app::edges`]);
//! 11. every member counted in `repo_console_deploys_total` ([`measure`]).
//!
//! It runs in a task the application owns ([`under_way`]): once asked, it goes on to its
//! end whatever becomes of the request that asked for it, and each member is shown as it
//! reaches a step.

pub mod checks_gate;
mod gates;
pub mod lock;
pub(crate) mod measure;
pub(crate) mod member_gates;
mod moves;
pub mod outcome;
pub(crate) mod pin_gate;
pub mod policy_gate;
mod record;
pub(crate) mod restore;
pub mod soak_gate;
pub mod steps;
pub(crate) mod turn;
pub mod under_way;

use std::time::Instant;

use tracing::Instrument;

use crate::domain::deploy::progress::{DeployPhase, UnderWay};
use crate::domain::deploy::{DeployId, ProductionChanged};
use crate::domain::ids::{ReleaseId, ReleaseRef};
use crate::domain::promotion::Promotion;

use crate::app::promotion::outcome::{NotStarted, Promoted, Ran};
use crate::app::promotion::record::Lines;
use crate::app::state::AppState;

/// Runs `promotion` to its end in a task of the application's, and answers how it ended.
#[tracing::instrument(skip_all, fields(environment = %promotion.environment, operator = %promotion.operator, members = promotion.members.len(), deploy_id, request_id))]
pub async fn promote(state: &AppState, promotion: Promotion) -> Promoted {
    let ids: Vec<DeployId> = promotion
        .members
        .iter()
        .map(|m| {
            m.deploy_id
                .clone()
                .unwrap_or_else(|| DeployId::new(uuid::Uuid::new_v4().to_string()))
        })
        .collect();
    if let [only] = ids.as_slice() {
        tracing::Span::current().record("deploy_id", only.as_str());
    }
    if let Some(trail) = promotion.approvals() {
        tracing::Span::current().record("request_id", trail.request_id.as_str());
    }
    let now = state.clock.now().await;
    for (member, id) in promotion.members.iter().zip(&ids) {
        state.running_deploys().begin(UnderWay {
            deploy_id: id.clone(),
            repo: member.repo.clone(),
            environment: promotion.environment.clone(),
            target: member.target,
            operator: promotion.operator.clone(),
            started_at: now,
            phase: DeployPhase::Checking,
            ended_at: None,
        });
    }
    // From here the promotion is the application's: it runs to its end in a task of its
    // own, whatever becomes of the request that asked for it (a closed tab, a timeout).
    let work = {
        let state = state.clone();
        async move {
            let began = Instant::now();
            let promoted = match ids.as_slice() {
                // A single deploy's every request (its reads too) names the deploy.
                [only] => {
                    let correlation = only.as_str().to_owned();
                    crate::ports::correlation::scope(correlation, run(&state, &promotion, &ids))
                        .await
                }
                _ => run(&state, &promotion, &ids).await,
            };
            let now = state.clock.now().await;
            if let Some(summary) = not_run(&promoted) {
                for id in &ids {
                    let phase = DeployPhase::Ended {
                        production_changed: ProductionChanged::No,
                        summary: summary.clone(),
                    };
                    state.running_deploys().reach(id, phase, now);
                }
            }
            measure::record(&state, &promotion, &promoted, began);
            measure::lead_times(&state, &promotion, &promoted, now);
            promoted
        }
        .instrument(tracing::Span::current())
    };
    state.running_deploys().run(work).await
}

async fn run(state: &AppState, promotion: &Promotion, ids: &[DeployId]) -> Promoted {
    let cleared = match gates::clear(state, promotion, ids).await {
        Ok(cleared) => cleared,
        Err(stopped) => return stopped,
    };
    let lines = Lines {
        promotion,
        authority: &cleared.authority,
        release: promotion.set.as_ref().map(|set| ReleaseRef {
            name: set.release.name.clone(),
            id: ReleaseId::new(uuid::Uuid::new_v4().to_string()),
        }),
    };
    let mut moving = cleared.moving;
    if let Err(error) = record::started(state, &lines, &moving).await {
        tracing::error!(%error, "promotion not started: the audit log cannot be written");
        return Promoted::NotStarted(NotStarted::AuditUnavailable(error));
    }
    let error = moves::run(state, promotion, &mut moving).await;
    let ran = record::ended(state, &lines, moving, cleared.staying, error).await;
    pin_gate::after(state, promotion, &ran).await;
    crate::app::edges::after_promotion(&state.edge_world(), &moved_plans(&ran)).await;
    Promoted::Ran(Box::new(ran))
}

/// The plans of the members that moved, or may have: what the edges follow.
fn moved_plans(ran: &Ran) -> Vec<&crate::domain::deploy::DeployPlan> {
    use crate::domain::release::MemberOutcome::{Moved, Unknown};
    let moved = ran
        .members
        .iter()
        .filter(|m| matches!(m.outcome, Moved | Unknown));
    moved.map(|m| &m.plan).collect()
}

/// What a promotion that changed nothing is shown as, in each member's row.
fn not_run(promoted: &Promoted) -> Option<String> {
    match promoted {
        Promoted::Ran(_) => None,
        Promoted::Refused { refusal, .. } => Some(refusal.to_string()),
        Promoted::NotStarted(why) => Some(why.to_string()),
        Promoted::Requested(request) => {
            Some(format!("approvals requested (request {})", request.id))
        }
        Promoted::NothingToDo => Some("nothing to do: every member serves its target".into()),
    }
}
