use chrono::{DateTime, Duration, Utc};

use super::*;

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

fn request() -> ApprovalRequest {
    let created = at("2026-11-25T10:00:00Z");
    ApprovalRequest {
        id: RequestId::parse("r-1").unwrap(),
        repository_uuid: "01a202de-e818-7629-a483-70ecc3240361".into(),
        repository_name: "base-os".into(),
        environment: EnvironmentName::production(),
        target_version: 7,
        asked_against: Some(5),
        requester: name("alice"),
        requester_key: Some(name("alice").key(CaseMatching::Caseless)),
        requester_groups: vec!["dev".into()],
        requester_kind: Some(crate::domain::policy::ActorKind::Person),
        kind: DeployKind::Deploy,
        reason: Some("CVE-2026-1".into()),
        override_freeze: false,
        release: None,
        created,
        expires: created + Duration::hours(24),
        schedule: None,
    }
}

fn log(events: Vec<RequestEvent>) -> RequestLog {
    RequestLog {
        request: request(),
        events,
    }
}

fn approved(by: &str, minute: u32) -> RequestEvent {
    RequestEvent::Approved {
        actor: Actor::of(&op(by)),
        at: at("2026-11-25T10:00:00Z") + Duration::minutes(minute.into()),
    }
}

fn op(name: &str) -> Operator {
    Operator::new(name).unwrap()
}

fn name(text: &str) -> PersonName {
    PersonName::new(text).unwrap()
}

const SOON: &str = "2026-11-25T11:00:00Z";

#[test]
fn a_new_request_is_pending_until_it_expires() {
    let log = log(vec![]);
    assert_eq!(
        log.state(at(SOON), 1),
        RequestState::Pending { approvers: vec![] }
    );
    assert_eq!(log.state(at("2026-11-26T09:59:59Z"), 1).word(), "pending");
    assert_eq!(
        log.state(at("2026-11-26T10:00:00Z"), 1),
        RequestState::Expired,
        "expired at its expiry instant exactly"
    );
}

#[test]
fn approvals_count_distinct_approvers_until_enough_then_its_deploy_is_executing() {
    let one = log(vec![approved("bob", 1)]);
    assert_eq!(
        one.state(at(SOON), 2),
        RequestState::Pending {
            approvers: vec![name("bob")]
        }
    );
    let twice = log(vec![approved("bob", 1), approved("bob", 2)]);
    assert_eq!(twice.state(at(SOON), 2).approvers(), [name("bob")]);
    let two = log(vec![approved("bob", 1), approved("carol", 2)]);
    assert_eq!(
        two.state(at(SOON), 2),
        RequestState::Executing {
            approvers: vec![name("bob"), name("carol")]
        }
    );
    assert_eq!(
        two.state(at("2027-01-01T00:00:00Z"), 2).word(),
        "executing",
        "a request whose approvals are complete does not expire"
    );
}

#[test]
fn an_executed_request_names_its_deploy_and_outcome() {
    let executed = log(vec![
        approved("bob", 1),
        RequestEvent::Executed {
            deploy_id: DeployId::new("d-9"),
            outcome: ExecutionOutcome::Deployed,
            at: at(SOON),
        },
    ]);
    let state = executed.state(at(SOON), 1);
    assert_eq!(state.word(), "executed");
    assert!(
        matches!(state, RequestState::Executed { ref deploy_id, .. } if deploy_id.as_str() == "d-9")
    );
    let failed = log(vec![
        approved("bob", 1),
        RequestEvent::Executed {
            deploy_id: DeployId::new("d-9"),
            outcome: ExecutionOutcome::Failed {
                message: "Production was NOT changed.".into(),
            },
            at: at(SOON),
        },
    ]);
    assert_eq!(failed.state(at(SOON), 1).word(), "failed");
}

