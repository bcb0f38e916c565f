//! The audit record of a release promotion: one line of its own (`"record": "release"`),
//! beside the lines of each member's deploy, which carry the release's name and id.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize, Serializer};

use crate::domain::deploy::{ApprovalTrail, DeployId, DeployKind, FreezeOverride};
use crate::domain::environment::EnvironmentName;
use crate::domain::ids::ReleaseRef;
use crate::domain::release::{MemberOutcome, ServedSet};
use crate::domain::repository::VersionNumber;

/// The tag that tells a release line from a deploy's line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReleaseLine {
    Release,
}

/// One member in the release's line: where it was, where it was to go, where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberLine {
    pub repository_name: String,
    pub repository_uuid: String,
    /// The member's own deploy (its two audit lines); none when it had nothing to do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy_id: Option<DeployId>,
    pub previous_version: Option<u64>,
    pub target_version: u64,
    pub outcome: MemberOutcome,
    /// What went wrong for this member, or what to check when its outcome is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl MemberLine {
    pub fn previous(&self) -> Option<VersionNumber> {
        self.previous_version.map(VersionNumber::new)
    }

    pub fn target(&self) -> VersionNumber {
        VersionNumber::new(self.target_version)
    }

    /// What the member's environment serves after the promotion, when known.
    pub fn serves_after(&self) -> Option<Option<VersionNumber>> {
        match self.outcome {
            MemberOutcome::Moved => Some(Some(self.target())),
            MemberOutcome::Restored | MemberOutcome::Unchanged => Some(self.previous()),
            MemberOutcome::Unknown => None,
        }
    }
}

/// The release's line: written once the promotion ended (the members' `started` lines
/// come before anything moves).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseRecord {
    pub record: ReleaseLine,
    pub release: ReleaseRef,
    #[serde(serialize_with = "rfc3339_utc")]
    pub timestamp: DateTime<Utc>,
    pub operator: String,
    pub environment: EnvironmentName,
    /// A promotion (`deploy`) or a rollback of the set.
    pub kind: DeployKind,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<ApprovalTrail>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub freeze_override: Option<FreezeOverride>,
    /// In the order the release moves them.
    pub members: Vec<MemberLine>,
    /// What the environment serves of the release now.
    pub served: ServedSet,
    /// Why the promotion stopped, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ReleaseRecord {
    /// The promotion ended with every member on its target.
    pub fn finished(&self) -> bool {
        self.served == ServedSet::New
    }

    /// The set this promotion replaced, when every member served a version before it and
    /// the promotion finished: what a rollback of the set goes back to.
    pub fn replaced_set(&self) -> Option<Vec<(String, VersionNumber)>> {
        if !self.finished() {
            return None;
        }
        self.members
            .iter()
            .map(|m| Some((m.repository_name.clone(), m.previous()?)))
            .collect()
    }
}

fn rfc3339_utc<S: Serializer>(at: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&at.to_rfc3339_opts(SecondsFormat::Millis, true))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::ids::{ReleaseId, ReleaseName};

    pub(crate) fn member(
        name: &str,
        previous: Option<u64>,
        target: u64,
        outcome: MemberOutcome,
    ) -> MemberLine {
        MemberLine {
            repository_name: name.into(),
            repository_uuid: format!("uuid-{name}"),
            deploy_id: Some(DeployId::new(format!("d-{name}"))),
            previous_version: previous,
            target_version: target,
            outcome,
            detail: None,
        }
    }

    pub(crate) fn record(members: Vec<MemberLine>) -> ReleaseRecord {
        let served = ServedSet::of(members.iter().map(|m| m.outcome));
        ReleaseRecord {
            record: ReleaseLine::Release,
            release: ReleaseRef {
                name: ReleaseName::parse("rhel9").unwrap(),
                id: ReleaseId::new("r-1"),
            },
            timestamp: DateTime::parse_from_rfc3339("2026-11-26T08:00:00Z")
                .unwrap()
                .into(),
            operator: "alice".into(),
            environment: EnvironmentName::production(),
            kind: DeployKind::Deploy,
            reason: None,
            request: None,
            freeze_override: None,
            members,
            served,
            error: None,
        }
    }

    #[test]
    fn a_release_line_is_tagged_and_reads_back_and_is_never_a_deploy_line() {
        let line = record(vec![member("baseos", Some(3), 4, MemberOutcome::Moved)]);
        let text = serde_json::to_string(&line).unwrap();
        assert!(
            text.starts_with(r#"{"record":"release","release":{"name":"rhel9","id":"r-1"}"#),
            "{text}"
        );
        assert!(text.contains(r#""served":"new""#), "{text}");
        let back: ReleaseRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, line);
        let as_deploy = serde_json::from_str::<crate::domain::deploy::DeployRecord>(&text);
        assert!(as_deploy.is_err(), "a reader of deploy lines skips it");
    }

    #[test]
    fn only_a_finished_promotion_from_a_whole_set_can_be_rolled_back() {
        use MemberOutcome::*;
        let done = record(vec![
            member("baseos", Some(3), 4, Moved),
            member("epel", Some(7), 9, Moved),
        ]);
        assert_eq!(
            done.replaced_set(),
            Some(vec![
                ("baseos".into(), VersionNumber::new(3)),
                ("epel".into(), VersionNumber::new(7))
            ])
        );
        let first = record(vec![member("baseos", None, 4, Moved)]);
        assert_eq!(first.replaced_set(), None, "baseos served nothing before");
        let failed = record(vec![member("baseos", Some(3), 4, Restored)]);
        assert_eq!(failed.replaced_set(), None);
    }
}
