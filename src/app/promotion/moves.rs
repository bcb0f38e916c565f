//! The upstream steps of a promotion: publish every member at once, then move their
//! distributions one by one in the promotion's order; when one move fails, a set puts back
//! the members already moved (newest first). Each member's requests carry its own deploy's
//! correlation id, and each member is shown as it reaches a step (the publication with the
//! progress Pulp reports of its task).

use std::time::{Duration, Instant};

use crate::domain::deploy::progress::DeployPhase;
use crate::domain::promotion::Promotion;
use crate::domain::release::MemberOutcome;
use crate::domain::repository::PublicationHref;
use crate::ports::{correlation, RepositoryManager};

use crate::app::promotion::outcome::{DeployStep, MemberRun};
use crate::app::promotion::restore::restore;
use crate::app::promotion::steps::{ensure_unmoved, point_production, publish, StepFailure};
use crate::app::promotion::under_way::{self, RunningDeploys};
use crate::app::state::AppState;

/// From the first failed move to the answer: the restores of the members already moved end
/// within this (an answer comes within 30 s of a failure, restores included).
const RESTORE_BUDGET: Duration = Duration::from_secs(25);

/// Publishes, then moves, every member of `moving`; answers why the promotion stopped, if
/// it did, in the words a set's lines use.
pub(super) async fn run(
    state: &AppState,
    promotion: &Promotion,
    moving: &mut [MemberRun],
) -> Option<String> {
    let manager = state.manager.as_ref();
    let now = state.clock.now().await;
    for member in moving.iter() {
        state
            .running_deploys()
            .reach(&member.deploy_id, DeployPhase::Publishing(None), now);
    }
    if !publish_all(state, promotion, moving).await {
        let failed = failed_names(moving);
        for member in moving.iter_mut() {
            member.outcome = MemberOutcome::Unchanged;
            member.detail = Some(match &member.failure {
                Some((_, failure)) => format!(
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
            .running_deploys()
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
        .map(|(_, failure)| failure_words(failure))
        .unwrap_or_default();
    moving[at].detail = Some(format!("its move failed: {why}"));
    for member in moving.iter_mut().skip(at + 1) {
        member.detail = Some(format!("not moved: the promotion stopped at {stopper}"));
    }
    if promotion.all_or_none() {
        put_back(manager, &mut moving[..=at]).await;
    }
    Some(format!("moving {stopper} failed: {why}"))
}

/// Puts back, newest first, the members of `moved` that moved or may have.
async fn put_back(manager: &dyn RepositoryManager, moved: &mut [MemberRun]) {
    let deadline = Instant::now() + RESTORE_BUDGET;
    for member in moved.iter_mut().rev() {
        if !member.outcome.needs_restore() {
            continue;
        }
        let Some(moved_to) = member.publication.clone() else {
            continue;
        };
        let budget = deadline.saturating_duration_since(Instant::now());
        let restored = correlation::scope(
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
}

fn failed_names(moving: &[MemberRun]) -> String {
    let names: Vec<&str> = moving
        .iter()
        .filter(|m| m.failure.is_some())
        .map(|m| m.name.as_str())
        .collect();
    names.join(", ")
}

/// A failed step in an operator's words, with Pulp's task when Pulp named one.
pub(super) fn failure_words(failure: &StepFailure) -> String {
    match &failure.task {
        Some(task) => format!("{} (Pulp task {task})", failure.error),
        None => failure.error.to_string(),
    }
}

/// Publishes every member at once (a set serves again a publication of its target that
/// Pulp made with the settings the repository publishes with now); `false` when any failed
/// (the others' publications are kept on the members: publishing serves nothing by itself).
async fn publish_all(state: &AppState, promotion: &Promotion, moving: &mut [MemberRun]) -> bool {
    let reuse = promotion.all_or_none();
    let running = state.running_deploys();
    let publications = futures::future::join_all(moving.iter().map(|m| {
        correlation::scope(
            m.deploy_id.as_str().to_owned(),
            publish_member(state.manager.as_ref(), &running, m, reuse),
        )
    }))
    .await;
    let mut all = true;
    for (member, published) in moving.iter_mut().zip(publications) {
        match published {
            Ok((publication, reused)) => {
                if reused {
                    member.detail = Some(format!("served its existing publication {publication} (made with the repository's settings now)"));
                }
                member.publication = Some(publication);
            }
            Err(failure) => {
                all = false;
                member.publication = failure.publication.clone();
                member.failure = Some((DeployStep::Publish, failure));
            }
        }
    }
    all
}

/// The member's publication, and whether it existed already. A reusable one that cannot be
/// looked for is no reason to stop: the version is published anew.
async fn publish_member(
    manager: &dyn RepositoryManager,
    running: &RunningDeploys,
    member: &MemberRun,
    reuse: bool,
) -> Result<(PublicationHref, bool), StepFailure> {
    let plan = &member.plan;
    if reuse {
        match manager
            .reusable_publications(&plan.repo.id, &plan.target.href)
            .await
        {
            Ok(found) => {
                if let Some(publication) = found.into_iter().next() {
                    return Ok((publication, true));
                }
            }
            Err(error) => {
                tracing::warn!(%error, member = %member.name, "reusable publications not read; publishing anew")
            }
        }
    }
    under_way::publishing(
        running,
        &member.deploy_id,
        publish(manager, &plan.target.href),
    )
    .await
    .map(|p| (p, false))
}

/// Moves the member's distribution to its publication (published first), unless it moved
/// since the plan: its outcome and, on failure, the failure.
async fn move_one(manager: &dyn RepositoryManager, member: &mut MemberRun) {
    let Some(publication) = member.publication.clone() else {
        return;
    };
    let distribution = &member.plan.distribution;
    let moved = correlation::scope(member.deploy_id.as_str().to_owned(), async {
        ensure_unmoved(manager, distribution, &publication).await?;
        point_production(manager, distribution, &publication).await
    })
    .await;
    match moved {
        Ok(()) => member.outcome = MemberOutcome::Moved,
        Err(failure) => {
            member.outcome = MemberOutcome::of_failed_move(failure.production_changed);
            member.failure = Some((DeployStep::PointDistribution, failure));
        }
    }
}
