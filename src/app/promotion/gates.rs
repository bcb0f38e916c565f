//! The gates of a promotion, in one written order, before anything changes upstream: the
//! policy (who may promote there, and the freeze), the members' deploy locks in a stable
//! order (in this process: what the gates read stays true until the move), the members' pins
//! (automation and schedules stop at a pinned environment), every member's
//! gates at once (the checks the environment requires, then its plan read now: verification,
//! the path's order, what the asker saw it serve, a rollback's target, the soak), the
//! approvals (a request instead of a move), then the turn shared with other replicas on each
//! member's distribution in a stable order, with its plan read again under it (compare and
//! swap).

use crate::domain::deploy::{Authority, DeployId, Refusal, SeenLive};
use crate::domain::promotion::{ApprovalStep, Member, Promotion};
use crate::domain::release::{MemberLine, MemberOutcome};
use crate::domain::repository::VersionNumber;
use crate::ports::{correlation, DeployTurn};

use crate::app::approvals::asking::{ask, release_ask};
use crate::app::promotion::lock::DeployTurn as LocalTurn;
use crate::app::promotion::member_gates;
use crate::app::promotion::outcome::{MemberRun, NotStarted, Promoted, Stop};
use crate::app::promotion::pin_gate;
use crate::app::promotion::policy_gate;
use crate::app::promotion::turn::{replica_turn, Checked};
use crate::app::state::AppState;

/// A promotion through every gate: under what authority it runs, its members that move
/// (planned, in the promotion's order), those of a set that already serve their target, and
/// the turns it holds until it ends.
pub(super) struct Cleared {
    pub authority: Authority,
    pub moving: Vec<MemberRun>,
    pub staying: Vec<MemberLine>,
    _local: Vec<LocalTurn>,
    _replicas: Vec<DeployTurn>,
}

/// Passes `promotion` (its members' deploys named `ids`, in order) through its gates, or
/// answers why it stops.
pub(super) async fn clear(
    state: &AppState,
    promotion: &Promotion,
    ids: &[DeployId],
) -> Result<Cleared, Promoted> {
    let environment = &promotion.environment;
    let operator = &promotion.operator;
    let passed = policy_gate::pass(state, environment, operator, promotion.overriding())
        .await
        .map_err(|refusal| {
            tracing::warn!(%refusal, "promotion refused by the policy");
            refused(promotion, None, refusal)
        })?;
    let mut authority = promotion.authority();
    authority.freeze_override = passed.freeze_override;
    let mut local = Vec::with_capacity(promotion.members.len());
    for i in stable_order(promotion.members.iter().map(|m| m.repo.as_str())) {
        let repo = &promotion.members[i].repo;
        local.push(state.deploy_locks().acquire(repo, environment).await);
    }
    pin_gate::pass(state, promotion).await?;
    let (planned, staying) = plan_members(state, promotion, ids).await?;
    if planned.is_empty() {
        return Err(Promoted::NothingToDo);
    }
    let needed = state.policy.approvals_needed(environment);
    match promotion.approval_step(needed as usize) {
        ApprovalStep::Proceed => {}
        ApprovalStep::Refuse => {
            let refusal = Refusal::ApprovalsNeeded(environment.clone());
            return Err(refused(promotion, None, refusal));
        }
        ApprovalStep::Request => return Err(request(state, promotion, &planned, &staying).await),
    }
    // The replicas' turns, in the stable order of the members' distributions.
    let mut planned: Vec<(usize, Planned)> = planned.into_iter().enumerate().collect();
    planned.sort_by(|(i, a), (j, b)| {
        let href = |p: &Planned| p.checked.plan.distribution.href.as_str().to_owned();
        href(a).cmp(&href(b)).then(i.cmp(j))
    });
    let mut replicas = Vec::new();
    let mut cleared = Vec::with_capacity(planned.len());
    for (i, member) in planned {
        let request = promotion.request_of(member.member);
        let turn = correlation::scope(
            member.deploy_id.as_str().to_owned(),
            replica_turn(
                state,
                &member.member.repo,
                &request,
                operator,
                member.checked,
            ),
        )
        .await;
        let (turn, checked) = turn.map_err(|stop| stopped(promotion, &member.member.name, stop))?;
        replicas.extend(turn);
        cleared.push((
            i,
            MemberRun {
                name: member.member.name.clone(),
                deploy_id: member.deploy_id,
                soak_override: checked.soak_override,
                checks_override: member.checks_override,
                plan: checked.plan,
                publication: None,
                outcome: MemberOutcome::Unchanged,
                detail: None,
                failure: None,
            },
        ));
    }
    // Back in the promotion's order: the order the distributions move in.
    cleared.sort_by_key(|(i, _)| *i);
    let moving = cleared.into_iter().map(|(_, member)| member).collect();
    Ok(Cleared {
        authority,
        moving,
        staying,
        _local: local,
        _replicas: replicas,
    })
}

/// A member through its own gates.
struct Planned<'a> {
    member: &'a Member,
    deploy_id: DeployId,
    checked: Checked,
    checks_override: Option<crate::domain::deploy::ChecksOverride>,
}

