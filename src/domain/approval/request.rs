//! Four-eyes approval: a deploy to an environment whose policy needs approvals is first a
//! **request**; approvers other than the requester approve it, and the approval that
//! completes the count runs the deploy. A request is its creation plus the events that
//! followed, in order; its state is a pure fold of them at a given time (expiry needs no
//! event). Stores append events compare-and-swap on their number, so two approvers acting
//! at once (on two replicas) never both complete it.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize, Serializer};

use crate::domain::deploy::{DeployId, DeployKind};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::{CaseMatching, Operator, PersonKey, PersonName};
use crate::domain::ids::{ReleaseName, RequestId, ScheduleId};
use crate::domain::policy::{ActorKind, RecordedAuthor};
use crate::domain::release::MemberLine;
use crate::domain::repository::VersionNumber;

/// What was asked: deploy `target_version` of a repository to `environment`, which served
/// `asked_against` then. Immutable once made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRequest {
    pub id: RequestId,
    pub repository_uuid: String,
    pub repository_name: String,
    pub environment: EnvironmentName,
    pub target_version: u64,
    /// The version the environment served when the request was made (null: none). The
    /// deploy runs only while it still does.
    pub asked_against: Option<u64>,
    /// The requester's name as sent (shown and audited).
    pub requester: PersonName,
    /// The person who asked (the canonical key of the name, or of a token's owner): the
    /// four-eyes rule compares it. Requests kept before it was stored have none; their
    /// requester is compared by the exact name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requester_key: Option<PersonKey>,
    /// The requester's groups as the proxy vouched for them then (the policy is checked
    /// again with them when the deploy runs).
    #[serde(default)]
    pub requester_groups: Vec<String>,
    /// Whether the requester asked as a person or through an API token (absent: kept before
    /// it was recorded). The deploy runs only if the requester still may.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requester_kind: Option<ActorKind>,
    #[serde(default)]
    pub kind: DeployKind,
    pub reason: Option<String>,
    /// The requester asked to deploy through a freeze (with `reason`).
    #[serde(default)]
    pub override_freeze: bool,
    /// A release promotion asked as one request: the release and every member's move (the
    /// fields above then name its first moving member). Absent for one repository's deploy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<ReleaseRequest>,
    #[serde(serialize_with = "rfc3339_utc")]
    pub created: DateTime<Utc>,
    #[serde(serialize_with = "rfc3339_utc")]
    pub expires: DateTime<Utc>,
    /// The schedule whose deploy this request approves (it then runs at the schedule's time,
    /// not at the completing approval); absent for a deploy asked now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<ScheduledFor>,
}

/// The schedule a request approves, and when it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledFor {
    pub schedule_id: ScheduleId,
    #[serde(serialize_with = "rfc3339_utc")]
    pub at: DateTime<Utc>,
}

impl ApprovalRequest {
    pub fn target(&self) -> VersionNumber {
        VersionNumber::new(self.target_version)
    }

    pub fn asked_against(&self) -> Option<VersionNumber> {
        self.asked_against.map(VersionNumber::new)
    }

    /// The person who asked.
    pub fn requester_person(&self) -> PersonKey {
        person_or_exact(&self.requester_key, &self.requester)
    }

    /// The requester as recorded, for the check of their authority when the deploy runs.
    /// `person` is [`Self::requester_person`], which the caller holds.
    pub fn recorded_requester<'a>(&'a self, person: &'a PersonKey) -> RecordedAuthor<'a> {
        RecordedAuthor {
            name: &self.requester,
            person,
            groups: &self.requester_groups,
            kind: self.requester_kind,
        }
    }

    /// The requester, as the deploy runs on their behalf (names compared under `matching`).
    pub fn requester(&self, matching: CaseMatching) -> Operator {
        let requester = Operator::restored(
            &self.requester,
            self.requester_person(),
            &self.requester_groups,
            matching,
        );
        match self.requester_kind {
            Some(ActorKind::Token) => requester.restored_as_token(),
            _ => requester,
        }
    }
}

/// The stored key, or (for what was kept before keys were) the exact name's.
fn person_or_exact(key: &Option<PersonKey>, name: &PersonName) -> PersonKey {
    key.clone()
        .unwrap_or_else(|| name.key(CaseMatching::CaseSensitive))
}

/// The release promotion a request asks for: one approval approves every member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseRequest {
    pub name: ReleaseName,
    /// Each member: from (`previous_version`, what it served when asked) to `target_version`.
    pub members: Vec<MemberLine>,
}

/// Who acted on a request: the name as sent, and the person it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actor {
    pub by: PersonName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<PersonKey>,
    /// Whether they acted as a person or through an API token (absent: kept before it was
    /// recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ActorKind>,
    /// An API token's owner as configured (absent: a person, or a token without an owner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<PersonName>,
}

