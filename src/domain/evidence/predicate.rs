//! The predicate of a promotion (`predicateType` [`super::statement::PREDICATE_TYPE`]): every
//! fact an auditor asks of a change, read from the deploy's audit record and what the console
//! knew when it signed.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize, Serializer};

use crate::domain::audit_chain::link::Sha256Hex;
use crate::domain::deploy::{ApprovalTrail, DeployId, DeployKind, DeployRecord};
use crate::domain::identity::PersonName;
use crate::domain::ids::ReleaseRef;

use super::party::Party;

/// What a promotion was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromotionPredicate {
    pub deploy_id: DeployId,
    /// `deploy` or `rollback`.
    pub kind: DeployKind,
    pub repository: RepositoryFacts,
    pub environment: String,
    /// The version the environment served before (null: none).
    pub version_from: Option<u64>,
    pub version_to: u64,
    pub pulp: PulpFacts,
    pub deployed_by: Actor,
    /// The approval request it ran for (null: none was needed).
    pub approval: Option<ApprovalFacts>,
    /// The checks reported passing for the version promoted (names, reporters, links).
    pub checks: Vec<PassedCheck>,
    /// The rules gone through, each with the operator's reason.
    pub overrides: Vec<Override>,
    pub policy: PolicyFacts,
    /// The release this promotion was a member of (null: a single deploy).
    pub release: Option<ReleaseRef>,
    /// The operator's reason (a rollback's is required).
    pub reason: Option<String>,
    #[serde(serialize_with = "rfc3339")]
    pub at: DateTime<Utc>,
    /// The previous attestation of the same repository and environment (null: the first).
    pub previous: Option<PreviousAttestation>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepositoryFacts {
    pub name: String,
    pub uuid: String,
}

/// Pulp's references: what now serves the version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PulpFacts {
    pub publication: Option<String>,
    pub distribution: String,
    pub distribution_name: String,
    pub base_path: String,
}

/// Who deployed: a person, an API token (its name and owner), a schedule (its author) or the
/// console's automation (the check that triggered it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Actor {
    Person {
        name: String,
    },
    Token {
        name: String,
        owner: Option<String>,
    },
    Schedule {
        schedule_id: String,
        /// Who made the schedule: a person, or a token with its owner.
        author: Party,
    },
    Automation {
        check: String,
        environment: String,
        reporter: String,
        url: Option<String>,
    },
}

impl From<Party> for Actor {
    fn from(party: Party) -> Self {
        match party {
            Party::Person { name } | Party::Named { name } => Self::Person { name },
            Party::Token { name, owner } => Self::Token { name, owner },
        }
    }
}

/// The approval request: who asked, and who approved and when (each a person, or a token
/// and its owner).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalFacts {
    pub request_id: String,
    pub requested_by: Party,
    pub approvals: Vec<Approval>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    pub by: Party,
    /// When (null: the request's record no longer holds it).
    pub at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassedCheck {
    pub name: String,
    /// Where it ran.
    pub environment: String,
    pub reporter: String,
    pub url: Option<String>,
    pub at: String,
}

/// A rule the deploy went through: `freeze`, `soak` or `checks`, what it was, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Override {
    pub rule: String,
    pub detail: String,
    pub reason: Option<String>,
}

/// The policy in force: the SHA-256 of the canonical JSON of the `[policy]` and
/// `[environments]` tables the console read at start (see [`super::policy_digest`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyFacts {
    pub sha256: Sha256Hex,
}

/// The link to the previous attestation of the same repository and environment: the SHA-256
/// of its envelope's payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreviousAttestation {
    pub deploy_id: DeployId,
    pub payload_sha256: Sha256Hex,
}

