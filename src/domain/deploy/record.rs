//! The audit record of a deployment: one JSON object per line, its own schema
//! (never a tracing log), so that any deploy can be traced and rolled back.

use std::collections::BTreeSet;

use crate::domain::identity::PersonName;
use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize, Serializer};

use crate::domain::check::{CheckName, RunUrl};
use crate::domain::deploy::{DeployKind, DeployPlan, Intent, ProductionChanged};
use crate::domain::environment::EnvironmentName;
use crate::domain::ids::{ReleaseRef, RequestId, ScheduleId};
use crate::domain::repository::{PublicationHref, VersionNumber};

/// Links the lines written for one deployment.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DeployId(String);

impl DeployId {
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How a deployment ended (or that it started).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum AuditOutcome {
    /// Written before anything changes upstream.
    Started,
    /// Production now serves the target version.
    Deployed,
    /// The deploy did not complete; says whether production changed.
    Failed {
        production_changed: ProductionChanged,
        error: String,
    },
}

/// One line of the audit log. Lines are read back for the history page: a line written
/// before `kind` and `reason` existed reads as a deploy without a reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeployRecord {
    pub deploy_id: DeployId,
    #[serde(serialize_with = "rfc3339_utc")]
    pub timestamp: DateTime<Utc>,
    pub operator: String,
    pub repository_uuid: String,
    pub repository_name: String,
    /// The version production served before; null when none.
    pub previous_version: Option<u64>,
    pub target_version: u64,
    /// The environment deployed to (lines written before environments: production).
    #[serde(default = "EnvironmentName::production")]
    pub environment: EnvironmentName,
    pub distribution: String,
    /// The publication created for the target; null when it was not created.
    pub publication: Option<PublicationHref>,
    /// A deploy or a rollback.
    #[serde(default)]
    pub kind: DeployKind,
    /// The operator's reason (required for a rollback); null when none was given.
    #[serde(default)]
    pub reason: Option<String>,
    /// The approval request the deploy ran for: who asked and who approved (absent when
    /// none was needed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<ApprovalTrail>,
    /// The freeze the operator deployed through (`override`; the reason is `reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub freeze_override: Option<FreezeOverride>,
    /// The release promotion this deploy is part of (absent for a deploy of one repository).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<ReleaseRef>,
    /// The soak the deploy went through (`override`; the reason is `reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soak_override: Option<SoakOverride>,
    /// The schedule it ran for, and its author (the operator of a scheduled deploy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<ScheduleMark>,
    /// The required checks the operator deployed without (`override`; the reason is `reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks_override: Option<ChecksOverride>,
    /// A promotion the console made by itself: `"automation": true` and `"triggered_by"`, the
    /// check whose passing triggered it.
    #[serde(flatten)]
    pub automation: Option<Automation>,
    #[serde(flatten)]
    pub outcome: AuditOutcome,
}

/// Required checks a deploy went without: which, and on which environment they were due.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChecksOverride {
    pub checked_in: EnvironmentName,
    /// e.g. "smoke failed, e2e missing".
    pub unmet: String,
}

/// A deploy the console made by itself (`auto_promote`), as its audit lines say it:
/// `"automation": true` and the check that triggered it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Automation {
    automation: Marker,
    pub triggered_by: CheckTrigger,
}

impl Automation {
    pub fn triggered_by(check: CheckTrigger) -> Self {
        Self {
            automation: Marker,
            triggered_by: check,
        }
    }
}

/// The check report that triggered an automatic promotion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckTrigger {
    pub check: CheckName,
    /// Where it passed (the environment before the one promoted to).
    pub environment: EnvironmentName,
    pub version: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<RunUrl>,
    /// Who reported it (the API token's name).
    pub reporter: String,
}

/// `true`, always: the field that says a line is an automatic promotion's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Marker;

impl Serialize for Marker {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

impl<'de> Deserialize<'de> for Marker {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match bool::deserialize(d)? {
            true => Ok(Self),
            false => Err(serde::de::Error::custom("automation is true or absent")),
        }
    }
}

/// Who asked and who approved, as the audit line of the deploy names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalTrail {
    pub request_id: RequestId,
    pub requester: PersonName,
    pub approvers: Vec<PersonName>,
}