impl Actor {
    pub fn of(operator: &Operator) -> Self {
        Self {
            by: operator.name().clone(),
            person: Some(operator.person().clone()),
            kind: Some(ActorKind::of(operator)),
            owner: operator.token().and_then(|grant| grant.owner.clone()),
        }
    }

    /// The person who acted.
    pub fn person(&self) -> PersonKey {
        person_or_exact(&self.person, &self.by)
    }
}

/// What happened to a request after it was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum RequestEvent {
    /// One approver's approval.
    Approved {
        #[serde(flatten)]
        actor: Actor,
        #[serde(serialize_with = "rfc3339_utc")]
        at: DateTime<Utc>,
    },
    Rejected {
        #[serde(flatten)]
        actor: Actor,
        #[serde(serialize_with = "rfc3339_utc")]
        at: DateTime<Utc>,
    },
    /// Withdrawn by the requester.
    Cancelled {
        #[serde(flatten)]
        actor: Actor,
        #[serde(serialize_with = "rfc3339_utc")]
        at: DateTime<Utc>,
    },
    /// The environment no longer serves what the request was made against.
    Stale {
        /// What it serves now, in words ("v7", "nothing").
        now_serving: String,
        #[serde(serialize_with = "rfc3339_utc")]
        at: DateTime<Utc>,
    },
    /// The deploy ran (the approvals were complete): its audit id and how it ended.
    Executed {
        deploy_id: DeployId,
        /// `deployed`, or why not (the deploy's message).
        outcome: ExecutionOutcome,
        #[serde(serialize_with = "rfc3339_utc")]
        at: DateTime<Utc>,
    },
}

/// How the deploy of an approved request ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum ExecutionOutcome {
    Deployed,
    /// Refused or failed; `message` says whether the environment changed.
    Failed {
        message: String,
    },
}

/// A request's state at a given time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestState {
    /// Waiting for approvals; those given so far, in order.
    Pending {
        approvers: Vec<PersonName>,
    },
    /// The approvals are complete and the deploy was started; its end is not recorded yet
    /// (running now, or the console stopped meanwhile: the history says what happened). Never
    /// shown as a bare "approved": a request whose deploy ended is `executed`, `failed` or
    /// `stale`.
    Executing {
        approvers: Vec<PersonName>,
    },
    /// The approvals of a scheduled request are complete: its deploy runs at the schedule's
    /// time (the request expires an hour after it).
    Scheduled {
        approvers: Vec<PersonName>,
    },
    Executed {
        approvers: Vec<PersonName>,
        deploy_id: DeployId,
        outcome: ExecutionOutcome,
    },
    Rejected {
        by: PersonName,
    },
    Cancelled {
        by: PersonName,
    },
    Expired,
    Stale {
        now_serving: String,
    },
}

impl RequestState {
    /// The word pages and scripts use (`data-request-state`).
    pub fn word(&self) -> &'static str {
        match self {
            Self::Pending { .. } => "pending",
            Self::Executing { .. } => "executing",
            Self::Scheduled { .. } => "scheduled",
            Self::Executed { outcome, .. } => match outcome {
                ExecutionOutcome::Deployed => "executed",
                ExecutionOutcome::Failed { .. } => "failed",
            },
            Self::Rejected { .. } => "rejected",
            Self::Cancelled { .. } => "cancelled",
            Self::Expired => "expired",
            Self::Stale { .. } => "stale",
        }
    }

    /// Whether approvers may still act on it.
    pub fn is_open(&self) -> bool {
        matches!(self, Self::Pending { .. })
    }

    /// The approvals given, in order (none for a request that ended otherwise).
    pub fn approvers(&self) -> &[PersonName] {
        match self {
            Self::Pending { approvers }
            | Self::Executing { approvers }
            | Self::Scheduled { approvers }
            | Self::Executed { approvers, .. } => approvers,
            _ => &[],
        }
    }
}

/// A request with everything that happened to it, as a store holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestLog {
    pub request: ApprovalRequest,
    pub events: Vec<RequestEvent>,
}

impl RequestLog {
    /// The state at `now`, when `needed` approvals complete it. Events after the one that
    /// closed the request change nothing.
    pub fn state(&self, now: DateTime<Utc>, needed: u32) -> RequestState {
        let mut approvers: Vec<PersonName> = Vec::new();
        let mut people: Vec<PersonKey> = Vec::new();
        for event in &self.events {
            match event {
                RequestEvent::Approved { actor, .. } => {
                    let person = actor.person();
                    if !people.contains(&person) {
                        people.push(person);
                        approvers.push(actor.by.clone());
                    }
                    if approvers.len() >= needed.max(1) as usize {
                        return self.after_approval(approvers, now);
                    }
                }
                RequestEvent::Rejected { actor, .. } => {
                    return RequestState::Rejected {
                        by: actor.by.clone(),
                    }
                }
                RequestEvent::Cancelled { actor, .. } => {
                    return RequestState::Cancelled {
                        by: actor.by.clone(),
                    }
                }
                RequestEvent::Stale { now_serving, .. } => {
                    return RequestState::Stale {
                        now_serving: now_serving.clone(),
                    }
                }
                RequestEvent::Executed { .. } => {}
            }
        }
        if now >= self.request.expires {
            RequestState::Expired
        } else {
            RequestState::Pending { approvers }
        }
    }

