//! What changes between two versions, as the repository's clients see it: packages (each
//! version compared by its content type's rule), advisories where the type carries them, the filter of the compare page, and the plan of reads that computes a diff at
//! a cost that does not grow with the repository.

pub mod advisory;
pub mod evr;
#[cfg(test)]
mod evr_properties;
pub(crate) mod exact_vec;
pub mod filter;
pub mod over_set;
pub mod package;
pub mod plan;
pub mod version_diff;

pub use advisory::{count_by_type, Advisory, AdvisoryDiff, AdvisoryType};
pub use evr::Evr;
pub use filter::{parse_kind, PackageFilter, UnknownKind};
pub use over_set::ChangesOverSet;
pub use package::{
    count_kinds, diff_packages, ChangeKind, Package, PackageChange, PackageDifference,
};
pub use plan::{
    compose_steps, filtered_reads, plan_diff_reads, ContentRead, DiffEnd, DiffReads, SideReads,
};
pub use version_diff::{AdvisorySides, ContentDifference, DiffKey, VersionDiff};
