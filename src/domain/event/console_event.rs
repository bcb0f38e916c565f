//! The console's events: facts a pipeline, a chat channel or an on-call system wants to hear
//! of (a deploy ended, an environment drifted, a request was made or approved, a
//! synchronization failed). Each is recorded once, under a key naming the fact, then
//! delivered to the webhooks that subscribe to its kind.

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::approval::{ApprovalRequest, ExecutionOutcome, RequestState};
use crate::domain::deploy::DeployRecord;
pub use crate::domain::event::data::{
    DeploymentData, DriftData, RepositoryRef, RequestData, ScheduleData, SyncFailedData,
};
use crate::domain::event::edge_data::EdgeData;
use crate::domain::identity::PersonName;
use crate::domain::pin::{Lift, Pin, PinKey};
use crate::domain::release::ReleaseRecord;
use crate::domain::schedule::{Schedule, ScheduleState};

/// The kinds of event, as subscriptions name them (`deployment.finished`…).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EventKind {
    #[serde(rename = "deployment.finished")]
    DeploymentFinished,
    #[serde(rename = "deployment.failed")]
    DeploymentFailed,
    #[serde(rename = "drift.detected")]
    DriftDetected,
    #[serde(rename = "request.created")]
    RequestCreated,
    #[serde(rename = "request.approved")]
    RequestApproved,
    #[serde(rename = "request.executed")]
    RequestExecuted,
    #[serde(rename = "request.failed")]
    RequestFailed,
    #[serde(rename = "request.stale")]
    RequestStale,
    #[serde(rename = "request.scheduled")]
    RequestScheduled,
    #[serde(rename = "sync.failed")]
    SyncFailed,
    #[serde(rename = "release.finished")]
    ReleaseFinished,
    #[serde(rename = "release.failed")]
    ReleaseFailed,
    #[serde(rename = "schedule.refused")]
    ScheduleRefused,
    #[serde(rename = "schedule.failed")]
    ScheduleFailed,
    #[serde(rename = "pin.set")]
    PinSet,
    #[serde(rename = "pin.lifted")]
    PinLifted,
    #[serde(rename = "edge.behind")]
    EdgeBehind,
    #[serde(rename = "edge.failed")]
    EdgeFailed,
    #[serde(rename = "edge.drift")]
    EdgeDrift,
}

/// A name that is not one of the kinds of event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an event; the events are: {names}", names = EventKind::names())]
pub struct UnknownEvent(pub String);

