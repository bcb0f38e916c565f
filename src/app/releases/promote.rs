//! Use case: promote a release's set to one environment, all members or none.
//!
//! The release and the ask are checked first (the typed confirmation, every member named),
//! and its members read from Pulp by name; then the set is one [`Promotion`] run by the
//! promotion pipeline ([`crate::app::promotion`]): the policy once for the environment, each
//! member's gates, one approval request for the whole set where the environment needs
//! approvals, every member published, then moved one by one in the release's order, those
//! already moved put back when one move fails, and one record that says per member what is
//! true.

use crate::domain::deploy::{ApprovalTrail, Confirmation, SeenLive};
use crate::domain::identity::Operator;
use crate::domain::promotion::{AskedBy, Member, Promotion, ReleaseSet};
use crate::domain::release::{ReleaseAsk, ReleaseRefusal};

use super::members::members_of;
use super::outcome::{ReleaseEnded, ReleaseOutcome};
use crate::app::deploy::NotStarted;
use crate::app::promotion::outcome::Promoted;
use crate::app::promotion::promote as run;
use crate::app::state::AppState;

/// Promotes what `ask` asks of release `name`, on behalf of `operator`.
pub async fn promote(
    state: &AppState,
    name: &str,
    ask: &ReleaseAsk,
    operator: &Operator,
) -> ReleaseOutcome {
    promote_as(state, name, ask, operator, AskedBy::Operator).await
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
    promote_as(state, name, ask, requester, AskedBy::Approval(trail)).await
}

#[tracing::instrument(skip_all, fields(release = name, environment = %ask.environment, %operator))]
async fn promote_as(
    state: &AppState,
    name: &str,
    ask: &ReleaseAsk,
    operator: &Operator,
    asked_by: AskedBy,
) -> ReleaseOutcome {
    let Some(release) = state.releases.get(name) else {
        return ReleaseRefusal::UnknownRelease(name.to_owned()).into();
    };
    if let Err(refusal) = ask.check(release) {
        return refusal.into();
    }
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
    let mut promoted = Vec::with_capacity(members.found.len());
    for member in &members.found {
        let (Some(target), Some(expected)) = (
            ask.versions.get(&member.name),
            ask.expected.get(&member.name),
        ) else {
            // `check` holds every member named in both maps.
            return ReleaseRefusal::UnknownMember {
                release: release.name.clone(),
                repository: member.name.clone(),
            }
            .into();
        };
        promoted.push(Member {
            name: member.name.clone(),
            repo: member.repo.id.clone(),
            target: *target,
            confirm: Confirmation::ExpectedCurrent,
            seen_live: SeenLive::of(*expected),
            deploy_id: None,
        });
    }
    let promotion = Promotion {
        environment: ask.environment.clone(),
        members: promoted,
        operator: operator.clone(),
        asked_by,
        intent: ask.intent.clone(),
        override_freeze: ask.override_freeze,
        set: Some(ReleaseSet {
            release: release.clone(),
            ask: ask.clone(),
        }),
    };
    match run(state, promotion).await {
        Promoted::Refused {
            member: Some(repository),
            refusal,
        } => ReleaseRefusal::Member {
            repository,
            refusal,
        }
        .into(),
        Promoted::Refused {
            member: None,
            refusal,
        } => ReleaseRefusal::Gate(refusal).into(),
        Promoted::NotStarted(why) => ReleaseOutcome::NotStarted(why),
        Promoted::Requested(request) => ReleaseOutcome::Requested(request),
        Promoted::NothingToDo => ReleaseRefusal::NothingToPromote {
            release: release.name.clone(),
            environment: ask.environment.clone(),
        }
        .into(),
        Promoted::Ran(ran) => {
            let record = ran
                .release
                .expect("the pipeline writes a set's release line whenever it ran");
            ReleaseOutcome::Ended(Box::new(ReleaseEnded {
                record,
                audit: ran.audit,
            }))
        }
    }
}
