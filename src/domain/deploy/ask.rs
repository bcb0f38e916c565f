//! A deploy as the page's form and the JSON API ask it, its reason not yet checked: the one
//! builder of a [`DeployRequest`] for both.

use crate::domain::deploy::{Confirmation, DeployRequest, Intent, Reason, Refusal, SeenLive};
use crate::domain::environment::EnvironmentName;
use crate::domain::repository::VersionNumber;

/// What a deploy form or API body says, once its fields are parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeployAsk<'a> {
    pub target: VersionNumber,
    pub environment: EnvironmentName,
    pub confirm: Confirmation,
    pub seen_live: SeenLive,
    /// A rollback (which needs a reason) rather than a deploy.
    pub rollback: bool,
    /// The reason as typed; blank is none.
    pub reason: Option<&'a str>,
    /// Through the environment's freeze (those the policy lists in its `override`).
    pub override_freeze: bool,
}

impl DeployAsk<'_> {
    /// The request, or why it is refused before anything is read: a rollback without a
    /// reason, or a reason too long.
    pub fn request(self) -> Result<DeployRequest, Refusal> {
        Ok(DeployRequest {
            intent: intent_of(self.rollback, self.reason)?,
            target: self.target,
            environment: self.environment,
            confirm: self.confirm,
            seen_live: self.seen_live,
            override_freeze: self.override_freeze,
        })
    }
}

/// A rollback needs its reason; a deploy's is optional (blank: none).
pub fn intent_of(rollback: bool, reason: Option<&str>) -> Result<Intent, Refusal> {
    let reason = reason.unwrap_or_default();
    match (rollback, reason.trim().is_empty()) {
        (false, true) => Ok(Intent::Deploy(None)),
        (false, false) => Reason::parse(reason).map(|r| Intent::Deploy(Some(r))),
        (true, _) => Reason::parse(reason).map(Intent::Rollback),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(rollback: bool, reason: Option<&str>) -> Result<DeployRequest, Refusal> {
        DeployAsk {
            target: VersionNumber::new(4),
            environment: EnvironmentName::production(),
            confirm: Confirmation::ExpectedCurrent,
            seen_live: SeenLive::NotSent,
            rollback,
            reason,
            override_freeze: false,
        }
        .request()
    }

    #[test]
    fn a_rollback_needs_its_reason_and_a_deploy_may_give_one() {
        let intent = |rollback, reason| ask(rollback, reason).map(|r| r.intent);
        assert_eq!(intent(false, Some("  ")), Ok(Intent::Deploy(None)));
        assert_eq!(intent(false, None), Ok(Intent::Deploy(None)));
        let reasoned = intent(false, Some(" CVE fix ")).unwrap();
        assert_eq!(reasoned.reason(), Some("CVE fix"));
        assert_eq!(intent(true, None), Err(Refusal::ReasonMissing));
        assert_eq!(intent(true, Some("  ")), Err(Refusal::ReasonMissing));
        let rollback = intent(true, Some(" v9 broke yum ")).unwrap();
        assert_eq!(rollback.reason(), Some("v9 broke yum"));
        let long = "x".repeat(crate::domain::deploy::REASON_MAX_CHARS + 1);
        assert!(matches!(
            intent(false, Some(&long)),
            Err(Refusal::ReasonTooLong(_))
        ));
    }

    #[test]
    fn the_request_keeps_what_was_asked() {
        let request = ask(false, None).unwrap();
        assert_eq!(request.target, VersionNumber::new(4));
        assert_eq!(request.environment, EnvironmentName::production());
        assert_eq!(request.confirm, Confirmation::ExpectedCurrent);
        assert_eq!(request.seen_live, SeenLive::NotSent);
        assert!(!request.override_freeze);
    }
}
