//! A release promotion as the confirm step's form or the JSON API asks it: the environment,
//! one target version per member, and what each member's environment served when the
//! operator looked (compared and swapped for every member before anything moves).

use std::collections::BTreeMap;

use crate::domain::deploy::{Confirmation, DeployRequest, Intent, SeenLive};
use crate::domain::environment::EnvironmentName;
use crate::domain::release::{Release, ReleaseRefusal};
use crate::domain::repository::VersionNumber;

/// How a promotion is confirmed: the release's name typed (the page), or nothing more than
/// the expected versions (the API).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReleaseConfirmation {
    Typed(String),
    ExpectedCurrent,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseAsk {
    pub environment: EnvironmentName,
    /// The version each member goes to, by repository name.
    pub versions: BTreeMap<String, VersionNumber>,
    /// What each member's environment served when the operator looked (`None`: nothing).
    pub expected: BTreeMap<String, Option<VersionNumber>>,
    pub confirm: ReleaseConfirmation,
    /// A promotion, or a rollback of the set with its reason.
    pub intent: Intent,
    /// Through the environment's freeze (those the policy lists in its `override`).
    pub override_freeze: bool,
}

impl ReleaseAsk {
    /// Checks what can be checked without reading anything: the typed confirmation, and
    /// that both maps name exactly the release's members.
    pub fn check(&self, release: &Release) -> Result<(), ReleaseRefusal> {
        if let ReleaseConfirmation::Typed(typed) = &self.confirm {
            if typed.trim() != release.name.as_str() {
                return Err(ReleaseRefusal::ConfirmationMismatch);
            }
        }
        let members = release.members().join(", ");
        let keys = self.versions.keys().chain(self.expected.keys());
        if let Some(stranger) = keys.into_iter().find(|k| !release.has_member(k)) {
            return Err(ReleaseRefusal::NotAMember {
                release: release.name.clone(),
                repository: stranger.clone(),
                members,
            });
        }
        for member in release.members() {
            let missing = |field| ReleaseRefusal::MemberMissing {
                field,
                repository: member.clone(),
                members: members.clone(),
            };
            if !self.versions.contains_key(member) {
                return Err(missing("versions"));
            }
            if !self.expected.contains_key(member) {
                return Err(missing("expected_current"));
            }
        }
        Ok(())
    }

    /// The deploy of one member this promotion makes: compared and swapped on what the
    /// operator saw. `None` for a repository the ask does not name (see [`Self::check`]).
    pub fn member_request(&self, member: &str) -> Option<DeployRequest> {
        Some(DeployRequest {
            target: *self.versions.get(member)?,
            environment: self.environment.clone(),
            confirm: Confirmation::ExpectedCurrent,
            seen_live: SeenLive::of(*self.expected.get(member)?),
            intent: self.intent.clone(),
            override_freeze: self.override_freeze,
        })
    }

    /// The reason given to override a freeze, when an override is asked for.
    pub fn overriding(&self) -> Option<&str> {
        self.override_freeze
            .then(|| self.intent.reason().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::ReleaseName;
    use crate::domain::release::Releases;

    fn release() -> Release {
        let name = ReleaseName::parse("rhel9").unwrap();
        let members = vec!["baseos".to_owned(), "appstream".to_owned()];
        Releases::new([(name, members)])
            .unwrap()
            .get("rhel9")
            .unwrap()
            .clone()
    }

    fn ask(members: &[&str], typed: &str) -> ReleaseAsk {
        ReleaseAsk {
            environment: EnvironmentName::production(),
            versions: members
                .iter()
                .map(|m| (m.to_string(), VersionNumber::new(4)))
                .collect(),
            expected: members
                .iter()
                .map(|m| (m.to_string(), Some(VersionNumber::new(3))))
                .collect(),
            confirm: ReleaseConfirmation::Typed(typed.into()),
            intent: Intent::Deploy(None),
            override_freeze: false,
        }
    }

    #[test]
    fn an_ask_names_every_member_and_no_other_and_is_confirmed_by_the_release_name() {
        assert_eq!(
            ask(&["baseos", "appstream"], "rhel9").check(&release()),
            Ok(())
        );
        assert_eq!(
            ask(&["baseos", "appstream"], "rhel8").check(&release()),
            Err(ReleaseRefusal::ConfirmationMismatch)
        );
        assert!(matches!(
            ask(&["baseos"], "rhel9").check(&release()),
            Err(ReleaseRefusal::MemberMissing {
                field: "versions",
                ..
            })
        ));
        assert!(matches!(
            ask(&["baseos", "appstream", "epel"], "rhel9").check(&release()),
            Err(ReleaseRefusal::NotAMember { .. })
        ));
        let mut no_expected = ask(&["baseos", "appstream"], "rhel9");
        no_expected.expected.remove("appstream");
        assert!(matches!(
            no_expected.check(&release()),
            Err(ReleaseRefusal::MemberMissing {
                field: "expected_current",
                ..
            })
        ));
    }

    #[test]
    fn each_member_is_deployed_against_what_the_operator_saw() {
        let mut asked = ask(&["baseos", "appstream"], "rhel9");
        asked.expected.insert("appstream".into(), None);
        let request = asked.member_request("appstream").unwrap();
        assert_eq!(request.target, VersionNumber::new(4));
        assert_eq!(request.seen_live, SeenLive::Nothing);
        assert_eq!(request.confirm, Confirmation::ExpectedCurrent);
        assert!(asked.member_request("epel").is_none());
    }
}
