//! `verified()`: the verification settings of a repository whose every check is on (gpgcheck,
//! repo_gpgcheck, SHA-256 checksums, signed metadata), as the fixtures of several suites
//! want it. Included with `#[path]`.

use repo_console::domain::repository::{ChecksumType, RepoVerification};

/// Every check on: the repository shows as verified.
pub fn verified() -> RepoVerification {
    RepoVerification {
        gpgcheck: Some(true),
        repo_gpgcheck: Some(true),
        checksum: Some(ChecksumType::Sha256),
        metadata_signed: Some(true),
        ..Default::default()
    }
}
