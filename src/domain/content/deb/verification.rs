//! What verification means for a Debian repository, as apt sees it.
//!
//! apt checks the signature of a distribution's `Release` file (`InRelease` or `Release.gpg`)
//! on every `apt-get update` and refuses a repository without one unless its sources line says
//! `[trusted=yes]`; the `Release` file carries SHA-256 sums of every index, and the indexes
//! those of every package, so the checksum is strong by construction. pulp_deb signs a
//! publication's `Release` files when the repository has a signing service. So one condition
//! decides: signed metadata, or unsigned metadata where the policy allows it.

/// What apt does with a Debian repository's metadata, given whether a signing service signs
/// it and whether the policy allows unsigned metadata (`[verification] unsigned_metadata`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AptMetadata {
    /// A signing service signs the `Release` files: apt checks them.
    Signed,
    /// No signing service (or upstream did not say), and the policy allows unsigned metadata:
    /// apt takes it only from sources marked `[trusted=yes]`.
    UnsignedAllowed,
    /// No signing service (or upstream did not say), and the policy refuses unsigned metadata.
    UnsignedRefused,
}

impl AptMetadata {
    /// The rule: `signed` is whether the repository has a signing service (`None`: upstream did
    /// not say, taken as unsigned, since apt would refuse it).
    pub fn judge(signed: Option<bool>, unsigned_allowed: bool) -> Self {
        match (signed, unsigned_allowed) {
            (Some(true), _) => Self::Signed,
            (_, true) => Self::UnsignedAllowed,
            (_, false) => Self::UnsignedRefused,
        }
    }

    /// Whether this passes verification.
    pub fn holds(self) -> bool {
        self != Self::UnsignedRefused
    }

    /// The state, as an operator reads it.
    pub fn state(self) -> &'static str {
        match self {
            Self::Signed => "Release files signed by the repository's signing service (InRelease, Release.gpg), checked by apt",
            Self::UnsignedAllowed => "not signed: apt accepts it only from sources marked [trusted=yes]; allowed by the policy",
            Self::UnsignedRefused => "not signed: apt refuses it unless sources are marked [trusted=yes]; the policy refuses unsigned metadata",
        }
    }

    /// What to do, when verification does not pass.
    pub fn fix(self) -> Option<&'static str> {
        (self == Self::UnsignedRefused).then_some(
            "set a signing_service on the Debian repository in Pulp (an AptReleaseSigningService), then publish again, or allow unsigned metadata ([verification] unsigned_metadata = \"allow\")",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_metadata_passes_whatever_the_policy_and_unsigned_only_where_allowed() {
        use AptMetadata::*;
        for (signed, allowed, state) in [
            (Some(true), false, Signed),
            (Some(true), true, Signed),
            (Some(false), true, UnsignedAllowed),
            (Some(false), false, UnsignedRefused),
            (None, true, UnsignedAllowed),
            (None, false, UnsignedRefused),
        ] {
            let judged = AptMetadata::judge(signed, allowed);
            assert_eq!(judged, state, "{signed:?} {allowed}");
            assert_eq!(judged.holds(), state != UnsignedRefused);
            assert_eq!(judged.fix().is_some(), !judged.holds());
        }
    }
}