impl EventKind {
    /// Every kind, in the order the book lists them (reference/webhook-events.md).
    pub const ALL: [Self; 19] = [
        Self::DeploymentFinished,
        Self::DeploymentFailed,
        Self::DriftDetected,
        Self::RequestCreated,
        Self::RequestApproved,
        Self::RequestExecuted,
        Self::RequestFailed,
        Self::RequestStale,
        Self::RequestScheduled,
        Self::SyncFailed,
        Self::ReleaseFinished,
        Self::ReleaseFailed,
        Self::ScheduleRefused,
        Self::ScheduleFailed,
        Self::PinSet,
        Self::PinLifted,
        Self::EdgeBehind,
        Self::EdgeFailed,
        Self::EdgeDrift,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::DeploymentFinished => "deployment.finished",
            Self::DeploymentFailed => "deployment.failed",
            Self::DriftDetected => "drift.detected",
            Self::RequestCreated => "request.created",
            Self::RequestApproved => "request.approved",
            Self::RequestExecuted => "request.executed",
            Self::RequestFailed => "request.failed",
            Self::RequestStale => "request.stale",
            Self::RequestScheduled => "request.scheduled",
            Self::SyncFailed => "sync.failed",
            Self::ReleaseFinished => "release.finished",
            Self::ReleaseFailed => "release.failed",
            Self::ScheduleRefused => "schedule.refused",
            Self::ScheduleFailed => "schedule.failed",
            Self::PinSet => "pin.set",
            Self::PinLifted => "pin.lifted",
            Self::EdgeBehind => "edge.behind",
            Self::EdgeFailed => "edge.failed",
            Self::EdgeDrift => "edge.drift",
        }
    }

    pub fn parse(text: &str) -> Result<Self, UnknownEvent> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text)
            .ok_or_else(|| UnknownEvent(text.to_owned()))
    }

    /// The CloudEvents `type`: `io.repo-console.<event>`.
    pub fn cloudevents_type(self) -> String {
        format!("io.repo-console.{}", self.as_str())
    }

    fn names() -> String {
        Self::ALL.map(Self::as_str).join(", ")
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Names one event; the same across every delivery attempt, so receivers can deduplicate.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EventId(String);

impl EventId {
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What happened, with its data; the variant is the kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum EventData {
    #[serde(rename = "deployment.finished")]
    DeploymentFinished(DeploymentData),
    #[serde(rename = "deployment.failed")]
    DeploymentFailed(DeploymentData),
    #[serde(rename = "drift.detected")]
    DriftDetected(DriftData),
    #[serde(rename = "request.created")]
    RequestCreated(RequestData),
    #[serde(rename = "request.approved")]
    RequestApproved(RequestData),
    /// The last event of a request whose deploy ran and deployed.
    #[serde(rename = "request.executed")]
    RequestExecuted(RequestData),
    /// The last event of a request whose deploy was refused or failed (`outcome` says how).
    #[serde(rename = "request.failed")]
    RequestFailed(RequestData),
    /// The last event of a request whose environment moved since it was made.
    #[serde(rename = "request.stale")]
    RequestStale(RequestData),
    /// A scheduled request's approvals are complete: its deploy runs at the schedule's time.
    #[serde(rename = "request.scheduled")]
    RequestScheduled(RequestData),
    #[serde(rename = "sync.failed")]
    SyncFailed(SyncFailedData),
    /// A release promotion whose every member now serves its target.
    #[serde(rename = "release.finished")]
    ReleaseFinished(ReleaseRecord),
    /// A release promotion that stopped: each member's outcome says where it is.
    #[serde(rename = "release.failed")]
    ReleaseFailed(ReleaseRecord),
    /// A scheduled deploy refused at its time (nothing moved).
    #[serde(rename = "schedule.refused")]
    ScheduleRefused(ScheduleData),
    /// A scheduled deploy that failed at its time, or whose end is unknown.
    #[serde(rename = "schedule.failed")]
    ScheduleFailed(ScheduleData),
    /// A rollback pinned an environment of a repository to the version it restored.
    #[serde(rename = "pin.set")]
    PinSet(Pin),
    /// A pin no longer holds: a person's deploy moved the environment, or someone unpinned it.
    #[serde(rename = "pin.lifted")]
    PinLifted(Lift),
    /// An edge has not served what production serves for longer than
    /// `edge_replication.behind_alert_secs`: once per edge, distribution and production digest.
    #[serde(rename = "edge.behind")]
    EdgeBehind(EdgeData),
    /// An edge's replication failed: once per change of its state to `failed`.
    #[serde(rename = "edge.failed")]
    EdgeFailed(EdgeData),
    /// An edge serves metadata production never served: once per change of its state to
    /// `other`.
    #[serde(rename = "edge.drift")]
    EdgeDrift(EdgeData),
}

impl EventData {
    /// The event of a deploy's audit line: finished or failed for its outcome line, `None`
    /// for its `started` line.
    pub fn deployment(record: &DeployRecord) -> Option<Self> {
        let data = DeploymentData::of_outcome(record)?;
        Some(if data.finished() {
            Self::DeploymentFinished(data)
        } else {
            Self::DeploymentFailed(data)
        })
    }

    /// The release line of a promotion: finished when every member serves its target.
    pub fn release(record: &ReleaseRecord) -> Self {
        if record.finished() {
            Self::ReleaseFinished(record.clone())
        } else {
            Self::ReleaseFailed(record.clone())
        }
    }

    /// The event of a schedule that ended refused or failed (`None` for any other state).
    pub fn schedule_ended(schedule: &Schedule) -> Option<Self> {
        let data = ScheduleData::ended(schedule)?;
        Some(match schedule.state {
            ScheduleState::Refused { .. } => Self::ScheduleRefused(data),
            _ => Self::ScheduleFailed(data),
        })
    }

    /// A request was made.
    pub fn request_created(request: &ApprovalRequest) -> Self {
        Self::RequestCreated(RequestData::of(request, Vec::new()))
    }

    /// A scheduled request's approvals are complete (`approvers`, in order): its deploy runs
    /// at the schedule's time.
    pub fn request_scheduled(request: &ApprovalRequest, approvers: Vec<PersonName>) -> Self {
        Self::RequestScheduled(RequestData::of(request, approvers))
    }

    /// A request's approvals are complete (`approvers`, in order): its deploy runs now.
    pub fn request_approved(request: &ApprovalRequest, approvers: Vec<PersonName>) -> Self {
        Self::RequestApproved(RequestData::of(request, approvers))
    }

    /// The last event of a request, for how it ended (`None` while it is open or running:
    /// its end is reported once it is known).
    pub fn request_ended(request: &ApprovalRequest, state: &RequestState) -> Option<Self> {
        let data = RequestData::of(request, state.approvers().to_vec());
        match state {
            RequestState::Executed {
                deploy_id,
                outcome: ExecutionOutcome::Deployed,
                ..
            } => Some(Self::RequestExecuted(data.ended(Some(deploy_id), None))),
            RequestState::Executed {
                deploy_id,
                outcome: ExecutionOutcome::Failed { message },
                ..
            } => Some(Self::RequestFailed(
                data.ended(Some(deploy_id), Some(message.clone())),
            )),
            RequestState::Stale { now_serving } => Some(Self::RequestStale(data.ended(
                None,
                Some(format!(
                    "{} now serves {now_serving}; the request was made against {}",
                    request.environment,
                    request
                        .asked_against
                        .map_or_else(|| "nothing".to_owned(), |v| format!("v{v}"))
                )),
            ))),
            _ => None,
        }
    }

    pub fn kind(&self) -> EventKind {
        match self {
            Self::DeploymentFinished(_) => EventKind::DeploymentFinished,
            Self::DeploymentFailed(_) => EventKind::DeploymentFailed,
            Self::DriftDetected(_) => EventKind::DriftDetected,
            Self::RequestCreated(_) => EventKind::RequestCreated,
            Self::RequestApproved(_) => EventKind::RequestApproved,
            Self::RequestExecuted(_) => EventKind::RequestExecuted,
            Self::RequestFailed(_) => EventKind::RequestFailed,
            Self::RequestStale(_) => EventKind::RequestStale,
            Self::RequestScheduled(_) => EventKind::RequestScheduled,
            Self::SyncFailed(_) => EventKind::SyncFailed,
            Self::ReleaseFinished(_) => EventKind::ReleaseFinished,
            Self::ReleaseFailed(_) => EventKind::ReleaseFailed,
            Self::ScheduleRefused(_) => EventKind::ScheduleRefused,
            Self::ScheduleFailed(_) => EventKind::ScheduleFailed,
            Self::PinSet(_) => EventKind::PinSet,
            Self::PinLifted(_) => EventKind::PinLifted,
            Self::EdgeBehind(_) => EventKind::EdgeBehind,
            Self::EdgeFailed(_) => EventKind::EdgeFailed,
            Self::EdgeDrift(_) => EventKind::EdgeDrift,
        }
    }

    /// The fact this event reports, named so that seeing it again (on another replica, after
    /// a restart, at the next check) is known to be the same fact: one event per deploy
    /// outcome, per request made, approved or ended, per failed synchronization task, per outside
    /// change of a distribution.
    pub fn fact(&self) -> String {
        match self {
            Self::DeploymentFinished(d) | Self::DeploymentFailed(d) => {
                format!("deployment:{}", d.deploy_id.as_str())
            }
            Self::DriftDetected(d) => format!("drift:{}", d.change),
            Self::RequestCreated(r) => format!("request.created:{}", r.request_id),
            Self::RequestApproved(r) => format!("request.approved:{}", r.request_id),
            Self::RequestScheduled(r) => format!("request.scheduled:{}", r.request_id),
            // A request ends once: one last event, whichever replica saw the end.
            Self::RequestExecuted(r) | Self::RequestFailed(r) | Self::RequestStale(r) => {
                format!("request.ended:{}", r.request_id)
            }
            Self::SyncFailed(s) => format!("sync.failed:{}", s.task),
            Self::ReleaseFinished(r) | Self::ReleaseFailed(r) => {
                format!("release:{}", r.release.id.as_str())
            }
            // A schedule ends once, whichever replica ran it.
            Self::ScheduleRefused(s) | Self::ScheduleFailed(s) => {
                format!("schedule.ended:{}", s.schedule_id)
            }
            // A pin is set once by its rollback, and lifted once at a time.
            Self::PinSet(pin) => format!("pin.set:{}:{}", pin.key(), pin.deploy_id.as_str()),
            Self::PinLifted(lift) => format!(
                "pin.lifted:{}:{}",
                PinKey::new(lift.repository.clone(), lift.environment.clone()),
                lift.at.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true)
            ),
            // Behind once for each digest production moved to; failed once per change of
            // state and digest production serves, drift once per change of state and digest
            // the edge serves, each named by when it was judged so.
            Self::EdgeBehind(e) => format!(
                "edge.behind:{}:{}:{}",
                e.edge, e.distribution, e.central_digest
            ),
            Self::EdgeFailed(e) => format!(
                "edge.failed:{}:{}:{}@{}",
                e.edge,
                e.distribution,
                e.central_digest,
                e.since.to_rfc3339()
            ),
            Self::EdgeDrift(e) => format!(
                "edge.drift:{}:{}:{}@{}",
                e.edge,
                e.distribution,
                e.edge_digest.as_deref().unwrap_or("none"),
                e.since.to_rfc3339()
            ),
        }
    }
}

/// One event as the console records it before delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsoleEvent {
    pub id: EventId,
    /// When the console learnt the fact.
    pub time: DateTime<Utc>,
    #[serde(flatten)]
    pub data: EventData,
}

impl ConsoleEvent {
    pub fn kind(&self) -> EventKind {
        self.data.kind()
    }

    /// See [`EventData::fact`].
    pub fn fact(&self) -> String {
        self.data.fact()
    }
}

#[cfg(test)]
#[path = "console_event_tests.rs"]
mod tests;
