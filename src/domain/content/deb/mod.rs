//! The rules of Debian packages: how their versions are ordered, as `dpkg --compare-versions`
//! orders them (`version.rs`), and what verification means where apt is the client
//! (`verification.rs`). Debian packages carry no advisories.

pub mod verification;
pub mod version;

/// Debian repositories carry no advisories: apt has no errata, so a version is never asked
/// for them.
pub const CARRIES_ADVISORIES: bool = false;
