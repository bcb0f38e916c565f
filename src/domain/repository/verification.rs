//! A repository's verification settings and the badge (and deploy gate) computed from them.

use serde::{Deserialize, Serialize};

/// The metadata checksum a repository publishes with. `None` upstream means "server default".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChecksumType {
    Sha256,
    Sha384,
    Sha512,
    /// A value this console does not consider strong (e.g. `sha1`, `md5`), kept verbatim.
    Other(String),
}

impl ChecksumType {
    pub fn parse(raw: &str) -> Self {
        match raw.to_ascii_lowercase().as_str() {
            "sha256" => Self::Sha256,
            "sha384" => Self::Sha384,
            "sha512" => Self::Sha512,
            _ => Self::Other(raw.to_owned()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            Self::Sha256 => "sha256",
            Self::Sha384 => "sha384",
            Self::Sha512 => "sha512",
            Self::Other(raw) => raw,
        }
    }

    pub fn is_strong(&self) -> bool {
        !matches!(self, Self::Other(_))
    }
}

/// The verification settings of a repository, as read from upstream.
/// `None` means the setting is absent upstream (treated as off).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RepoVerification {
    /// Clients check each package's signature.
    pub gpgcheck: Option<bool>,
    /// Clients check the signature of the repository metadata.
    pub repo_gpgcheck: Option<bool>,
    /// The checksum type of published metadata.
    pub checksum: Option<ChecksumType>,
    /// A metadata signing service is set, so publications carry `repomd.xml.asc`
    /// (`None`: upstream did not say).
    pub metadata_signed: Option<bool>,
}

/// The verification badge of a version; it also gates deployment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Badge {
    /// Every check holds: package signatures, metadata signature and a strong checksum.
    Verified,
    /// Some checks hold, not all.
    Partial,
    /// No check holds.
    Unverified,
}

impl Badge {
    /// The stable hook value (`data-badge`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Verified => "verified",
            Self::Partial => "partial",
            Self::Unverified => "unverified",
        }
    }

    /// What the badge says in words.
    pub fn text(self) -> &'static str {
        match self {
            Self::Verified => "Verified",
            Self::Partial => "Partly verified",
            Self::Unverified => "Not verified",
        }
    }

    /// Only a fully verified version may be deployed.
    pub fn allows_deploy(self) -> bool {
        self == Self::Verified
    }
}

impl RepoVerification {
    /// The individual checks, named as an operator knows them, each with whether it holds.
    pub fn checks(&self) -> [(&'static str, bool); 3] {
        [
            ("gpgcheck", self.gpgcheck == Some(true)),
            ("repo-gpgcheck", self.repo_gpgcheck == Some(true)),
            (
                "checksum",
                self.checksum.as_ref().is_some_and(ChecksumType::is_strong),
            ),
        ]
    }

    /// What clients will really do: with repo-gpgcheck on and no metadata signing service,
    /// the published repository has no `repomd.xml.asc` and every dnf client refuses it.
    pub fn unsigned_metadata(&self) -> bool {
        self.repo_gpgcheck == Some(true) && self.metadata_signed == Some(false)
    }

    pub fn badge(&self) -> Badge {
        let passed = self.checks().iter().filter(|(_, ok)| *ok).count();
        match passed {
            3 => Badge::Verified,
            0 => Badge::Unverified,
            _ => Badge::Partial,
        }
    }

    /// Why deployment is refused, naming the checks that do not hold; `None` when it may go ahead.
    pub fn gate_failure(&self) -> Option<String> {
        let failing: Vec<&str> = self
            .checks()
            .iter()
            .filter(|(_, ok)| !ok)
            .map(|(name, _)| *name)
            .collect();
        (!failing.is_empty()).then(|| {
            format!(
                "verification does not pass: {} not enabled",
                failing.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(
        gpg: Option<bool>,
        repo_gpg: Option<bool>,
        checksum: Option<&str>,
    ) -> RepoVerification {
        RepoVerification {
            gpgcheck: gpg,
            repo_gpgcheck: repo_gpg,
            checksum: checksum.map(ChecksumType::parse),
            metadata_signed: Some(true),
        }
    }

    #[test]
    fn all_checks_on_is_verified_and_deployable() {
        let s = settings(Some(true), Some(true), Some("sha256"));
        assert_eq!(s.badge(), Badge::Verified);
        assert!(s.badge().allows_deploy());
        assert_eq!(s.gate_failure(), None);
    }

    #[test]
    fn some_checks_on_is_partial_and_not_deployable() {
        let s = settings(Some(true), Some(false), Some("sha512"));
        assert_eq!(s.badge(), Badge::Partial);
        assert!(!s.badge().allows_deploy());
        assert_eq!(
            s.gate_failure().unwrap(),
            "verification does not pass: repo-gpgcheck not enabled"
        );
    }

    #[test]
    fn nothing_on_or_absent_is_unverified() {
        assert_eq!(settings(None, None, None).badge(), Badge::Unverified);
        assert_eq!(
            settings(Some(false), Some(false), None).badge(),
            Badge::Unverified
        );
    }

    #[test]
    fn repo_gpgcheck_without_a_signing_service_is_metadata_clients_refuse() {
        let signed = settings(Some(true), Some(true), Some("sha256"));
        assert!(!signed.unsigned_metadata());
        let unsigned = RepoVerification {
            metadata_signed: Some(false),
            ..signed.clone()
        };
        assert!(unsigned.unsigned_metadata());
        let unknown = RepoVerification {
            metadata_signed: None,
            ..signed
        };
        assert!(!unknown.unsigned_metadata());
        let no_repo_gpgcheck = RepoVerification {
            metadata_signed: Some(false),
            ..settings(Some(true), Some(false), Some("sha256"))
        };
        assert!(!no_repo_gpgcheck.unsigned_metadata());
    }

    #[test]
    fn a_weak_checksum_does_not_count() {
        let s = settings(Some(true), Some(true), Some("sha1"));
        assert_eq!(s.badge(), Badge::Partial);
        assert_eq!(ChecksumType::parse("SHA384"), ChecksumType::Sha384);
    }
}
