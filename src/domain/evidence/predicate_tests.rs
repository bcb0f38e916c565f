//! Who the predicate names: the deployer as the promotion's operator (a person, or a token
//! and its owner), a schedule's author likewise, and the request's people from its record, or
//! by name alone when the record is gone.

use chrono::{DateTime, Utc};

use super::*;
use crate::domain::audit_chain::link::Sha256Hex;
use crate::domain::deploy::{AuditOutcome, ScheduleMark};
use crate::domain::environment::EnvironmentName;
use crate::domain::ids::{RequestId, ScheduleId};

fn record() -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new("d1"),
        timestamp: DateTime::parse_from_rfc3339("2026-11-28T09:00:00Z")
            .unwrap()
            .with_timezone(&Utc),
        operator: "ci-bot".into(),
        repository_uuid: "u".into(),
        repository_name: "base-os".into(),
        previous_version: Some(3),
        target_version: 4,
        environment: EnvironmentName::production(),
        distribution: "base-os-prod".into(),
        publication: None,
        kind: DeployKind::Deploy,
        reason: None,
        request: None,
        freeze_override: None,
        release: None,
        soak_override: None,
        schedule: None,
        checks_override: None,
        automation: None,
        outcome: AuditOutcome::Deployed,
    }
}

fn known(deployer: Party, request: Option<RequestSeen>) -> Known {
    Known {
        pulp: PulpFacts {
            publication: None,
            distribution: "/pulp/api/v3/distributions/rpm/rpm/1/".into(),
            distribution_name: "base-os-prod".into(),
            base_path: "base-os-prod".into(),
        },
        deployer,
        request,
        checks: Vec::new(),
        policy: PolicyFacts {
            sha256: Sha256Hex::of(b"policy"),
        },
        previous: None,
    }
}

fn token(name: &str, owner: &str) -> Party {
    Party::Token {
        name: name.into(),
        owner: Some(owner.into()),
    }
}

fn person(name: &str) -> Party {
    Party::Person { name: name.into() }
}

#[test]
fn a_token_deployer_is_named_with_its_owner() {
    let predicate = PromotionPredicate::of(&record(), known(token("ci-bot", "Bob"), None));
    assert_eq!(
        predicate.deployed_by,
        Actor::Token {
            name: "ci-bot".into(),
            owner: Some("Bob".into())
        }
    );
}

#[test]
fn a_schedules_author_is_named_as_the_promotion_ran() {
    let mut line = record();
    line.schedule = Some(ScheduleMark {
        schedule_id: ScheduleId::parse("s1").unwrap(),
        author: PersonName::new("ci-bot").unwrap(),
    });
    let predicate = PromotionPredicate::of(&line, known(token("ci-bot", "bob"), None));
    assert_eq!(
        predicate.deployed_by,
        Actor::Schedule {
            schedule_id: "s1".into(),
            author: token("ci-bot", "bob"),
        }
    );
}

#[test]
fn the_requests_people_come_from_its_record_or_by_name_when_it_is_gone() {
    let mut line = record();
    line.operator = "alice".into();
    line.request = Some(ApprovalTrail {
        request_id: RequestId::parse("r1").unwrap(),
        requester: PersonName::new("alice").unwrap(),
        approvers: vec![
            PersonName::new("gate").unwrap(),
            PersonName::new("carol").unwrap(),
        ],
    });
    let seen = RequestSeen {
        requested_by: person("alice"),
        approvals: vec![
            (token("gate", "Dave"), "2026-11-28T08:50:00Z".into()),
            (person("carol"), "2026-11-28T08:55:00Z".into()),
        ],
    };
    let kept = PromotionPredicate::of(&line, known(person("alice"), Some(seen)));
    let approval = kept.approval.expect("the request");
    assert_eq!(approval.requested_by, person("alice"));
    assert_eq!(
        approval.approvals,
        vec![
            Approval {
                by: token("gate", "Dave"),
                at: Some("2026-11-28T08:50:00Z".into())
            },
            Approval {
                by: person("carol"),
                at: Some("2026-11-28T08:55:00Z".into())
            },
        ]
    );

    let gone = PromotionPredicate::of(&line, known(person("alice"), None));
    let approval = gone.approval.expect("the request, by the audit line");
    assert_eq!(
        approval.requested_by,
        Party::Named {
            name: "alice".into()
        }
    );
    assert_eq!(
        approval.approvals[0],
        Approval {
            by: Party::Named {
                name: "gate".into()
            },
            at: None
        }
    );
}
