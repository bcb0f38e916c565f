//! What changes between two versions, as dnf sees it: packages (EVRs compared as rpm does),
//! advisories, the filter of the compare page, and the plan of reads that computes a diff at
//! a cost that does not grow with the repository.

pub mod advisory;
pub mod evr;
#[cfg(test)]
mod evr_properties;
pub(crate) mod exact_vec;
pub mod filter;
pub mod package;
pub mod plan;
pub mod version_diff;

pub use advisory::{count_by_type, Advisory, AdvisoryDiff, AdvisoryType};
pub use evr::{rpmvercmp, Evr};
pub use filter::{parse_kind, PackageFilter, UnknownKind};
pub use package::{
    count_kinds, diff_packages, ChangeKind, Package, PackageChange, PackageDifference,
};
pub use plan::{
    compose_steps, filtered_reads, plan_diff_reads, ContentRead, DiffEnd, DiffReads, SideReads,
};
pub use version_diff::{ContentDifference, DiffKey, VersionDiff};
