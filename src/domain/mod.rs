//! The pure core: the rules of versions, verification, deployment and audit.
//!
//! Nothing here performs I/O, reads a clock or knows about HTTP: every function takes
//! what it needs as arguments, so every rule is unit-tested in isolation.

pub mod approval;
pub mod check;
pub mod deploy;
pub mod diff;
pub mod edge;
pub mod environment;
pub mod event;
pub mod exposure;
pub mod history;
pub mod identity;
pub mod policy;
pub mod promotion;
#[cfg(test)]
mod properties;
pub mod record_keys;
pub mod release;
pub mod repository;
pub mod schedule;
pub mod sync;

pub use approval::request::{
    check_approval, check_cancel, check_reject, Actor, ApprovalRequest, ApprovalTrail,
    ExecutionOutcome, ReleaseRequest, RequestEvent, RequestId, RequestLog, RequestRefusal,
    RequestState, ScheduledFor,
};
pub use deploy::ask::{intent_of, DeployAsk};
pub use deploy::intent::{refusal_for, DeployKind, Intent, Reason, REASON_MAX_CHARS};
pub use deploy::plan::{
    check_confirmation, check_request, check_unmoved, find_deployed, plan_deploy, production_state,
    Confirmation, DeployFacts, DeployPlan, DeployRequest, Deployed, ProductionChanged,
    ProductionState, ProductionTarget, SeenLive,
};
pub use deploy::record::{
    versions_served, AuditOutcome, Authority, Automation, CheckTrigger, ChecksOverride, DeployId,
    DeployRecord, FreezeOverride, ScheduleMark, SoakOverride,
};
pub use deploy::refusal::{Refusal, SoakRefusal};
pub use deploy::verdict::{needs_reread, production_changed, Reread, WriteVerdict};
pub use diff::advisory::{count_by_type, Advisory, AdvisoryDiff, AdvisoryType};
pub use diff::evr::{rpmvercmp, Evr};
pub use diff::filter::{parse_kind, PackageFilter, UnknownKind};
pub use diff::package::{
    count_kinds, diff_packages, ChangeKind, Package, PackageChange, PackageDifference,
};
pub use diff::plan::{
    compose_steps, filtered_reads, plan_diff_reads, ContentRead, DiffEnd, DiffReads, SideReads,
};
pub use diff::version_diff::{ContentDifference, DiffKey, VersionDiff};
pub use environment::lookup::UnknownEnvironment;
pub use environment::path::{
    ahead_by, promotion_check, DistributionNaming, Environment, EnvironmentName, EnvironmentPath,
    InvalidEnvironmentName, InvalidPath, InvalidPattern, NamePattern, PromotionCheck,
};
pub use event::console_event::{
    ConsoleEvent, DeploymentData, DriftData, EventData, EventId, EventKind, RepositoryRef,
    RequestData, SyncFailedData, UnknownEvent,
};
pub use event::delivery::{Delivery, NextAttempt, RetryPolicy, Settlement};
pub use event::webhook::{subscribers, InvalidWebhookUrl, Subscription, WebhookUrl};
pub use exposure::cve_index::{CveIndex, Fill, IndexedAdvisory};
pub use exposure::judge::{judge_advisories, judge_package, AdvisoryFix, Judgement};
pub use exposure::query::{BadExposureQuery, CveId, EvrBound, ExposureQuery, RawQuery};
pub use exposure::state::{count_states, counts_in_words, ExposureState};
pub use history::change::{ChangeState, DistributionChange, WholeRecord};
pub use history::timeline::{
    build_history, detect_drift, drift_baseline, Drift, EntryOutcome, HistoryEntry, Origin,
};
pub use identity::group::GroupName;
pub use identity::matching::CaseMatching;
pub use identity::operator::{InvalidOperator, MissingScope, Operator, TokenGrant};
pub use identity::person::{InvalidName, PersonKey, PersonName};
pub use identity::scope::{InvalidScope, Reach, Scope};
pub use policy::authority::{ActorKind, Lapsed, RecordedAuthor, TokenRoster, TokenStanding};
pub use policy::freeze::{
    active, Freeze, FreezeDuration, FreezeWindow, Interval, InvalidFreeze, Occurrence, Recurring,
    Until,
};
pub use policy::gate::{
    Allowed, Approvals, Denied, Gate, GateRefusal, InvalidSubject, NotListed, Policy, Subject,
};
pub use policy::soak::{check_soak, served_since, InvalidSoak, PreviousServing, SoakTime, Soaking};
pub use release::ask::{ReleaseAsk, ReleaseConfirmation};
pub use release::catalog::{InvalidRelease, Release, Releases};
pub use release::drift::{release_drift, MemberDrift};
pub use release::id::{ReleaseId, ReleaseRef};
pub use release::name::ReleaseName;
pub use release::outcome::{after_restore, MemberOutcome, ServedSet};
pub use release::record::{MemberLine, ReleaseLine, ReleaseRecord};
pub use release::refusal::ReleaseRefusal;
pub use release::set::{proposed_set, ProposedSet};
pub use repository::href::{
    DistributionHref, InvalidRepoId, PublicationHref, RemoteHref, RepoId, TaskHref, VersionHref,
};
pub use repository::model::{
    Distribution, DistributionRevision, Publication, RepoVersion, Repository,
};
pub use repository::retention::{retention_risk, RetentionRisk, SYNCS_AHEAD};
pub use repository::screen::{Screen, VERSIONS_PER_SCREEN};
pub use repository::verification::{
    Badge, ChecksumType, Condition, MetadataState, RepoVerification, UnsignedMetadata,
};
pub use repository::version_number::{newest_first, VersionNumber};
pub use repository::version_view::{build_version_views, signed, VersionView};
pub use schedule::model::{Claim, Schedule, ScheduleId, ScheduleState};
pub use schedule::rules::{Due, ScheduleRefusal};
pub use sync::state::{short_reason, SyncFailure, SyncProgress, SyncState};
pub use sync::task::{sync_state, ProgressReport, TaskReport, TaskState};
