//! The rules of RPM packages, where dnf, yum and zypper are the clients: how their versions
//! are ordered, as rpm orders them (`version.rs`), what verification means for dnf
//! (`verification.rs`), and that they carry advisories (errata, pulp_rpm's `updateinfo`).

pub mod verification;
pub mod version;

/// RPM repositories carry advisories (errata): a version is asked for them.
pub const CARRIES_ADVISORIES: bool = true;