/// A freeze a deploy went through: the window, and until when it froze the environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreezeOverride {
    pub window: String,
    pub until: String,
}

/// A soak a deploy went through: the environment before, and when the version would have
/// soaked there (null: it did not serve it, or since when was unknown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoakOverride {
    pub previous: EnvironmentName,
    pub soak: String,
    pub until: Option<String>,
}

/// The schedule a deploy ran for, and who made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleMark {
    pub schedule_id: ScheduleId,
    pub author: PersonName,
}

/// Under what authority beyond the operator's own a deploy runs: a completed approval
/// request, a freeze or soak override, an override of required checks, a schedule, an
/// automatic promotion. Written on each of its audit lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Authority {
    pub request: Option<ApprovalTrail>,
    pub freeze_override: Option<FreezeOverride>,
    pub soak_override: Option<SoakOverride>,
    pub schedule: Option<ScheduleMark>,
    pub checks_override: Option<ChecksOverride>,
    pub automation: Option<Automation>,
}

impl DeployRecord {
    /// A record of `plan` made with `intent`, with the given outcome, stamped with `at`
    /// and `operator`.
    pub fn of_plan(
        deploy_id: DeployId,
        plan: &DeployPlan,
        intent: &Intent,
        at: DateTime<Utc>,
        operator: &str,
        publication: Option<PublicationHref>,
        outcome: AuditOutcome,
    ) -> Self {
        Self {
            deploy_id,
            timestamp: at,
            operator: operator.to_owned(),
            repository_uuid: plan.repo.id.to_string(),
            repository_name: plan.repo.display_name().to_owned(),
            previous_version: plan.current.map(|n| n.get()),
            target_version: plan.target_number().get(),
            environment: plan.environment.clone(),
            distribution: plan.distribution.name.clone(),
            publication,
            kind: intent.kind(),
            reason: intent.reason().map(str::to_owned),
            request: None,
            freeze_override: None,
            release: None,
            soak_override: None,
            schedule: None,
            checks_override: None,
            automation: None,
            outcome,
        }
    }

    /// The same record, naming the request and the freeze override it ran under.
    pub fn under(mut self, authority: &Authority) -> Self {
        self.request = authority.request.clone();
        self.freeze_override = authority.freeze_override.clone();
        self.soak_override = authority.soak_override.clone();
        self.schedule = authority.schedule.clone();
        self.checks_override = authority.checks_override.clone();
        self.automation = authority.automation.clone();
        self
    }
}

/// Every version `environment` is known to have served: those the console's audit lines
/// say it deployed there (a deploy that completed, or failed after production changed),
/// and the one it serves now.
pub fn versions_served(
    records: &[DeployRecord],
    environment: &EnvironmentName,
    serving_now: Option<VersionNumber>,
) -> BTreeSet<VersionNumber> {
    records
        .iter()
        .filter(|r| &r.environment == environment)
        .filter(|r| match &r.outcome {
            AuditOutcome::Deployed => true,
            AuditOutcome::Failed {
                production_changed, ..
            } => *production_changed == ProductionChanged::Yes,
            AuditOutcome::Started => false,
        })
        .map(|r| VersionNumber::new(r.target_version))
        .chain(serving_now)
        .collect()
}

