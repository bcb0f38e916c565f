//! The pure core: the rules of versions, verification, deployment and audit.
//!
//! Nothing here performs I/O, reads a clock or knows about HTTP: every function takes
//! what it needs as arguments, so every rule is unit-tested in isolation.

pub mod audit;
pub mod deployment;
pub mod href;
pub mod operator;
#[cfg(test)]
mod properties;
pub mod repository;
pub mod sync;
pub mod verification;
pub mod version;
pub mod write;

pub use audit::{AuditOutcome, DeployId, DeployRecord};
pub use deployment::{
    check_confirmation, check_request, check_unmoved, find_deployed, plan_deploy, production_state,
    DeployFacts, DeployPlan, DeployRequest, Deployed, ProductionChanged, ProductionState,
    ProductionTarget, Refusal, SeenLive,
};
pub use href::{
    DistributionHref, InvalidRepoId, PublicationHref, RemoteHref, RepoId, TaskHref, VersionHref,
};
pub use operator::{InvalidOperator, Operator};
pub use repository::{Distribution, Publication, RepoVersion, Repository};
pub use sync::{short_reason, SyncProgress, SyncState};
pub use verification::{Badge, ChecksumType, RepoVerification};
pub use version::{build_version_views, newest_first, signed, VersionNumber, VersionView};
pub use write::{needs_reread, production_changed, Reread, WriteVerdict};
