//! The rules of Debian packages: how their versions are ordered, as `dpkg --compare-versions`
//! orders them (`version.rs`), and what verification means where apt is the client
//! (`verification.rs`).

pub mod verification;
pub mod version;