/// What the console knew beside the record when it signed.
pub struct Known {
    pub pulp: PulpFacts,
    /// Who asked for the promotion (the operator it ran as).
    pub deployer: Party,
    /// The approval request's record, when the deploy ran for one and it is still kept.
    pub request: Option<RequestSeen>,
    pub checks: Vec<PassedCheck>,
    pub policy: PolicyFacts,
    pub previous: Option<PreviousAttestation>,
}

/// What the approval request's record says of its people.
pub struct RequestSeen {
    pub requested_by: Party,
    /// Each approval, in order: who, and when (RFC 3339).
    pub approvals: Vec<(Party, String)>,
}

impl PromotionPredicate {
    /// The predicate of the deploy `record` (its outcome line) with what else was `known`.
    pub fn of(record: &DeployRecord, known: Known) -> Self {
        Self {
            deploy_id: record.deploy_id.clone(),
            kind: record.kind,
            repository: RepositoryFacts {
                name: record.repository_name.clone(),
                uuid: record.repository_uuid.clone(),
            },
            environment: record.environment.to_string(),
            version_from: record.previous_version,
            version_to: record.target_version,
            pulp: known.pulp,
            deployed_by: actor_of(record, known.deployer),
            approval: record
                .request
                .as_ref()
                .map(|trail| approval_of(trail, known.request.as_ref())),
            checks: known.checks,
            overrides: overrides_of(record),
            policy: known.policy,
            release: record.release.clone(),
            reason: record.reason.clone(),
            at: record.timestamp,
            previous: known.previous,
        }
    }
}

/// The request's people: as its record names them, else by the names the audit line kept.
fn approval_of(trail: &ApprovalTrail, seen: Option<&RequestSeen>) -> ApprovalFacts {
    let approval = |by: &PersonName| {
        let recorded = seen.and_then(|seen| {
            seen.approvals
                .iter()
                .find(|(party, _)| party.name() == by.as_str())
        });
        match recorded {
            Some((party, at)) => Approval {
                by: party.clone(),
                at: Some(at.clone()),
            },
            None => Approval {
                by: Party::named(by),
                at: None,
            },
        }
    };
    ApprovalFacts {
        request_id: trail.request_id.to_string(),
        requested_by: seen
            .map(|seen| seen.requested_by.clone())
            .unwrap_or_else(|| Party::named(&trail.requester)),
        approvals: trail.approvers.iter().map(approval).collect(),
    }
}

fn actor_of(record: &DeployRecord, deployer: Party) -> Actor {
    if let Some(automation) = &record.automation {
        let trigger = &automation.triggered_by;
        return Actor::Automation {
            check: trigger.check.to_string(),
            environment: trigger.environment.to_string(),
            reporter: trigger.reporter.clone(),
            url: trigger.url.clone().map(String::from),
        };
    }
    if let Some(schedule) = &record.schedule {
        // A schedule's promotion runs as its author (restored as the token it was, if so).
        return Actor::Schedule {
            schedule_id: schedule.schedule_id.to_string(),
            author: deployer,
        };
    }
    deployer.into()
}

fn overrides_of(record: &DeployRecord) -> Vec<Override> {
    let reason = || record.reason.clone();
    let mut overrides = Vec::new();
    if let Some(freeze) = &record.freeze_override {
        overrides.push(Override {
            rule: "freeze".into(),
            detail: format!("window {} until {}", freeze.window, freeze.until),
            reason: reason(),
        });
    }
    if let Some(soak) = &record.soak_override {
        overrides.push(Override {
            rule: "soak".into(),
            detail: format!("{} in {}", soak.soak, soak.previous),
            reason: reason(),
        });
    }
    if let Some(checks) = &record.checks_override {
        overrides.push(Override {
            rule: "checks".into(),
            detail: format!("{} (in {})", checks.unmet, checks.checked_in),
            reason: reason(),
        });
    }
    overrides
}

fn rfc3339<S: Serializer>(at: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&at.to_rfc3339_opts(SecondsFormat::Millis, true))
}

#[cfg(test)]
#[path = "predicate_tests.rs"]
mod tests;
