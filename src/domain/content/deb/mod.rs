//! The rules of Debian packages: how their versions are ordered, as `dpkg --compare-versions`
//! orders them (`version.rs`).

pub mod version;