fn rfc3339_utc<S: Serializer>(at: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&at.to_rfc3339_opts(SecondsFormat::Millis, true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::repository::{
        Distribution, DistributionHref, RepoId, RepoVersion, Repository, VersionHref, VersionNumber,
    };

    fn plan() -> DeployPlan {
        let id = "01a202de-e818-7629-a483-70ecc3240361";
        let href = format!("/pulp/api/v3/repositories/rpm/rpm/{id}/");
        DeployPlan {
            repo: Repository {
                id: RepoId::parse(id).unwrap(),
                href: href.clone(),
                name: Some("base-os".into()),
                verification: Default::default(),
                latest_version: None,
                remote: None,
                retain_versions: None,
            },
            target: RepoVersion {
                href: VersionHref::new(format!("{href}versions/7/")),
                created: Utc::now(),
                package_count: 3,
                added: 0,
                removed: 0,
            },
            current: Some(VersionNumber::new(5)),
            net_change: 1,
            environment: EnvironmentName::production(),
            distribution: Distribution {
                href: DistributionHref::new("/d/"),
                name: "base-os-prod".into(),
                base_path: "base-os".into(),
                publication: None,
                revision: None,
            },
            order: crate::domain::environment::PromotionCheck::FirstEnvironment,
        }
    }

    fn outcome() -> impl proptest::strategy::Strategy<Value = AuditOutcome> {
        use proptest::prelude::*;
        prop_oneof![
            Just(AuditOutcome::Started),
            Just(AuditOutcome::Deployed),
            (
                prop_oneof![
                    Just(ProductionChanged::No),
                    Just(ProductionChanged::Yes),
                    Just(ProductionChanged::Unknown)
                ],
                ".{0,30}"
            )
                .prop_map(|(production_changed, error)| AuditOutcome::Failed {
                    production_changed,
                    error
                }),
        ]
    }

    proptest::proptest! {
        /// Issue 43: a deploy's audit line, with any outcome, text and optional parts, holds
        /// no key twice and reads back as written.
        #[test]
        fn every_deploy_line_is_written_without_a_key_twice_and_read_back(
            outcome in outcome(),
            operator in ".{0,20}",
            reason in proptest::option::of(".{0,30}"),
            publication in proptest::option::of("/[a-z0-9/]{0,20}"),
            scheduled in proptest::option::of("[a-z0-9-]{1,20}"),
            unmet in proptest::option::of(".{0,20}"),
            seconds in 0i64..4_000_000_000,
        ) {
            let at = DateTime::from_timestamp(seconds, 0).unwrap();
            let mut record = DeployRecord::of_plan(
                DeployId::new("d"),
                &plan(),
                &Intent::Deploy(None),
                at,
                &operator,
                publication.map(PublicationHref::new),
                outcome,
            );
            record.reason = reason;
            record.schedule = scheduled.map(|id| ScheduleMark {
                schedule_id: crate::domain::ids::ScheduleId::parse(&id).unwrap(),
                author: crate::domain::identity::PersonName::new("alice").unwrap(),
            });
            record.checks_override = unmet.map(|unmet| ChecksOverride {
                checked_in: EnvironmentName::production(),
                unmet,
            });
            let bytes = serde_json::to_vec(&record).unwrap();
            let written = crate::domain::record_keys::Written::parse(&bytes).unwrap();
            proptest::prop_assert_eq!(written.duplicate_keys(), Vec::<String>::new());
            let read: DeployRecord = serde_json::from_slice(&bytes).unwrap();
            proptest::prop_assert_eq!(read, record);
        }
    }

    #[test]
    fn a_record_serializes_to_one_flat_json_object() {
        let at = DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
            .unwrap()
            .into();
        let outcome = AuditOutcome::Failed {
            production_changed: ProductionChanged::No,
            error: "boom".into(),
        };
        let record = DeployRecord::of_plan(
            DeployId::new("d1"),
            &plan(),
            &Intent::Deploy(None),
            at,
            "operator",
            None,
            outcome,
        );
        let json: serde_json::Value = serde_json::to_value(&record).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "deploy_id": "d1", "timestamp": "2026-11-22T10:00:00.000Z", "operator": "operator",
                "repository_uuid": "01a202de-e818-7629-a483-70ecc3240361", "repository_name": "base-os",
                "previous_version": 5, "target_version": 7, "environment": "production", "distribution": "base-os-prod",
                "publication": null, "kind": "deploy", "reason": null, "outcome": "failed", "production_changed": "no", "error": "boom"
            })
        );
    }

    #[test]
    fn a_success_record_names_the_outcome_only() {
        let record = DeployRecord::of_plan(
            DeployId::new("d2"),
            &plan(),
            &Intent::Deploy(None),
            Utc::now(),
            "operator",
            Some(PublicationHref::new("/p/")),
            AuditOutcome::Deployed,
        );
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json["outcome"], "deployed");
        assert_eq!(json["publication"], "/p/");
        assert!(json.get("error").is_none());
    }

    #[test]
    fn a_rollback_record_reads_back_as_written() {
        let reason = crate::domain::deploy::Reason::parse("v7 broke dnf").unwrap();
        let record = DeployRecord::of_plan(
            DeployId::new("d3"),
            &plan(),
            &Intent::Rollback(reason),
            "2026-11-22T10:00:00.123Z".parse().unwrap(),
            "operator",
            None,
            AuditOutcome::Failed {
                production_changed: ProductionChanged::Unknown,
                error: "lost".into(),
            },
        );
        let line = serde_json::to_string(&record).unwrap();
        assert!(
            line.contains(r#""kind":"rollback","reason":"v7 broke dnf""#),
            "{line}"
        );
        let read: DeployRecord = serde_json::from_str(&line).unwrap();
        assert_eq!(read, record);
    }

    #[test]
    fn an_old_line_without_kind_reads_as_a_deploy_without_reason() {
        let old = r#"{"deploy_id":"d0","timestamp":"2026-11-20T09:00:00.000Z","operator":"ops",
            "repository_uuid":"01a202de-e818-7629-a483-70ecc3240361","repository_name":"base-os",
            "previous_version":null,"target_version":2,"distribution":"base-os-prod",
            "publication":"/p/","outcome":"deployed"}"#;
        let read: DeployRecord = serde_json::from_str(old).unwrap();
        assert_eq!(read.kind, DeployKind::Deploy);
        assert_eq!(read.reason, None);
        assert_eq!(read.outcome, AuditOutcome::Deployed);
        assert_eq!(read.target_version, 2);
    }

    #[test]
    fn an_automatic_promotion_says_automation_true_and_its_check_and_reads_back() {
        let authority = Authority {
            automation: Some(Automation::triggered_by(CheckTrigger {
                check: CheckName::parse("smoke").unwrap(),
                environment: EnvironmentName::parse("staging").unwrap(),
                version: 7,
                url: Some(RunUrl::parse("https://ci.example.com/runs/9").unwrap()),
                reporter: "ci-staging".into(),
            })),
            checks_override: None,
            ..Authority::default()
        };
        let record = DeployRecord::of_plan(
            DeployId::new("d3"),
            &plan(),
            &Intent::Deploy(None),
            Utc::now(),
            "promoter",
            None,
            AuditOutcome::Started,
        )
        .under(&authority);
        let json: serde_json::Value = serde_json::to_value(&record).unwrap();
        assert_eq!(json["automation"], true);
        assert_eq!(json["triggered_by"]["check"], "smoke");
        assert_eq!(json["triggered_by"]["environment"], "staging");
        assert_eq!(json["triggered_by"]["version"], 7);
        assert_eq!(
            json["outcome"], "started",
            "the outcome stays flat beside it"
        );
        let read: DeployRecord = serde_json::from_value(json).unwrap();
        assert_eq!(read.automation, record.automation);
        assert_eq!(read.outcome, AuditOutcome::Started);
        let manual = DeployRecord::of_plan(
            DeployId::new("d4"),
            &plan(),
            &Intent::Deploy(None),
            Utc::now(),
            "alice",
            None,
            AuditOutcome::Deployed,
        );
        let json = serde_json::to_value(&manual).unwrap();
        assert!(json.get("automation").is_none() && json.get("triggered_by").is_none());
        let read: DeployRecord = serde_json::from_value(json).unwrap();
        assert_eq!(read.automation, None);
    }

    #[test]
    fn an_override_of_required_checks_is_recorded_as_such() {
        let authority = Authority {
            checks_override: Some(ChecksOverride {
                checked_in: EnvironmentName::parse("staging").unwrap(),
                unmet: "smoke failed".into(),
            }),
            ..Authority::default()
        };
        let record = DeployRecord::of_plan(
            DeployId::new("d5"),
            &plan(),
            &Intent::Deploy(Some(
                crate::domain::deploy::Reason::parse("hotfix").unwrap(),
            )),
            Utc::now(),
            "sre",
            None,
            AuditOutcome::Started,
        )
        .under(&authority);
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json["checks_override"]["unmet"], "smoke failed");
        assert_eq!(json["reason"], "hotfix");
        assert!(json.get("automation").is_none());
    }
}