    /// Complete: executed or failed when its deploy's end is recorded, stale when the deploy
    /// found the environment moved, else executing (deploy started); a scheduled request
    /// waits for its schedule's time (`scheduled`), and expires an hour after it.
    fn after_approval(&self, approvers: Vec<PersonName>, now: DateTime<Utc>) -> RequestState {
        let waiting = match &self.request.schedule {
            Some(_) if now >= self.request.expires => RequestState::Expired,
            Some(_) => RequestState::Scheduled {
                approvers: approvers.clone(),
            },
            None => RequestState::Executing {
                approvers: approvers.clone(),
            },
        };
        self.events
            .iter()
            .find_map(|event| match event {
                RequestEvent::Executed {
                    deploy_id, outcome, ..
                } => Some(RequestState::Executed {
                    approvers: approvers.clone(),
                    deploy_id: deploy_id.clone(),
                    outcome: outcome.clone(),
                }),
                RequestEvent::Stale { now_serving, .. } => Some(RequestState::Stale {
                    now_serving: now_serving.clone(),
                }),
                _ => None,
            })
            .unwrap_or(waiting)
    }
}

/// Why an operator may not approve, reject or cancel a request now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestRefusal {
    #[error("This request is {0}: it can no longer be approved, rejected or cancelled.")]
    Closed(&'static str),
    #[error(
        "You asked for this deploy: someone else must approve it (four-eyes rule of [policy.{0}])."
    )]
    OwnRequest(EnvironmentName),
    #[error("You have already approved this request; it needs another approver.")]
    AlreadyApproved,
    #[error("Only the requester, {0}, may cancel this request (an approver may reject it).")]
    NotRequester(PersonName),
    #[error(
        "The API token '{token}' belongs to {owner}, who asked for this deploy: someone else \
         must approve it (four-eyes rule of [policy.{environment}])."
    )]
    TokenOfRequester {
        token: PersonName,
        owner: PersonName,
        environment: EnvironmentName,
    },
}

impl RequestLog {
    /// Whether `person` has approved this request already.
    pub fn approved_by(&self, person: &PersonKey) -> bool {
        self.events.iter().any(|event| match event {
            RequestEvent::Approved { actor, .. } => &actor.person() == person,
            _ => false,
        })
    }
}

/// Whether `approver` may add an approval to `log` in `state` (the policy's approvers list
/// is checked apart, by [`crate::domain::policy::Policy::may_approve`]).
pub fn check_approval(
    log: &RequestLog,
    state: &RequestState,
    approver: &Operator,
) -> Result<(), RequestRefusal> {
    check_reject(log, state, approver)?;
    if log.approved_by(approver.person()) {
        return Err(RequestRefusal::AlreadyApproved);
    }
    Ok(())
}

/// Whether `operator` may cancel `log` (only its requester, while it is open).
pub fn check_cancel(
    log: &RequestLog,
    state: &RequestState,
    operator: &Operator,
) -> Result<(), RequestRefusal> {
    if !state.is_open() {
        return Err(RequestRefusal::Closed(state.word()));
    }
    if operator.person() != &log.request.requester_person() {
        return Err(RequestRefusal::NotRequester(log.request.requester.clone()));
    }
    Ok(())
}

/// Whether `operator` may reject `log` (an approver, the requester excepted: they cancel);
/// the first checks of an approval too.
pub fn check_reject(
    log: &RequestLog,
    state: &RequestState,
    operator: &Operator,
) -> Result<(), RequestRefusal> {
    if !state.is_open() {
        return Err(RequestRefusal::Closed(state.word()));
    }
    if operator.person() != &log.request.requester_person() {
        return Ok(());
    }
    let environment = log.request.environment.clone();
    match operator.token().and_then(|t| t.owner.clone()) {
        Some(owner) => Err(RequestRefusal::TokenOfRequester {
            token: operator.name().clone(),
            owner,
            environment,
        }),
        None => Err(RequestRefusal::OwnRequest(environment)),
    }
}

fn rfc3339_utc<S: Serializer>(at: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&at.to_rfc3339_opts(SecondsFormat::Millis, true))
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
