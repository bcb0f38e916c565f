//! Every deploy counted by how it ended and how it was asked for, through the metrics port
//! of the state (`repo_console_deploys_total{outcome, asked, environment}` and the duration
//! of those that started): deploys from the pages, the API, approvals, schedules and
//! automation alike, since all run here, and each member of a release promotion as one.
//! Each version a deploy moved also counts its lead time (from its creation in Pulp to its
//! arrival), by the replica that moved it, once.

use std::time::Instant;

use chrono::{DateTime, Utc};

use crate::domain::deploy::DeployKind;
use crate::domain::environment::EnvironmentName;
use crate::domain::promotion::{AskedBy, Promotion};
use crate::domain::release::MemberOutcome;
use crate::ports::{DeployAsked, DeployEnd};

use crate::app::promotion::outcome::Promoted;
use crate::app::state::AppState;

/// How `promotion` was asked for, as the metric's `asked` label says it.
pub(crate) fn asked(promotion: &Promotion) -> DeployAsked {
    match &promotion.asked_by {
        AskedBy::Schedule { .. } => DeployAsked::Schedule,
        AskedBy::Automation(_) => DeployAsked::Automation,
        _ if promotion.set.is_some() => DeployAsked::Release,
        AskedBy::Approval(_) => DeployAsked::Approval,
        AskedBy::Operator if promotion.intent.kind() == DeployKind::Rollback => {
            DeployAsked::Rollback
        }
        AskedBy::Operator => DeployAsked::Deploy,
    }
}

/// Counts every member of `promotion` as one deploy, by how `promoted` ended for it: those
/// that moved or tried to by their own end (with how long since `began`); when nothing was
/// tried, each by how the promotion ended. Members of a set that already served their target
/// are not counted.
pub(crate) fn record(state: &AppState, promotion: &Promotion, promoted: &Promoted, began: Instant) {
    let asked = asked(promotion);
    let environment = &promotion.environment;
    let each_member = |end| {
        for _ in &promotion.members {
            ended(state, end, asked, environment, None);
        }
    };
    match promoted {
        Promoted::Refused { .. } | Promoted::NothingToDo => each_member(DeployEnd::Refused),
        Promoted::NotStarted(_) => each_member(DeployEnd::NotStarted),
        Promoted::Requested(_) => each_member(DeployEnd::Requested),
        Promoted::Ran(ran) => {
            for member in &ran.members {
                let end = if member.outcome == MemberOutcome::Moved && ran.error.is_none() {
                    DeployEnd::Deployed
                } else {
                    DeployEnd::Failed
                };
                ended(state, end, asked, environment, Some(began));
            }
        }
    }
}

/// Counts the lead time of every version `promoted` moved, when it is a deploy (rollbacks
/// have none), arrived at `now`: from the version's creation in Pulp, which the deploy's plan
/// read, so no request is made for it (`repo_console_lead_time_seconds{environment}`).
pub(crate) fn lead_times(
    state: &AppState,
    promotion: &Promotion,
    promoted: &Promoted,
    now: DateTime<Utc>,
) {
    let Promoted::Ran(ran) = promoted else {
        return;
    };
    if promotion.intent.kind() != DeployKind::Deploy {
        return;
    }
    for member in &ran.members {
        let created = member.plan.target.created;
        if member.outcome == MemberOutcome::Moved && created <= now {
            state
                .metrics
                .lead_time(&promotion.environment, (now - created).num_seconds());
        }
    }
}

/// Counts one deploy that ended so (`began`: when it started, for those that did).
pub(crate) fn ended(
    state: &AppState,
    end: DeployEnd,
    asked: DeployAsked,
    environment: &EnvironmentName,
    began: Option<Instant>,
) {
    let took = began.map(|began| began.elapsed());
    state
        .metrics
        .deploy_ended(end, asked, Some(environment), took);
}

/// A deploy refused because its sender is not known: counted, nothing else is done (the form
/// is not even read, so the environment is not known).
pub fn unidentified(state: &AppState) {
    state
        .metrics
        .deploy_ended(DeployEnd::Unidentified, DeployAsked::Deploy, None, None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::deploy::{Intent, Reason};
    use crate::domain::identity::Operator;
    use crate::domain::promotion::Promotion;

    fn promotion(intent: Intent) -> Promotion {
        Promotion {
            environment: EnvironmentName::production(),
            members: Vec::new(),
            operator: Operator::new("alice").expect("a name"),
            asked_by: AskedBy::Operator,
            intent,
            override_freeze: false,
            set: None,
        }
    }

    #[test]
    fn a_deploy_and_a_rollback_of_an_operator_are_told_apart() {
        assert_eq!(asked(&promotion(Intent::Deploy(None))), DeployAsked::Deploy);
        let reason = Reason::parse("broken").expect("a reason");
        assert_eq!(
            asked(&promotion(Intent::Rollback(reason))),
            DeployAsked::Rollback
        );
    }
}