#[test]
fn rejected_cancelled_and_stale_close_a_request_whatever_follows() {
    let rejected = log(vec![
        RequestEvent::Rejected {
            actor: Actor::of(&op("bob")),
            at: at(SOON),
        },
        approved("carol", 3),
    ]);
    assert_eq!(
        rejected.state(at(SOON), 1),
        RequestState::Rejected { by: name("bob") }
    );
    let cancelled = log(vec![RequestEvent::Cancelled {
        actor: Actor::of(&op("alice")),
        at: at(SOON),
    }]);
    assert_eq!(cancelled.state(at(SOON), 1).word(), "cancelled");
    let stale = log(vec![RequestEvent::Stale {
        now_serving: "v6".into(),
        at: at(SOON),
    }]);
    assert_eq!(
        stale.state(at(SOON), 1),
        RequestState::Stale {
            now_serving: "v6".into()
        }
    );
    assert!(!stale.state(at(SOON), 1).is_open());
}

#[test]
fn the_requester_may_not_approve_nor_reject_but_may_cancel() {
    let log = log(vec![]);
    let state = log.state(at(SOON), 1);
    assert_eq!(
        check_approval(&log, &state, &op("alice")),
        Err(RequestRefusal::OwnRequest(EnvironmentName::production()))
    );
    assert!(check_reject(&log, &state, &op("alice")).is_err());
    assert_eq!(check_cancel(&log, &state, &op("alice")), Ok(()));
    assert_eq!(check_approval(&log, &state, &op("bob")), Ok(()));
    assert_eq!(check_reject(&log, &state, &op("bob")), Ok(()));
    assert_eq!(
        check_cancel(&log, &state, &op("bob")),
        Err(RequestRefusal::NotRequester(name("alice")))
    );
}

#[test]
fn one_approver_counts_once_and_nobody_acts_on_a_closed_request() {
    let once = log(vec![approved("bob", 1)]);
    let state = once.state(at(SOON), 2);
    assert_eq!(
        check_approval(&once, &state, &op("bob")),
        Err(RequestRefusal::AlreadyApproved)
    );
    assert_eq!(check_approval(&once, &state, &op("carol")), Ok(()));
    let expired = log(vec![]);
    let state = expired.state(at("2026-11-27T00:00:00Z"), 1);
    let refusal = check_approval(&expired, &state, &op("bob")).unwrap_err();
    assert_eq!(refusal, RequestRefusal::Closed("expired"));
    assert!(refusal.to_string().contains("expired"), "{refusal}");
    assert!(check_cancel(&expired, &state, &op("alice")).is_err());
}

#[test]
fn request_ids_are_url_safe_words() {
    assert!(RequestId::parse("0b7c9a4e-1f0e-4c1a-9a53-3c9f5f2d2b11").is_some());
    for bad in ["", "../x", "a b", "x%2F", &"a".repeat(65)] {
        assert!(RequestId::parse(bad).is_none(), "{bad:?}");
    }
}

#[test]
fn a_request_and_its_events_round_trip_through_json() {
    let request = request();
    let json = serde_json::to_value(&request).unwrap();
    assert_eq!(json["created"], "2026-11-25T10:00:00.000Z");
    assert_eq!(json["environment"], "production");
    assert_eq!(
        serde_json::from_value::<ApprovalRequest>(json).unwrap(),
        request
    );
    let event = RequestEvent::Executed {
        deploy_id: DeployId::new("d-1"),
        outcome: ExecutionOutcome::Failed {
            message: "boom".into(),
        },
        at: at(SOON),
    };
    let json = serde_json::to_value(&event).unwrap();
    assert_eq!(json["event"], "executed");
    assert_eq!(json["outcome"]["result"], "failed");
    assert_eq!(serde_json::from_value::<RequestEvent>(json).unwrap(), event);
}

#[test]
fn one_person_in_two_spellings_approves_once_and_may_not_approve_their_own_request() {
    let log = log(vec![approved("BOB", 1)]);
    let state = log.state(at(SOON), 2);
    assert_eq!(
        check_approval(&log, &state, &op("bob")),
        Err(RequestRefusal::AlreadyApproved)
    );
    assert_eq!(
        check_approval(&log, &state, &op("Alice")),
        Err(RequestRefusal::OwnRequest(EnvironmentName::production()))
    );
    let twice = RequestLog {
        events: vec![approved("BOB", 1), approved("bob", 2)],
        ..log
    };
    assert_eq!(twice.state(at(SOON), 2).approvers(), [name("BOB")]);
}

