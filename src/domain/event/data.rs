//! What each event says (its CloudEvents `data`), built from what the console already
//! records: an audit line, an approval request, a drift seen on a distribution, a failed
//! synchronization task. Versions are `from_version` (before; null: none) and `to_version`
//! in every kind that has them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::approval::ApprovalRequest;
use crate::domain::deploy::{
    AuditOutcome, CheckTrigger, DeployId, DeployKind, DeployRecord, ProductionChanged, ScheduleMark,
};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::PersonName;
use crate::domain::ids::{RequestId, ScheduleId};
use crate::domain::repository::{Distribution, Repository, TaskHref};
use crate::domain::schedule::{Schedule, ScheduleState};

/// A repository, as events name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepositoryRef {
    pub uuid: String,
    pub name: String,
}

impl From<&Repository> for RepositoryRef {
    fn from(repo: &Repository) -> Self {
        Self {
            uuid: repo.id.to_string(),
            name: repo.display_name().to_owned(),
        }
    }
}

/// `deployment.finished` and `deployment.failed`: the outcome line of a deploy or rollback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeploymentData {
    pub repository: RepositoryRef,
    pub environment: EnvironmentName,
    pub distribution: String,
    pub from_version: Option<u64>,
    pub to_version: u64,
    pub kind: DeployKind,
    pub operator: String,
    pub deploy_id: DeployId,
    /// `deployed` or `failed`.
    pub outcome: String,
    /// Whether the environment changed: `yes` for a deploy that finished.
    pub production_changed: ProductionChanged,
    /// Why it failed (with Pulp's task when it named one).
    pub error: Option<String>,
    pub reason: Option<String>,
    /// The approval request it ran for.
    pub request_id: Option<RequestId>,
    /// The schedule it ran for, and its author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<ScheduleMark>,
    /// An automatic promotion's: the check whose passing triggered it (null: a deploy someone
    /// asked for).
    #[serde(default)]
    pub triggered_by: Option<CheckTrigger>,
}

impl DeploymentData {
    /// The data of a deploy's outcome line; `None` for its `started` line.
    pub fn of_outcome(record: &DeployRecord) -> Option<Self> {
        let (outcome, changed, error) = match &record.outcome {
            AuditOutcome::Started => return None,
            AuditOutcome::Deployed => ("deployed", ProductionChanged::Yes, None),
            AuditOutcome::Failed {
                production_changed,
                error,
            } => ("failed", *production_changed, Some(error.clone())),
        };
        Some(Self {
            repository: RepositoryRef {
                uuid: record.repository_uuid.clone(),
                name: record.repository_name.clone(),
            },
            environment: record.environment.clone(),
            distribution: record.distribution.clone(),
            from_version: record.previous_version,
            to_version: record.target_version,
            kind: record.kind,
            operator: record.operator.clone(),
            deploy_id: record.deploy_id.clone(),
            outcome: outcome.to_owned(),
            production_changed: changed,
            error,
            reason: record.reason.clone(),
            request_id: record.request.as_ref().map(|r| r.request_id.clone()),
            schedule: record.schedule.clone(),
            triggered_by: record.automation.as_ref().map(|a| a.triggered_by.clone()),
        })
    }

    /// The deploy finished: the environment serves `to_version`.
    pub fn finished(&self) -> bool {
        self.outcome == "deployed"
    }
}

/// `drift.detected`: an environment no longer serves what the console's last change of it
/// set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftData {
    pub repository: RepositoryRef,
    pub environment: EnvironmentName,
    pub distribution: String,
    /// The version the console's last change set.
    pub from_version: u64,
    /// The version of the repository served now (null: none of its versions).
    pub to_version: Option<u64>,
    /// The console's last change of the environment.
    pub last_deploy_id: DeployId,
    /// Names the outside change: the distribution and its revision when seen drifted (Pulp's
    /// `pulp_last_updated`), so each outside change is reported once.
    pub change: String,
}

