use super::*;
use crate::domain::identity::PersonName;
use crate::domain::ids::{RequestId, ScheduleId};

fn member(target: u64, seen: SeenLive) -> Member {
    Member {
        name: "rhel9-baseos".into(),
        repo: RepoId::parse("0190b1f4-0000-7000-8000-000000000001").expect("an id"),
        target: VersionNumber::new(target),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: seen,
        deploy_id: None,
    }
}

fn promotion(asked_by: AskedBy) -> Promotion {
    Promotion {
        environment: EnvironmentName::production(),
        members: vec![member(3, SeenLive::Version(VersionNumber::new(2)))],
        operator: Operator::new("alice").expect("a name"),
        asked_by,
        intent: Intent::Deploy(None),
        override_freeze: false,
        set: None,
    }
}

fn trail() -> ApprovalTrail {
    ApprovalTrail {
        request_id: RequestId::parse("r-1").expect("an id"),
        requester: PersonName::new("alice").expect("a name"),
        approvers: vec![PersonName::new("bob").expect("a name")],
    }
}

fn mark() -> ScheduleMark {
    ScheduleMark {
        schedule_id: ScheduleId::parse("s-1").expect("an id"),
        author: PersonName::new("alice").expect("a name"),
    }
}

#[test]
fn where_no_approval_is_needed_every_way_of_asking_proceeds() {
    for asked in [
        AskedBy::Operator,
        AskedBy::Approval(trail()),
        AskedBy::Schedule {
            mark: mark(),
            approvals: None,
        },
    ] {
        assert_eq!(promotion(asked).approval_step(0), ApprovalStep::Proceed);
    }
}

#[test]
fn approvals_turn_a_person_s_promotion_into_a_request_and_refuse_an_unapproved_schedule() {
    assert_eq!(
        promotion(AskedBy::Operator).approval_step(1),
        ApprovalStep::Request
    );
    assert_eq!(
        promotion(AskedBy::Approval(trail())).approval_step(2),
        ApprovalStep::Proceed
    );
    let unapproved = AskedBy::Schedule {
        mark: mark(),
        approvals: None,
    };
    assert_eq!(promotion(unapproved).approval_step(1), ApprovalStep::Refuse);
    let approved = AskedBy::Schedule {
        mark: mark(),
        approvals: Some(trail()),
    };
    assert_eq!(promotion(approved).approval_step(1), ApprovalStep::Proceed);
}

#[test]
fn the_authority_on_the_audit_lines_says_how_it_was_asked() {
    let scheduled = promotion(AskedBy::Schedule {
        mark: mark(),
        approvals: Some(trail()),
    });
    let authority = scheduled.authority();
    assert_eq!(authority.schedule, Some(mark()));
    assert_eq!(authority.request, Some(trail()));
    assert_eq!(authority.automation, None);
    assert_eq!(
        promotion(AskedBy::Operator).authority(),
        Authority::default()
    );
}

#[test]
fn only_a_set_leaves_a_member_already_serving_its_target_alone() {
    let mut single = promotion(AskedBy::Operator);
    let settled = member(3, SeenLive::Version(VersionNumber::new(3)));
    assert!(!single.settled_is_nothing_to_do(&settled));
    assert!(!single.all_or_none());
    single.set = Some(ReleaseSet {
        release: release(),
        ask: crate::domain::release::ReleaseAsk {
            environment: EnvironmentName::production(),
            versions: Default::default(),
            expected: Default::default(),
            confirm: crate::domain::release::ReleaseConfirmation::Typed("rhel9".into()),
            intent: Intent::Deploy(None),
            override_freeze: false,
        },
    });
    assert!(single.settled_is_nothing_to_do(&settled));
    assert!(!single.settled_is_nothing_to_do(&member(3, SeenLive::Version(VersionNumber::new(2)))));
    assert!(single.all_or_none());
}

fn release() -> crate::domain::release::Release {
    let name = crate::domain::ids::ReleaseName::parse("rhel9").expect("a name");
    let releases = crate::domain::release::Releases::new([(name, vec!["rhel9-baseos".to_owned()])])
        .expect("a release");
    releases.get("rhel9").expect("configured").clone()
}

fn automation() -> Automation {
    Automation::triggered_by(crate::domain::deploy::CheckTrigger {
        check: crate::domain::check::CheckName::parse("smoke").expect("a name"),
        environment: EnvironmentName::parse("staging").expect("a name"),
        version: 3,
        url: None,
        reporter: "ci".into(),
    })
}

fn rollback(asked_by: AskedBy) -> Promotion {
    Promotion {
        intent: Intent::Rollback(crate::domain::deploy::Reason::parse("broken").expect("a reason")),
        ..promotion(asked_by)
    }
}

#[test]
fn a_pinned_environment_refuses_automation_and_schedules_even_approved_ones() {
    let schedule = |approvals| AskedBy::Schedule {
        mark: mark(),
        approvals,
    };
    for asked in [
        AskedBy::Automation(automation()),
        schedule(None),
        schedule(Some(trail())),
    ] {
        assert_eq!(
            promotion(asked.clone()).at_pin(true),
            AtPin::Refuse,
            "{asked:?}"
        );
        assert_eq!(
            rollback(asked.clone()).at_pin(true),
            AtPin::Refuse,
            "{asked:?}"
        );
        assert_eq!(promotion(asked).at_pin(false), AtPin::Proceed);
    }
}

#[test]
fn a_person_s_deploy_lifts_a_pin_and_any_rollback_that_runs_pins() {
    for asked in [AskedBy::Operator, AskedBy::Approval(trail())] {
        assert_eq!(promotion(asked.clone()).at_pin(true), AtPin::LiftAfter);
        assert_eq!(promotion(asked.clone()).at_pin(false), AtPin::Proceed);
        assert_eq!(rollback(asked.clone()).at_pin(true), AtPin::PinAfter);
        assert_eq!(rollback(asked).at_pin(false), AtPin::PinAfter);
    }
    let scheduled = AskedBy::Schedule {
        mark: mark(),
        approvals: None,
    };
    assert_eq!(rollback(scheduled).at_pin(false), AtPin::PinAfter);
}
