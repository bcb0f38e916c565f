//! Repositories as the console sees them: the repository, its versions and their numbers,
//! Pulp's references (hrefs, ids), the verification settings and their badge, the screens of
//! the versions page, the risk that Pulp's retention removes a version, and upstream's record of a change of a
//! distribution (`change`: who, when, through which task), which sync and history both read.

pub mod change;
pub mod href;
pub mod model;
pub mod retention;
pub mod screen;
pub mod verification;
pub mod version_number;
pub mod version_view;

pub use change::{ChangeState, DistributionChange, WholeRecord};
pub use href::{
    DistributionHref, InvalidRepoId, PublicationHref, RemoteHref, RepoId, TaskHref, VersionHref,
};
pub use model::{Distribution, DistributionRevision, Publication, RepoVersion, Repository};
pub use retention::{retention_risk, RetentionRisk, SYNCS_AHEAD};
pub use screen::{Screen, VERSIONS_PER_SCREEN};
pub use verification::{
    Badge, ChecksumType, Condition, MetadataState, RepoVerification, UnsignedMetadata,
};
pub use version_number::{newest_first, VersionNumber};
pub use version_view::{build_version_views, signed, VersionView};
