//! The upstream steps of a release promotion: publish every member, then move their
//! distributions one by one; each member's requests carry its own deploy's correlation id.

use crate::domain::deploy::{ChecksOverride, DeployId, DeployPlan, SoakOverride};
use crate::domain::release::MemberOutcome;
use crate::domain::repository::PublicationHref;
use crate::ports::{correlation, RepositoryManager};

use crate::app::deploy::{ensure_unmoved, point_production, publish, StepFailure};

/// One member that moves: its plan, its deploy, and how far it got.
pub(crate) struct Moving {
    pub name: String,
    pub deploy_id: DeployId,
    pub plan: DeployPlan,
    /// The soak it goes through (an override of the environment's soak), if any.
    pub soak_override: Option<SoakOverride>,
    /// The required checks it goes without (an override), if any.
    pub checks_override: Option<ChecksOverride>,
    pub publication: Option<PublicationHref>,
    pub outcome: MemberOutcome,
    /// What went wrong for it, or what became of it when the promotion stopped.
    pub detail: Option<String>,
    /// Pulp's task of its failed step, when Pulp named one.
    pub failure: Option<StepFailure>,
}

/// Publishes every member at once, or serves again a publication of its target that Pulp
/// made with the settings the repository publishes with now; `false` when any failed (the
/// others' publications are kept on the members: publishing serves nothing by itself).
pub(crate) async fn publish_all(manager: &dyn RepositoryManager, moving: &mut [Moving]) -> bool {
    let publications = futures::future::join_all(moving.iter().map(|m| {
        correlation::scope(
            m.deploy_id.as_str().to_owned(),
            publish_or_reuse(manager, m),
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
                member.failure = Some(failure);
            }
        }
    }
    all
}

/// The member's publication, and whether it existed already. A reusable one that cannot be
/// looked for is no reason to stop: the version is published anew.
async fn publish_or_reuse(
    manager: &dyn RepositoryManager,
    member: &Moving,
) -> Result<(PublicationHref, bool), StepFailure> {
    let plan = &member.plan;
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
    publish(manager, &plan.target.href)
        .await
        .map(|p| (p, false))
}

/// Moves the member's distribution to its publication (published first), unless it moved
/// since the plan: its outcome and, on failure, the failure.
pub(crate) async fn move_one(manager: &dyn RepositoryManager, member: &mut Moving) {
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
            member.failure = Some(failure);
        }
    }
}
