//! The pure core: the rules of versions, verification, deployment and audit.
//!
//! Nothing here performs I/O, reads a clock or knows about HTTP: every function takes
//! what it needs as arguments, so every rule is unit-tested in isolation.

pub mod advisory;
pub mod approval;
pub mod audit;
pub mod change;
pub mod delivery;
pub mod deployment;
pub mod diff_plan;
pub mod environment;
pub mod event;
mod event_data;
pub mod evr;
#[cfg(test)]
mod evr_properties;
mod exact_vec;
pub mod freeze;
pub mod history;
pub mod href;
pub mod intent;
pub mod operator;
pub mod package_diff;
pub mod package_filter;
pub mod policy;
#[cfg(test)]
mod properties;
pub mod refusal;
pub mod repository;
pub mod request_id;
pub mod retention;
pub mod screen;
pub mod sync;
pub mod task;
pub mod verification;
pub mod version;
pub mod version_diff;
pub mod version_number;
pub mod webhook;
pub mod write;

pub use advisory::{count_by_type, Advisory, AdvisoryDiff, AdvisoryType};
pub use approval::{
    check_approval, check_cancel, check_reject, ApprovalRequest, ApprovalTrail, ExecutionOutcome,
    RequestEvent, RequestId, RequestLog, RequestRefusal, RequestState,
};
pub use audit::{versions_served, AuditOutcome, Authority, DeployId, DeployRecord, FreezeOverride};
pub use change::{ChangeState, DistributionChange, WholeRecord};
pub use delivery::{Delivery, NextAttempt, RetryPolicy, Settlement};
pub use deployment::{
    check_confirmation, check_request, check_unmoved, find_deployed, plan_deploy, production_state,
    Confirmation, DeployFacts, DeployPlan, DeployRequest, Deployed, ProductionChanged,
    ProductionState, ProductionTarget, SeenLive,
};
pub use diff_plan::{
    compose_steps, filtered_reads, plan_diff_reads, ContentRead, DiffEnd, DiffReads, SideReads,
};
pub use environment::{
    ahead_by, promotion_check, DistributionNaming, Environment, EnvironmentName, EnvironmentPath,
    InvalidEnvironmentName, InvalidPath, InvalidPattern, NamePattern, PromotionCheck,
};
pub use event::{
    ConsoleEvent, DeploymentData, DriftData, EventData, EventId, EventKind, RepositoryRef,
    RequestData, SyncFailedData, UnknownEvent,
};
pub use evr::{rpmvercmp, Evr};
pub use freeze::{
    active, Freeze, FreezeDuration, FreezeWindow, Interval, InvalidFreeze, Occurrence, Recurring,
    Until,
};
pub use history::{
    build_history, detect_drift, drift_baseline, Drift, EntryOutcome, HistoryEntry, Origin,
};
pub use href::{
    DistributionHref, InvalidRepoId, PublicationHref, RemoteHref, RepoId, TaskHref, VersionHref,
};
pub use intent::{refusal_for, DeployKind, Intent, Reason, REASON_MAX_CHARS};
pub use operator::{InvalidOperator, Operator};
pub use package_diff::{
    count_kinds, diff_packages, ChangeKind, Package, PackageChange, PackageDifference,
};
pub use package_filter::{parse_kind, PackageFilter, UnknownKind};
pub use policy::{Allowed, Approvals, Denied, Gate, GateRefusal, InvalidSubject, Policy, Subject};
pub use refusal::Refusal;
pub use repository::{Distribution, DistributionRevision, Publication, RepoVersion, Repository};
pub use retention::{retention_risk, RetentionRisk, SYNCS_AHEAD};
pub use screen::{Screen, VERSIONS_PER_SCREEN};
pub use sync::{short_reason, SyncFailure, SyncProgress, SyncState};
pub use task::{sync_state, ProgressReport, TaskReport, TaskState};
pub use verification::{Badge, ChecksumType, RepoVerification};
pub use version::{build_version_views, signed, VersionView};
pub use version_diff::{ContentDifference, DiffKey, VersionDiff};
pub use version_number::{newest_first, VersionNumber};
pub use webhook::{subscribers, InvalidWebhookUrl, Subscription, WebhookUrl};
pub use write::{needs_reread, production_changed, Reread, WriteVerdict};
