//! What verification means for an RPM repository, as dnf sees it: three conditions. Clients
//! check each package's signature (`gpgcheck`); the metadata is published with a strong
//! checksum; and the metadata is signed and checked (`repo_gpgcheck`, with a metadata signing
//! service so that publications carry `repomd.xml.asc`), or unchecked where the policy allows
//! it. With `repo_gpgcheck` on and no signing service, every dnf client refuses the repository.

/// What dnf does with an RPM repository's metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DnfMetadata {
    /// `repo_gpgcheck` is on (and the metadata is signed, or upstream did not say): checked.
    Checked,
    /// `repo_gpgcheck` is on but nothing signs the metadata: clients refuse the repository.
    RefusedByClients,
    /// `repo_gpgcheck` off, and the policy allows unchecked metadata.
    UncheckedAllowed,
    /// `repo_gpgcheck` off, and the policy refuses unchecked metadata.
    UncheckedRefused,
}

impl DnfMetadata {
    /// The rule, from the repository's `repo_gpgcheck`, whether a metadata signing service is
    /// set (`None`: upstream did not say, trusted as signed), and the policy.
    pub fn judge(
        repo_gpgcheck: Option<bool>,
        metadata_signed: Option<bool>,
        unsigned_allowed: bool,
    ) -> Self {
        match (repo_gpgcheck == Some(true), unsigned_allowed) {
            (true, _) if metadata_signed == Some(false) => Self::RefusedByClients,
            (true, _) => Self::Checked,
            (false, true) => Self::UncheckedAllowed,
            (false, false) => Self::UncheckedRefused,
        }
    }

    /// The state, as an operator reads it, given whether a signing service signs the metadata.
    pub fn state(self, metadata_signed: Option<bool>) -> String {
        let signed = match metadata_signed {
            Some(true) => "signed by a signing service",
            Some(false) => "not signed",
            None => "signing service unknown",
        };
        match self {
            Self::Checked => format!("{signed}, checked by clients (repo_gpgcheck on)"),
            Self::RefusedByClients => "repo_gpgcheck is on but no metadata signing service is set: clients refuse the repository (no repomd.xml.asc)".to_owned(),
            Self::UncheckedAllowed => format!(
                "{signed}, not checked by clients (repo_gpgcheck off): allowed by the policy"
            ),
            Self::UncheckedRefused => format!(
                "{signed}, not checked by clients (repo_gpgcheck off): the policy refuses unsigned metadata"
            ),
        }
    }

    /// What to do, when the metadata does not pass.
    pub fn fix(self) -> Option<&'static str> {
        match self {
            Self::Checked | Self::UncheckedAllowed => None,
            Self::RefusedByClients => Some(
                "set a metadata_signing_service on the repository and publish again, or turn repo_gpgcheck off where the policy allows unsigned metadata ([verification] unsigned_metadata = \"allow\")",
            ),
            Self::UncheckedRefused => Some(
                "set a metadata_signing_service and turn repo_gpgcheck on, then publish again, or allow unsigned metadata ([verification] unsigned_metadata = \"allow\")",
            ),
        }
    }
}

/// What `gpgcheck` on or off means for dnf's clients.
pub fn gpgcheck_state(on: bool) -> &'static str {
    if on {
        "on: clients check each package's signature"
    } else {
        "off: clients install packages without checking their signatures"
    }
}

/// What to do when `gpgcheck` is off.
pub const GPGCHECK_FIX: &str = "turn gpgcheck on in the repository's repo_config (pulp rpm repository update --repo-config '{\"gpgcheck\": 1, ...}')";

/// What to do when the metadata checksum is weak or not set.
pub const CHECKSUM_FIX: &str =
    "set the repository's checksum_type to sha256 (or sha384, sha512), then publish again";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_gpgcheck_without_a_signing_service_is_refused_by_dnf_whatever_the_policy() {
        for allowed in [true, false] {
            assert_eq!(
                DnfMetadata::judge(Some(true), Some(false), allowed),
                DnfMetadata::RefusedByClients
            );
        }
        assert_eq!(
            DnfMetadata::judge(Some(true), None, false),
            DnfMetadata::Checked,
            "a signing service upstream did not name is trusted"
        );
    }

    #[test]
    fn unchecked_metadata_follows_the_policy_and_says_how_to_fix_it() {
        assert_eq!(
            DnfMetadata::judge(None, Some(true), true),
            DnfMetadata::UncheckedAllowed
        );
        let refused = DnfMetadata::judge(Some(false), Some(true), false);
        assert_eq!(refused, DnfMetadata::UncheckedRefused);
        assert!(refused.fix().unwrap().contains("unsigned_metadata"));
        assert!(refused
            .state(Some(true))
            .starts_with("signed by a signing service"));
        assert_eq!(DnfMetadata::Checked.fix(), None);
    }
}
