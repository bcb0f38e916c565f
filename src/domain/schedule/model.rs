//! What a schedule is: what to deploy where, on whose behalf, when, and how far it went.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize, Serializer};

use crate::domain::deploy::{DeployId, DeployKind};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::{CaseMatching, Operator, PersonKey, PersonName};
use crate::domain::ids::{RequestId, ScheduleId};
use crate::domain::policy::{ActorKind, RecordedAuthor};
use crate::domain::repository::VersionNumber;

/// A claim on a running schedule: which replica runs it, until when the others leave it
/// alone, and the deploy id its run writes in the audit (what tells, after a crash, whether
/// the run started and how it ended).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub by: String,
    #[serde(serialize_with = "rfc3339_utc")]
    pub until: DateTime<Utc>,
    pub deploy_id: DeployId,
}

/// How far a schedule went. `waiting` until its time, `running` while claimed, then one of
/// the ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum ScheduleState {
    Waiting,
    Running {
        claim: Claim,
    },
    /// The deploy ran and the environment serves the target.
    Done {
        deploy_id: DeployId,
        #[serde(serialize_with = "rfc3339_utc")]
        ended: DateTime<Utc>,
    },
    /// The deploy ran and failed, or whether it ran to its end is unknown (`message` says
    /// what to check).
    Failed {
        deploy_id: DeployId,
        #[serde(serialize_with = "rfc3339_utc")]
        ended: DateTime<Utc>,
        message: String,
    },
    /// Withdrawn before its time.
    Cancelled {
        by: PersonName,
        #[serde(serialize_with = "rfc3339_utc")]
        ended: DateTime<Utc>,
    },
    /// At its time a check refused it (the environment moved, a freeze, the policy, the
    /// soak...): nothing moved. Kept as `refusal`: the schedule's own `reason` is beside it
    /// in the same object.
    Refused {
        #[serde(serialize_with = "rfc3339_utc")]
        ended: DateTime<Utc>,
        #[serde(rename = "refusal")]
        reason: String,
    },
}

impl ScheduleState {
    /// `waiting`, `running`, `done`, `failed`, `cancelled` or `refused`.
    pub fn word(&self) -> &'static str {
        match self {
            Self::Waiting => "waiting",
            Self::Running { .. } => "running",
            Self::Done { .. } => "done",
            Self::Failed { .. } => "failed",
            Self::Cancelled { .. } => "cancelled",
            Self::Refused { .. } => "refused",
        }
    }

    /// Waiting or running: it may still change an environment.
    pub fn is_open(&self) -> bool {
        matches!(self, Self::Waiting | Self::Running { .. })
    }
}

/// A deploy to run at `at` on behalf of its author.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    pub id: ScheduleId,
    pub repository_uuid: String,
    pub repository_name: String,
    pub environment: EnvironmentName,
    pub target_version: u64,
    /// What the environment served when the schedule was made (null: nothing): at its time
    /// it runs only if the environment still serves that.
    pub expected: Option<u64>,
    #[serde(default)]
    pub kind: DeployKind,
    pub reason: Option<String>,
    /// The author asked to deploy through a freeze (or a soak) with `reason`.
    #[serde(default)]
    pub override_freeze: bool,
    pub author: PersonName,
    pub author_key: PersonKey,
    /// The author's groups as vouched for when it was made (the policy is checked with
    /// them again at its time).
    #[serde(default)]
    pub author_groups: Vec<String>,
    /// Whether the author asked as a person or through an API token (absent: kept before it
    /// was recorded). At its time the schedule runs only if its author still may.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author_kind: Option<ActorKind>,
    #[serde(serialize_with = "rfc3339_utc")]
    pub at: DateTime<Utc>,
    #[serde(serialize_with = "rfc3339_utc")]
    pub created: DateTime<Utc>,
    /// The approval request the schedule carries, where the environment needs approvals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// Bumped by every change: the store replaces a schedule only over the revision the
    /// writer read.
    pub revision: u64,
    #[serde(flatten)]
    pub state: ScheduleState,
}

impl Schedule {
    pub fn target(&self) -> VersionNumber {
        VersionNumber::new(self.target_version)
    }

    pub fn expected(&self) -> Option<VersionNumber> {
        self.expected.map(VersionNumber::new)
    }

    /// The author, as the deploy runs on their behalf (names compared under `matching`).
    pub fn author(&self, matching: CaseMatching) -> Operator {
        let author = Operator::restored(
            &self.author,
            self.author_key.clone(),
            &self.author_groups,
            matching,
        );
        match self.author_kind {
            Some(ActorKind::Token) => author.restored_as_token(),
            _ => author,
        }
    }

    /// The author as recorded, for the check of their authority at its time.
    pub fn recorded_author(&self) -> RecordedAuthor<'_> {
        RecordedAuthor {
            name: &self.author,
            person: &self.author_key,
            groups: &self.author_groups,
            kind: self.author_kind,
        }
    }

    /// The same schedule in `state`, one revision on.
    pub fn into_state(mut self, state: ScheduleState) -> Self {
        self.state = state;
        self.revision += 1;
        self
    }
}

pub(crate) fn rfc3339_utc<S: Serializer>(at: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&at.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}