impl DriftData {
    /// The drift of `distribution` (as read now, serving `serving`) away from `baseline`,
    /// the console's last change of it.
    pub fn new(
        repository: RepositoryRef,
        baseline: &DeployRecord,
        distribution: &Distribution,
        serving: Option<u64>,
    ) -> Self {
        let change = match &distribution.revision {
            Some(revision) => format!("{}@{}", distribution.href, revision.as_str()),
            // Without a revision: the same drift while it serves the same publication.
            None => format!(
                "{}:{}:{}",
                distribution.href,
                distribution
                    .publication
                    .as_ref()
                    .map_or("none", |p| p.as_str()),
                baseline.deploy_id.as_str()
            ),
        };
        Self {
            repository,
            environment: baseline.environment.clone(),
            distribution: distribution.name.clone(),
            from_version: baseline.target_version,
            to_version: serving,
            last_deploy_id: baseline.deploy_id.clone(),
            change,
        }
    }
}

/// `request.created`, `request.approved` and the request's last event (`request.executed`,
/// `request.failed`, `request.stale`): a deploy that needs approvals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestData {
    pub request_id: RequestId,
    pub repository: RepositoryRef,
    pub environment: EnvironmentName,
    /// What the environment served when the request was made.
    pub from_version: Option<u64>,
    pub to_version: u64,
    pub kind: DeployKind,
    pub requester: PersonName,
    pub reason: Option<String>,
    pub expires: DateTime<Utc>,
    /// Who approved it, in order (empty for `request.created`).
    pub approvers: Vec<PersonName>,
    /// The deploy the request ran (`request.executed`, `request.failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy_id: Option<DeployId>,
    /// How it ended, in words (`request.failed`, `request.stale`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
}

impl RequestData {
    /// `request`, approved so far by `approvers`.
    pub fn of(request: &ApprovalRequest, approvers: Vec<PersonName>) -> Self {
        Self {
            request_id: request.id.clone(),
            repository: RepositoryRef {
                uuid: request.repository_uuid.clone(),
                name: request.repository_name.clone(),
            },
            environment: request.environment.clone(),
            from_version: request.asked_against,
            to_version: request.target_version,
            kind: request.kind,
            requester: request.requester.clone(),
            reason: request.reason.clone(),
            expires: request.expires,
            approvers,
            deploy_id: None,
            outcome: None,
        }
    }

    /// The same, ended: the deploy it ran and how it ended, when there are such.
    pub fn ended(self, deploy_id: Option<&DeployId>, outcome: Option<String>) -> Self {
        Self {
            deploy_id: deploy_id.cloned(),
            outcome,
            ..self
        }
    }
}

/// `sync.failed`: a repository's synchronization task failed (or was canceled).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncFailedData {
    pub repository: RepositoryRef,
    /// Upstream's task.
    pub task: TaskHref,
    pub reason: String,
}

/// `schedule.refused` and `schedule.failed`: a scheduled deploy that did not deploy at its
/// time: refused by a check (nothing moved), or failed (`changed` in `message` says whether
/// the environment changed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleData {
    pub schedule_id: ScheduleId,
    pub repository: RepositoryRef,
    pub environment: EnvironmentName,
    /// What the environment served when the schedule was made.
    pub from_version: Option<u64>,
    pub to_version: u64,
    pub author: PersonName,
    /// When it was to run (RFC 3339).
    pub at: DateTime<Utc>,
    /// Its deploy's id, when it ran.
    pub deploy_id: Option<DeployId>,
    /// Why it was refused, or how it failed.
    pub message: String,
}

impl ScheduleData {
    /// The data of `schedule` as it ended: `None` unless refused or failed.
    pub fn ended(schedule: &Schedule) -> Option<Self> {
        let (deploy_id, message) = match &schedule.state {
            ScheduleState::Refused { reason, .. } => (None, reason.clone()),
            ScheduleState::Failed {
                deploy_id, message, ..
            } => (Some(deploy_id.clone()), message.clone()),
            _ => return None,
        };
        Some(Self {
            schedule_id: schedule.id.clone(),
            repository: RepositoryRef {
                uuid: schedule.repository_uuid.clone(),
                name: schedule.repository_name.clone(),
            },
            environment: schedule.environment.clone(),
            from_version: schedule.expected,
            to_version: schedule.target_version,
            author: schedule.author.clone(),
            at: schedule.at,
            deploy_id,
            message,
        })
    }
}
