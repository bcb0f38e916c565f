//! A promotion: the one value every way a version moves is told as. One or several members
//! (a repository and the version it goes to, with what the asker saw it serve), one
//! environment, who asks and how (a person or a token from the pages or the API, an approved
//! request, a schedule, an automatic promotion), why (a deploy, or a rollback with its
//! reason), and the overrides asked for. Single deploys, rollbacks, releases, scheduled runs,
//! approved requests and automatic promotions each build one and hand it to the one use case
//! that runs it (`app::promotion`); none of them chains gates of its own.

mod at_pin;

pub use at_pin::AtPin;

use crate::domain::deploy::{
    ApprovalTrail, Authority, Automation, Confirmation, DeployId, DeployRequest, Intent,
    ScheduleMark, SeenLive,
};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::release::{Release, ReleaseAsk};
use crate::domain::repository::{RepoId, VersionNumber};

/// What moves, to where, asked by whom, how and why.
#[derive(Debug, Clone)]
pub struct Promotion {
    pub environment: EnvironmentName,
    pub members: Vec<Member>,
    /// Who asks: the deploy's operator (for a schedule its author, for a request its
    /// requester, for an automatic promotion the automation's operator).
    pub operator: Operator,
    pub asked_by: AskedBy,
    /// A deploy, or a rollback with its reason.
    pub intent: Intent,
    /// Through the environment's freeze (those the policy lists in `override`, with the
    /// intent's reason).
    pub override_freeze: bool,
    /// The set the members form, when they are a release's.
    pub set: Option<ReleaseSet>,
}

/// One repository of a promotion.
#[derive(Debug, Clone)]
pub struct Member {
    /// How the asker named it (a release's member name; for a single deploy the
    /// repository's id): what refusals and the release's lines call it.
    pub name: String,
    pub repo: RepoId,
    pub target: VersionNumber,
    pub confirm: Confirmation,
    /// What the asker saw the environment serve (compared and swapped).
    pub seen_live: SeenLive,
    /// The deploy id its audit lines carry, when the asker chose it (a schedule's run, an
    /// approved request's deploy); otherwise one is made when the promotion starts.
    pub deploy_id: Option<DeployId>,
}

/// How a promotion was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskedBy {
    /// A person or a token, from the pages or the API.
    Operator,
    /// The completing approval of a request: its approvals are not asked for again.
    Approval(ApprovalTrail),
    /// A schedule at its time, under the approvals of its request where the environment
    /// needs them (without them it is refused, never turned into a request).
    Schedule {
        mark: ScheduleMark,
        approvals: Option<ApprovalTrail>,
    },
    /// An automatic promotion, triggered by a passing check.
    Automation(Automation),
}

/// A release's members promoted together: all of them or none.
#[derive(Debug, Clone)]
pub struct ReleaseSet {
    pub release: Release,
    /// The ask as the operator made it (what an approval request of the set records).
    pub ask: ReleaseAsk,
}

/// What the environment's approvals mean for a promotion asked so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApprovalStep {
    /// Approved already (or none needed): the promotion goes on.
    Proceed,
    /// A request is recorded instead of a move.
    Request,
    /// Refused: a schedule runs only what was approved.
    Refuse,
}

impl Promotion {
    /// The deploy request of `member`, as a single deploy of it would be asked.
    pub fn request_of(&self, member: &Member) -> DeployRequest {
        DeployRequest {
            target: member.target,
            environment: self.environment.clone(),
            confirm: member.confirm.clone(),
            seen_live: member.seen_live,
            intent: self.intent.clone(),
            override_freeze: self.override_freeze,
        }
    }

    /// The reason given to override a freeze, when an override is asked for.
    pub fn overriding(&self) -> Option<&str> {
        self.override_freeze
            .then(|| self.intent.reason().unwrap_or_default())
    }

    /// What the environment's approvals (`needed` of them) mean for this promotion.
    pub fn approval_step(&self, needed: usize) -> ApprovalStep {
        if needed == 0 {
            return ApprovalStep::Proceed;
        }
        match &self.asked_by {
            AskedBy::Approval(_)
            | AskedBy::Schedule {
                approvals: Some(_), ..
            } => ApprovalStep::Proceed,
            AskedBy::Schedule {
                approvals: None, ..
            } => ApprovalStep::Refuse,
            AskedBy::Operator | AskedBy::Automation(_) => ApprovalStep::Request,
        }
    }

    /// The authority its audit lines carry from how it was asked (the overrides the gates
    /// grant are added as they pass).
    pub fn authority(&self) -> Authority {
        let mut authority = Authority::default();
        match &self.asked_by {
            AskedBy::Operator => {}
            AskedBy::Approval(trail) => authority.request = Some(trail.clone()),
            AskedBy::Schedule { mark, approvals } => {
                authority.schedule = Some(mark.clone());
                authority.request = approvals.clone();
            }
            AskedBy::Automation(automation) => authority.automation = Some(automation.clone()),
        }
        authority
    }

    /// The approved request's trail, when it runs one (a request, or a schedule's).
    pub fn approvals(&self) -> Option<&ApprovalTrail> {
        match &self.asked_by {
            AskedBy::Approval(trail) => Some(trail),
            AskedBy::Schedule { approvals, .. } => approvals.as_ref(),
            AskedBy::Operator | AskedBy::Automation(_) => None,
        }
    }

    /// A set is all or none: its members reuse publications made with the repository's
    /// settings of now, and when one member's move fails, those that moved are put back.
    /// A promotion of one repository publishes anew and, when its move fails, says what is
    /// known of it.
    pub fn all_or_none(&self) -> bool {
        self.set.is_some()
    }

    /// A member the asker saw already serving its target is left alone (nothing to do) in
    /// a set; a single deploy of it is refused as already deployed.
    pub fn settled_is_nothing_to_do(&self, member: &Member) -> bool {
        self.set.is_some() && member.seen_live == SeenLive::Version(member.target)
    }
}

#[cfg(test)]
mod tests;
