//! A repository's verification settings and the badge (and deploy gate) computed from them.
//! What the settings mean follows the repository's content type, by its room's rule: dnf's
//! three conditions for RPM ([`crate::domain::content::rpm::verification`]), apt's one for
//! Debian ([`crate::domain::content::deb::verification`]).

use serde::{Deserialize, Serialize};

use crate::domain::content::deb::verification::AptMetadata;
use crate::domain::content::kind::ContentType;
use crate::domain::content::rpm::verification::{
    gpgcheck_state, DnfMetadata, CHECKSUM_FIX, GPGCHECK_FIX,
};

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
    /// The repository's content type: which client's rules the settings are judged by.
    #[serde(default)]
    pub content_type: ContentType,
    /// Clients check each package's signature.
    pub gpgcheck: Option<bool>,
    /// Clients check the signature of the repository metadata.
    pub repo_gpgcheck: Option<bool>,
    /// The checksum type of published metadata.
    pub checksum: Option<ChecksumType>,
    /// A metadata signing service is set, so publications carry `repomd.xml.asc` (RPM) or
    /// `InRelease` and `Release.gpg` (Debian) (`None`: upstream did not say).
    pub metadata_signed: Option<bool>,
}

/// What the policy says of metadata that clients do not check (`repo_gpgcheck` off): dnf then
/// accepts the repository whether its metadata is signed or not, so only the policy can refuse
/// it (`[verification] unsigned_metadata`, per environment possible).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnsignedMetadata {
    /// Unchecked metadata does not pass verification (the default).
    #[default]
    Refuse,
    /// Unchecked metadata passes verification (a team without a signing service).
    Allow,
}

impl UnsignedMetadata {
    /// The value as written in the configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Refuse => "refuse",
            Self::Allow => "allow",
        }
    }

    /// The stricter of two policies (refuse wins).
    pub fn stricter(self, other: Self) -> Self {
        if self == Self::Refuse || other == Self::Refuse {
            Self::Refuse
        } else {
            Self::Allow
        }
    }
}

/// What a dnf client configured as the repository says does with its metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MetadataState {
    /// `repo_gpgcheck` on and a signing service set (or upstream did not say): clients check
    /// the metadata's signature and accept it.
    Checked,
    /// `repo_gpgcheck` on and no signing service: publications have no `repomd.xml.asc`, so
    /// every client refuses the repository.
    RefusedByClients,
    /// `repo_gpgcheck` off, and the policy allows unchecked metadata: clients accept it.
    UncheckedAllowed,
    /// `repo_gpgcheck` off, and the policy refuses unchecked metadata.
    UncheckedRefused,
}

impl MetadataState {
    /// The stable hook value (`data-metadata`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Checked => "checked",
            Self::RefusedByClients => "refused-by-clients",
            Self::UncheckedAllowed => "unchecked-allowed",
            Self::UncheckedRefused => "unchecked-refused",
        }
    }

    /// Whether this passes verification.
    pub fn holds(self) -> bool {
        matches!(self, Self::Checked | Self::UncheckedAllowed)
    }
}

/// One condition of verification, with whether it holds, its state in words and, when it does
/// not hold, the fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Condition {
    /// The stable hook value (`data-check`): `gpgcheck`, `checksum` or `metadata`.
    pub name: &'static str,
    pub ok: bool,
    /// The state, as an operator reads it.
    pub state: String,
    /// One sentence saying what to do, when the condition does not hold.
    pub fix: Option<String>,
}