/// Every member's gates at once (each under its own deploy's correlation id): those that
/// move, and those of a set that already serve their target.
async fn plan_members<'a>(
    state: &AppState,
    promotion: &'a Promotion,
    ids: &[DeployId],
) -> Result<(Vec<Planned<'a>>, Vec<MemberLine>), Promoted> {
    let operator = &promotion.operator;
    let gated = futures::future::join_all(promotion.members.iter().zip(ids).map(
        |(member, id)| async move {
            let request = promotion.request_of(member);
            let gated = correlation::scope(
                id.as_str().to_owned(),
                member_gates::pass(state, &member.repo, &request, operator),
            )
            .await;
            (member, id, gated)
        },
    ))
    .await;
    let mut planned = Vec::new();
    let mut staying = Vec::new();
    for (member, id, gated) in gated {
        match gated {
            Ok((checked, checks_override)) => planned.push(Planned {
                member,
                deploy_id: id.clone(),
                checked,
                checks_override,
            }),
            Err(Stop::Refused(Refusal::AlreadyDeployed {
                version,
                environment,
            })) if promotion.set.is_some() => {
                if promotion.settled_is_nothing_to_do(member) {
                    staying.push(MemberLine {
                        repository_name: member.name.clone(),
                        repository_uuid: member.repo.to_string(),
                        deploy_id: None,
                        previous_version: Some(version),
                        target_version: version,
                        outcome: MemberOutcome::Unchanged,
                        detail: Some(format!("already served v{version}: nothing to do")),
                    });
                    continue;
                }
                let seen = match member.seen_live {
                    SeenLive::Version(seen) => seen.label(),
                    SeenLive::Nothing | SeenLive::NotSent => "nothing".to_owned(),
                };
                let refusal = Refusal::ProductionMoved {
                    environment,
                    seen,
                    now: format!("v{version}"),
                };
                return Err(refused(promotion, Some(&member.name), refusal));
            }
            Err(stop) => return Err(stopped(promotion, &member.name, stop)),
        }
    }
    Ok((planned, staying))
}

/// The request recorded instead of a move: one for a single deploy, one for a whole set.
async fn request(
    state: &AppState,
    promotion: &Promotion,
    planned: &[Planned<'_>],
    staying: &[MemberLine],
) -> Promoted {
    let operator = &promotion.operator;
    let recorded = match (&promotion.set, planned) {
        (Some(set), _) => {
            let moving = planned.iter().map(|p| MemberLine {
                repository_name: p.member.name.clone(),
                repository_uuid: p.member.repo.to_string(),
                deploy_id: None,
                previous_version: p.checked.plan.current.map(VersionNumber::get),
                target_version: p.checked.plan.target_number().get(),
                outcome: MemberOutcome::Unchanged,
                detail: None,
            });
            let lines: Vec<MemberLine> = moving.chain(staying.iter().cloned()).collect();
            release_ask::ask(state, &set.release, &set.ask, &lines, operator).await
        }
        (None, [one]) => {
            let request = promotion.request_of(one.member);
            ask::ask(state, &one.checked.plan, &request, operator).await
        }
        (None, _) => Err(crate::ports::RequestStoreError::Unavailable {
            target: "none".into(),
            reason: "a promotion of several repositories outside a release cannot be requested"
                .into(),
        }),
    };
    match recorded {
        Ok(request) => Promoted::Requested(request),
        Err(error) => {
            tracing::error!(%error, "promotion not requested: the request could not be kept");
            Promoted::NotStarted(NotStarted::RequestNotKept(error))
        }
    }
}

/// The indices of `keys` in a stable order (by key): every promotion takes its members'
/// turns in the same order, so that two promotions sharing members never wait on each other.
fn stable_order<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<usize> {
    let mut order: Vec<(usize, &str)> = keys.enumerate().collect();
    order.sort_by(|a, b| a.1.cmp(b.1).then(a.0.cmp(&b.0)));
    order.into_iter().map(|(i, _)| i).collect()
}

/// A refusal, naming the member it concerns in a set.
fn refused(promotion: &Promotion, member: Option<&str>, refusal: Refusal) -> Promoted {
    Promoted::Refused {
        member: promotion.set.as_ref().and(member).map(str::to_owned),
        refusal,
    }
}

/// A member's gate that stopped the promotion.
fn stopped(promotion: &Promotion, member: &str, stop: Stop) -> Promoted {
    match stop {
        Stop::Refused(refusal) => refused(promotion, Some(member), refusal),
        Stop::NotStarted(why) => Promoted::NotStarted(why),
    }
}

#[cfg(test)]
mod tests {
    use super::stable_order;

    #[test]
    fn turns_are_taken_in_the_order_of_their_keys_whatever_the_order_asked() {
        assert_eq!(stable_order(["b", "a", "c"].into_iter()), vec![1, 0, 2]);
        assert_eq!(stable_order(["c", "b", "a"].into_iter()), vec![2, 1, 0]);
        assert_eq!(stable_order(["a", "a"].into_iter()), vec![0, 1]);
    }
}
