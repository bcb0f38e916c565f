//! Why a deploy is made: a forward deploy, or a rollback to a version production served
//! before. A rollback always carries the operator's reason (it is required).

use serde::{Deserialize, Serialize};

use crate::domain::deploy::Refusal;

/// The longest reason kept, in characters (one audit line stays short).
pub const REASON_MAX_CHARS: usize = 500;

/// The operator's reason for a change: trimmed, never empty, at most [`REASON_MAX_CHARS`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason(String);

impl Reason {
    /// The reason typed into the form, or why it is refused.
    pub fn parse(raw: &str) -> Result<Self, Refusal> {
        let text = raw.trim();
        if text.is_empty() {
            return Err(Refusal::ReasonMissing);
        }
        if text.chars().count() > REASON_MAX_CHARS {
            return Err(Refusal::ReasonTooLong(REASON_MAX_CHARS));
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The kind of a change to production, as the audit log records it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeployKind {
    /// Lines written before kinds existed read as deploys.
    #[default]
    Deploy,
    Rollback,
}

/// What the operator means by a deploy request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    /// A forward deploy, with the operator's reason when given (required to override a
    /// freeze).
    Deploy(Option<Reason>),
    /// Back to a version production served before, for the given reason.
    Rollback(Reason),
}

impl Intent {
    pub fn kind(&self) -> DeployKind {
        match self {
            Self::Deploy(_) => DeployKind::Deploy,
            Self::Rollback(_) => DeployKind::Rollback,
        }
    }

    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Deploy(reason) => reason.as_ref().map(Reason::as_str),
            Self::Rollback(reason) => Some(reason.as_str()),
        }
    }
}

/// A refusal as the operator should read it for this kind of change: a rollback target
/// that no longer exists was deleted by Pulp (`retain_repo_versions`), not mistyped.
pub fn refusal_for(kind: DeployKind, refusal: Refusal) -> Refusal {
    match (kind, refusal) {
        (DeployKind::Rollback, Refusal::UnknownVersion(n)) => Refusal::RollbackTargetGone(n),
        (_, refusal) => refusal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_trimmed_and_required() {
        assert_eq!(
            Reason::parse("  broke dnf \n").unwrap().as_str(),
            "broke dnf"
        );
        assert_eq!(Reason::parse(" \t"), Err(Refusal::ReasonMissing));
        assert_eq!(Reason::parse(""), Err(Refusal::ReasonMissing));
    }

    #[test]
    fn a_reason_longer_than_the_limit_is_refused_counting_characters() {
        let longest = "é".repeat(REASON_MAX_CHARS);
        assert!(Reason::parse(&longest).is_ok());
        let too_long = "é".repeat(REASON_MAX_CHARS + 1);
        assert_eq!(
            Reason::parse(&too_long),
            Err(Refusal::ReasonTooLong(REASON_MAX_CHARS))
        );
    }

    #[test]
    fn an_intent_names_its_kind_and_reason() {
        let rollback = Intent::Rollback(Reason::parse("bad update").unwrap());
        assert_eq!(rollback.kind(), DeployKind::Rollback);
        assert_eq!(rollback.reason(), Some("bad update"));
        assert_eq!(Intent::Deploy(None).kind(), DeployKind::Deploy);
        assert_eq!(Intent::Deploy(None).reason(), None);
        let reasoned = Intent::Deploy(Some(Reason::parse("CVE fix").unwrap()));
        assert_eq!(reasoned.reason(), Some("CVE fix"));
    }

    #[test]
    fn a_missing_rollback_target_reads_as_deleted_by_pulp() {
        let gone = refusal_for(DeployKind::Rollback, Refusal::UnknownVersion(3));
        assert_eq!(gone, Refusal::RollbackTargetGone(3));
        assert!(gone.to_string().contains("retain_repo_versions"), "{gone}");
        let deploy = refusal_for(DeployKind::Deploy, Refusal::UnknownVersion(3));
        assert_eq!(deploy, Refusal::UnknownVersion(3));
    }
}
