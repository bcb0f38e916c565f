//! The pins' gate and their bookkeeping after the moves (`domain::pin`, the rule
//! [`Promotion::at_pin`]). Before anything changes, under the members' deploy locks: a member
//! whose environment a rollback pinned stops an automatic promotion or a schedule (refused
//! `pinned`, the move held back kept in the pin's history), and a pin that cannot be read
//! stops them as well (not started: nothing is lifted or set in silence); a person's deploy and
//! any rollback go on. After the moves, still under the locks: each member that moved by a
//! rollback is pinned to its target (`pin.set`), and each that moved by a person's deploy has
//! its pin lifted (`pin.lifted`). A pin store that fails then never fails the promotion: the
//! environment moved, which is said in the log.

use crate::domain::deploy::{AuditOutcome, DeployId};
use crate::domain::pin::{Hold, Lift, LiftedBy, Pin};
use crate::domain::promotion::{AskedBy, AtPin, Promotion};

use crate::app::pins::{holding, keep};
use crate::app::promotion::outcome::{MemberRun, NotStarted, Promoted, Ran};
use crate::app::state::AppState;

/// Lets `promotion` past every member's pin, or answers why it stops.
pub(super) async fn pass(state: &AppState, promotion: &Promotion) -> Result<(), Promoted> {
    if promotion.at_pin(true) != AtPin::Refuse {
        // A person's deploy or rollback goes on whatever pins hold (it reads them after).
        return Ok(());
    }
    for member in &promotion.members {
        let pin = match holding(state, &member.repo, &promotion.environment).await {
            Ok(None) => continue,
            Ok(Some(pin)) => pin,
            Err(error) => {
                tracing::error!(%error, member = %member.name, "promotion not started: the pins cannot be read");
                return Err(Promoted::NotStarted(NotStarted::PinsUnreadable(error)));
            }
        };
        tracing::warn!(member = %member.name, environment = %promotion.environment, pinned = pin.version.get(), target = member.target.get(), "promotion refused: a rollback pinned the environment");
        let hold = Hold {
            repository: member.repo.clone(),
            environment: promotion.environment.clone(),
            version: pin.version,
            target: member.target,
            asked_by: asker(&promotion.asked_by),
            at: state.clock.now().await,
        };
        if let Err(error) = keep::held(state, hold).await {
            tracing::warn!(%error, "a move held back by a pin is not kept in its history");
        }
        return Err(Promoted::Refused {
            member: promotion.set.as_ref().map(|_| member.name.clone()),
            refusal: pin.refusal(),
        });
    }
    Ok(())
}

/// After the moves: pins each member a rollback moved, lifts the pin of each a person's
/// deploy moved.
pub(super) async fn after(state: &AppState, promotion: &Promotion, ran: &Ran) {
    // A rollback pins whether a pin held or not (it passed the gate); a deploy lifts only
    // a pin that holds, which is read again per member.
    let at_pin = match (promotion.at_pin(false), promotion.at_pin(true)) {
        (AtPin::PinAfter, _) => AtPin::PinAfter,
        (_, AtPin::LiftAfter) => AtPin::LiftAfter,
        _ => return,
    };
    for member in ran.members.iter().filter(|m| moved(promotion, ran, m)) {
        let kept = match at_pin {
            AtPin::PinAfter => keep::set(state, pin_of(state, promotion, member).await).await,
            _ => lift_after(state, promotion, member).await,
        };
        if let Err(error) = kept {
            tracing::error!(%error, member = %member.name, environment = %promotion.environment, "the environment moved, but its pin could not be kept: set or lift it again (a rollback, or unpin)");
        }
    }
}

/// Whether `member` now serves its target by this promotion (its outcome line: deployed).
fn moved(promotion: &Promotion, ran: &Ran, member: &MemberRun) -> bool {
    super::record::outcome_of(promotion, member, &ran.error) == AuditOutcome::Deployed
}

async fn pin_of(state: &AppState, promotion: &Promotion, member: &MemberRun) -> Pin {
    Pin {
        repository: member.plan.repo.id.clone(),
        repository_name: member.plan.repo.display_name().to_owned(),
        environment: promotion.environment.clone(),
        version: member.plan.target_number(),
        set_by: promotion.operator.as_str().to_owned(),
        reason: promotion.intent.reason().unwrap_or_default().to_owned(),
        at: state.clock.now().await,
        deploy_id: member.deploy_id.clone(),
    }
}

async fn lift_after(
    state: &AppState,
    promotion: &Promotion,
    member: &MemberRun,
) -> Result<(), crate::ports::PinStoreError> {
    let Some(pin) = holding(state, &member.plan.repo.id, &promotion.environment).await? else {
        return Ok(());
    };
    let deploy_id: DeployId = member.deploy_id.clone();
    let reason = match promotion.intent.reason() {
        Some(reason) => format!(
            "deployed v{} by hand: {reason}",
            member.plan.target_number().get()
        ),
        None => format!("deployed v{} by hand", member.plan.target_number().get()),
    };
    let lift = Lift {
        repository: pin.repository,
        repository_name: pin.repository_name,
        environment: promotion.environment.clone(),
        version: pin.version,
        by: promotion.operator.as_str().to_owned(),
        reason,
        at: state.clock.now().await,
        how: LiftedBy::Deploy {
            deploy_id,
            to_version: member.plan.target_number(),
        },
    };
    keep::lift(state, lift).await
}

/// What asked for a move a pin held back, in words.
fn asker(asked_by: &AskedBy) -> String {
    match asked_by {
        AskedBy::Automation(automation) => {
            let check = &automation.triggered_by;
            format!(
                "automatic promotion: {} passed on {}",
                check.check, check.environment
            )
        }
        AskedBy::Schedule { mark, .. } => {
            format!("schedule {} of {}", mark.schedule_id, mark.author)
        }
        AskedBy::Operator => "a person".to_owned(),
        AskedBy::Approval(trail) => format!("approved request {}", trail.request_id),
    }
}