#[test]
fn what_was_kept_before_keys_is_compared_by_the_exact_name() {
    let old: RequestEvent = serde_json::from_str(
        r#"{"event": "approved", "by": "bob", "at": "2026-11-25T10:01:00.000Z"}"#,
    )
    .unwrap();
    let RequestEvent::Approved { actor, .. } = &old else {
        panic!("{old:?}")
    };
    assert_eq!(actor.person(), name("bob").key(CaseMatching::CaseSensitive));
    let mut request = request();
    request.requester_key = None;
    assert_eq!(
        request.requester_person(),
        name("alice").key(CaseMatching::CaseSensitive)
    );
}

#[test]
fn a_completed_request_whose_deploy_found_the_environment_moved_ends_stale_not_approved() {
    let refused = log(vec![
        approved("bob", 1),
        RequestEvent::Stale {
            now_serving: "v4".into(),
            at: at(SOON),
        },
    ]);
    let state = refused.state(at(SOON), 1);
    assert_eq!(
        state,
        RequestState::Stale {
            now_serving: "v4".into()
        }
    );
    assert!(!state.is_open());
    for needed in 1..=3 {
        for events in 0..=3 {
            let log = log([
                approved("bob", 1),
                approved("carol", 2),
                approved("dave", 3),
            ][..events]
                .to_vec());
            let word = log.state(at(SOON), needed).word();
            assert_ne!(word, "approved", "{events} approvals of {needed}");
        }
    }
}

#[test]
fn a_scheduled_request_once_approved_waits_for_its_time_then_expires_an_hour_after() {
    let when = at("2026-11-26T02:00:00Z");
    let mut log = log(vec![approved("bob", 1)]);
    log.request.schedule = Some(ScheduledFor {
        schedule_id: crate::domain::ids::ScheduleId::parse("s-1").unwrap(),
        at: when,
    });
    log.request.expires = when + Duration::hours(1);
    assert_eq!(
        log.state(at(SOON), 1),
        RequestState::Scheduled {
            approvers: vec![name("bob")]
        },
        "approved: nothing runs before its time"
    );
    assert!(!log.state(at(SOON), 1).is_open(), "approvers are done");
    assert_eq!(
        log.state(when + Duration::hours(1), 1),
        RequestState::Expired,
        "never run by its schedule"
    );
    log.events.push(RequestEvent::Executed {
        deploy_id: DeployId::new("d-1"),
        outcome: ExecutionOutcome::Deployed,
        at: when,
    });
    assert_eq!(log.state(when + Duration::hours(2), 1).word(), "executed");
    assert_eq!(
        log_without_approval_state(&log, when),
        "pending",
        "not approved: pending until it expires"
    );
}

fn log_without_approval_state(scheduled: &RequestLog, when: DateTime<Utc>) -> &'static str {
    let pending = RequestLog {
        request: scheduled.request.clone(),
        events: vec![],
    };
    pending.state(when, 1).word()
}

/// Issue 43: a request records whether its requester asked as a person or a token, reads it
/// back as written, and restores a token requester under its token key (what `token:`
/// subjects match), never as a person of the same name.
#[test]
fn the_requester_kind_is_read_back_and_a_token_requester_restored_as_a_token() {
    use crate::domain::policy::ActorKind;
    for kind in [None, Some(ActorKind::Person), Some(ActorKind::Token)] {
        let written = ApprovalRequest {
            requester_kind: kind,
            ..request()
        };
        let line = serde_json::to_string(&written).unwrap();
        assert_eq!(
            line.matches("\"requester_kind\"").count(),
            kind.iter().count()
        );
        let read: ApprovalRequest = serde_json::from_str(&line).unwrap();
        assert_eq!(read, written, "{line}");
    }
    let by_token = ApprovalRequest {
        requester_kind: Some(ActorKind::Token),
        ..request()
    };
    let restored = by_token.requester(CaseMatching::Caseless);
    assert_eq!(restored.key().as_str(), "token:alice");
    assert_eq!(
        restored.person().as_str(),
        "alice",
        "its person as recorded"
    );
    let by_person = request().requester(CaseMatching::Caseless);
    assert_eq!(by_person.key().as_str(), "alice");
}