/// The verification badge of a version; it also gates deployment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Badge {
    /// Every condition holds: a client configured as the repository says accepts it, and
    /// checks what the policy asks.
    Verified,
    /// Some conditions hold, not all.
    Partial,
    /// No condition holds.
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
    /// What clients do with the metadata, under `policy`.
    pub fn metadata(&self, policy: UnsignedMetadata) -> MetadataState {
        if self.content_type == ContentType::Deb {
            return match self.apt_metadata(policy) {
                AptMetadata::Signed => MetadataState::Checked,
                AptMetadata::UnsignedAllowed => MetadataState::UncheckedAllowed,
                AptMetadata::UnsignedRefused => MetadataState::UncheckedRefused,
            };
        }
        match self.dnf_metadata(policy) {
            DnfMetadata::Checked => MetadataState::Checked,
            DnfMetadata::RefusedByClients => MetadataState::RefusedByClients,
            DnfMetadata::UncheckedAllowed => MetadataState::UncheckedAllowed,
            DnfMetadata::UncheckedRefused => MetadataState::UncheckedRefused,
        }
    }

    /// The conditions of verification, in the order the detail lists them. For RPM three:
    /// package signatures checked (`gpgcheck`), a strong checksum type, and metadata clients
    /// accept as the policy asks. For Debian one: signed `Release` files, or unsigned ones
    /// where the policy allows them (apt checks package checksums by construction).
    pub fn conditions(&self, policy: UnsignedMetadata) -> Vec<Condition> {
        match self.content_type {
            ContentType::Rpm => vec![
                self.gpgcheck_condition(),
                self.checksum_condition(),
                self.metadata_condition(policy),
            ],
            ContentType::Deb => {
                let apt = self.apt_metadata(policy);
                vec![Condition {
                    name: "metadata",
                    ok: apt.holds(),
                    state: apt.state().to_owned(),
                    fix: apt.fix().map(str::to_owned),
                }]
            }
        }
    }

    fn apt_metadata(&self, policy: UnsignedMetadata) -> AptMetadata {
        AptMetadata::judge(self.metadata_signed, policy == UnsignedMetadata::Allow)
    }

    fn dnf_metadata(&self, policy: UnsignedMetadata) -> DnfMetadata {
        DnfMetadata::judge(
            self.repo_gpgcheck,
            self.metadata_signed,
            policy == UnsignedMetadata::Allow,
        )
    }

    fn gpgcheck_condition(&self) -> Condition {
        let ok = self.gpgcheck == Some(true);
        Condition {
            name: "gpgcheck",
            ok,
            state: gpgcheck_state(ok).to_owned(),
            fix: (!ok).then(|| GPGCHECK_FIX.to_owned()),
        }
    }

    fn checksum_condition(&self) -> Condition {
        let ok = self.checksum.as_ref().is_some_and(ChecksumType::is_strong);
        let state = match &self.checksum {
            Some(c) if ok => c.as_str().to_owned(),
            Some(c) => format!("{} (weak)", c.as_str()),
            None => "not set".to_owned(),
        };
        Condition {
            name: "checksum",
            ok,
            state,
            fix: (!ok).then(|| CHECKSUM_FIX.to_owned()),
        }
    }

    fn metadata_condition(&self, policy: UnsignedMetadata) -> Condition {
        let dnf = self.dnf_metadata(policy);
        Condition {
            name: "metadata",
            ok: self.metadata(policy).holds(),
            state: dnf.state(self.metadata_signed),
            fix: dnf.fix().map(str::to_owned),
        }
    }

    /// What clients will really do: with repo-gpgcheck on and no metadata signing service,
    /// the published repository has no `repomd.xml.asc` and every dnf client refuses it. (A
    /// Debian repository has no such setting: its one condition says what apt does.)
    pub fn unsigned_metadata(&self) -> bool {
        self.metadata(UnsignedMetadata::Refuse) == MetadataState::RefusedByClients
    }

    /// The badge under `policy`: every condition holds, some, or none.
    pub fn badge(&self, policy: UnsignedMetadata) -> Badge {
        let conditions = self.conditions(policy);
        let passed = conditions.iter().filter(|c| c.ok).count();
        match passed {
            0 => Badge::Unverified,
            n if n == conditions.len() => Badge::Verified,
            _ => Badge::Partial,
        }
    }

    /// Why deployment is refused under `policy`, naming each condition that does not hold and
    /// its fix; `None` when it may go ahead.
    pub fn gate_failure(&self, policy: UnsignedMetadata) -> Option<String> {
        let failing: Vec<String> = self
            .conditions(policy)
            .into_iter()
            .filter(|c| !c.ok)
            .map(|c| format!("{} ({}): {}", c.name, c.state, c.fix.unwrap_or_default()))
            .collect();
        (!failing.is_empty()).then(|| format!("verification does not pass: {}", failing.join("; ")))
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
            ..Default::default()
        }
    }

    fn metadata(repo_gpgcheck: bool, signing_service: bool) -> RepoVerification {
        RepoVerification {
            metadata_signed: Some(signing_service),
            ..settings(Some(true), Some(repo_gpgcheck), Some("sha256"))
        }
    }

    /// The badge's truth table: `repo_gpgcheck` x signing service x the policy, with
    /// `gpgcheck` on and a strong checksum. dnf refuses exactly the row `repo_gpgcheck` on
    /// without a signing service (see `tests/real_pulp/dnf.rs`).
    #[test]
    fn the_badge_follows_what_dnf_does_and_the_policy() {
        use MetadataState::*;
        use UnsignedMetadata::{Allow, Refuse};
        let table = [
            // repo_gpgcheck, signing service, policy => metadata, badge, clients refuse
            (true, true, Refuse, Checked, Badge::Verified, false),
            (true, true, Allow, Checked, Badge::Verified, false),
            (true, false, Refuse, RefusedByClients, Badge::Partial, true),
            (true, false, Allow, RefusedByClients, Badge::Partial, true),
            (false, true, Refuse, UncheckedRefused, Badge::Partial, false),
            (false, true, Allow, UncheckedAllowed, Badge::Verified, false),
            (
                false,
                false,
                Refuse,
                UncheckedRefused,
                Badge::Partial,
                false,
            ),
            (
                false,
                false,
                Allow,
                UncheckedAllowed,
                Badge::Verified,
                false,
            ),
        ];
        for (repo_gpgcheck, signing, policy, state, badge, refused) in table {
            let v = metadata(repo_gpgcheck, signing);
            let cell = (repo_gpgcheck, signing, policy);
            assert_eq!(v.metadata(policy), state, "{cell:?}");
            assert_eq!(v.badge(policy), badge, "{cell:?}");
            assert_eq!(v.unsigned_metadata(), refused, "{cell:?}");
            assert_eq!(
                v.gate_failure(policy).is_none(),
                badge.allows_deploy(),
                "{cell:?}"
            );
        }
    }

    #[test]
    fn every_condition_on_is_verified_and_deployable() {
        let s = settings(Some(true), Some(true), Some("sha256"));
        assert_eq!(s.badge(UnsignedMetadata::Refuse), Badge::Verified);
        assert_eq!(s.gate_failure(UnsignedMetadata::Refuse), None);
        let ok: Vec<(&str, bool)> = s
            .conditions(UnsignedMetadata::Refuse)
            .iter()
            .map(|c| (c.name, c.ok))
            .collect();
        assert_eq!(
            ok,
            [("gpgcheck", true), ("checksum", true), ("metadata", true)]
        );
        assert!(s
            .conditions(UnsignedMetadata::Refuse)
            .iter()
            .all(|c| c.fix.is_none()));
    }

    #[test]
    fn repo_gpgcheck_without_a_signing_service_is_refused_with_its_fix() {
        let refused = metadata(true, false)
            .gate_failure(UnsignedMetadata::Allow)
            .unwrap();
        assert!(
            refused.starts_with("verification does not pass: metadata"),
            "{refused}"
        );
        assert!(refused.contains("clients refuse"), "{refused}");
        assert!(
            refused.contains("set a metadata_signing_service"),
            "{refused}"
        );
        assert!(!refused.contains("gpgcheck (off"), "{refused}");
    }

    #[test]
    fn unchecked_metadata_the_policy_refuses_names_the_policy() {
        let refused = metadata(false, false)
            .gate_failure(UnsignedMetadata::Refuse)
            .unwrap();
        assert!(
            refused.contains("the policy refuses unsigned metadata"),
            "{refused}"
        );
        assert!(
            refused.contains("unsigned_metadata = \"allow\""),
            "{refused}"
        );
    }

    #[test]
    fn an_unknown_signing_service_with_repo_gpgcheck_on_is_trusted_as_checked() {
        let unknown = RepoVerification {
            metadata_signed: None,
            ..metadata(true, true)
        };
        assert_eq!(
            unknown.metadata(UnsignedMetadata::Refuse),
            MetadataState::Checked
        );
        assert!(!unknown.unsigned_metadata());
    }

    #[test]
    fn nothing_on_or_absent_is_unverified() {
        assert_eq!(
            settings(None, None, None).badge(UnsignedMetadata::Refuse),
            Badge::Unverified
        );
        assert_eq!(
            settings(Some(false), Some(false), None).badge(UnsignedMetadata::Refuse),
            Badge::Unverified
        );
        let failure = settings(None, None, None)
            .gate_failure(UnsignedMetadata::Refuse)
            .unwrap();
        for name in ["gpgcheck (off", "checksum (not set", "metadata ("] {
            assert!(failure.contains(name), "{failure}");
        }
    }

    #[test]
    fn a_weak_checksum_does_not_count() {
        let s = settings(Some(true), Some(true), Some("sha1"));
        assert_eq!(s.badge(UnsignedMetadata::Allow), Badge::Partial);
        assert_eq!(ChecksumType::parse("SHA384"), ChecksumType::Sha384);
    }

    #[test]
    fn a_debian_repository_is_judged_by_its_signing_service_and_the_policy_alone() {
        use UnsignedMetadata::{Allow, Refuse};
        let deb = |signed| RepoVerification {
            content_type: ContentType::Deb,
            metadata_signed: signed,
            ..RepoVerification::default()
        };
        // dnf's settings say nothing of apt: absent, they do not count against it.
        assert_eq!(deb(Some(true)).badge(Refuse), Badge::Verified);
        assert_eq!(deb(Some(true)).conditions(Refuse).len(), 1);
        assert_eq!(deb(Some(false)).badge(Allow), Badge::Verified);
        assert_eq!(
            deb(Some(false)).metadata(Allow),
            MetadataState::UncheckedAllowed
        );
        assert_eq!(deb(Some(false)).badge(Refuse), Badge::Unverified);
        assert_eq!(deb(None).badge(Refuse), Badge::Unverified);
        let refusal = deb(Some(false)).gate_failure(Refuse).unwrap();
        assert!(refusal.contains("signing_service"), "{refusal}");
        assert!(refusal.contains("unsigned_metadata"), "{refusal}");
        assert!(deb(Some(true)).gate_failure(Refuse).is_none());
        assert!(!deb(Some(false)).unsigned_metadata());
    }

    #[test]
    fn refuse_is_the_stricter_policy() {
        use UnsignedMetadata::{Allow, Refuse};
        assert_eq!(Allow.stricter(Allow), Allow);
        assert_eq!(Allow.stricter(Refuse), Refuse);
        assert_eq!(Refuse.stricter(Allow), Refuse);
        assert_eq!(UnsignedMetadata::default(), Refuse);
    }
}
