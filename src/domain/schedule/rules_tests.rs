use super::*;
use crate::domain::deploy::DeployKind;
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::{CaseMatching, PersonName};
use crate::domain::ids::ScheduleId;

fn at(text: &str) -> DateTime<Utc> {
    parse_at(text).unwrap()
}

fn schedule(when: &str) -> Schedule {
    let author = PersonName::new("alice").unwrap();
    Schedule {
        id: ScheduleId::parse("s1").unwrap(),
        repository_uuid: "r".into(),
        repository_name: "base-os".into(),
        environment: EnvironmentName::production(),
        target_version: 7,
        expected: Some(5),
        kind: DeployKind::Deploy,
        reason: Some("patch Tuesday".into()),
        override_freeze: false,
        author_key: author.key(CaseMatching::Caseless),
        author,
        author_groups: vec!["ops".into()],
        author_kind: Some(crate::domain::policy::ActorKind::Token),
        at: at(when),
        created: at("2026-10-20T09:00:00Z"),
        request_id: None,
        revision: 0,
        state: ScheduleState::Waiting,
    }
}

#[test]
fn a_schedule_is_made_for_a_time_ahead_and_not_too_far() {
    let now = at("2026-11-26T10:00:00Z");
    assert!(check_at(at("2026-11-26T10:00:01Z"), now).is_ok());
    assert!(matches!(
        check_at(now, now),
        Err(ScheduleRefusal::NotAhead { .. })
    ));
    assert!(matches!(
        check_at(at("2027-11-28T10:00:00Z"), now),
        Err(ScheduleRefusal::TooFar(_))
    ));
    assert!(matches!(
        parse_at("Tuesday 02:00"),
        Err(ScheduleRefusal::NotATime(_))
    ));
    assert!(
        parse_at("2026-12-01T02:00:00").is_err(),
        "a local time without offset is ambiguous"
    );
}

/// Europe/Berlin leaves summer time on 2026-10-25: 02:30 happens twice, and the offset says
/// which one a schedule means.
#[test]
fn the_offset_says_which_0230_of_a_clock_change_is_meant() {
    let s = schedule("2026-10-25T02:30:00+01:00");
    assert_eq!(
        due(&s, at("2026-10-25T02:30:00+02:00")),
        None,
        "the first 02:30"
    );
    assert_eq!(due(&s, at("2026-10-25T02:29:59+01:00")), None);
    assert_eq!(due(&s, at("2026-10-25T02:30:00+01:00")), Some(Due::Fresh));
    // Spring: 02:30 does not exist in Berlin on 2026-03-29; 03:30+02:00 is one hour after 01:30+01:00.
    let spring = schedule("2026-03-29T03:30:00+02:00");
    assert_eq!(due(&spring, at("2026-03-29T01:30:00+01:00")), None);
    assert_eq!(due(&spring, at("2026-03-29T01:30:00Z")), Some(Due::Fresh));
}

#[test]
fn a_claim_keeps_a_schedule_until_it_lapses() {
    let now = at("2026-12-01T02:00:00Z");
    let s = schedule("2026-12-01T02:00:00Z");
    let running = claimed(
        s,
        "replica-a",
        now,
        TimeDelta::minutes(10),
        DeployId::new("d1"),
    );
    assert_eq!(running.revision, 1);
    assert_eq!(running.state.word(), "running");
    assert_eq!(due(&running, now + TimeDelta::minutes(9)), None);
    let lapsed = due(&running, now + TimeDelta::minutes(10));
    assert!(
        matches!(&lapsed, Some(Due::Lapsed(claim)) if claim.by == "replica-a" && claim.deploy_id == DeployId::new("d1")),
        "{lapsed:?}"
    );
}

#[test]
fn only_the_author_or_a_deployer_cancels_a_waiting_schedule() {
    let s = schedule("2026-12-01T02:00:00Z");
    let alice = Operator::new("Alice").unwrap();
    let bob = Operator::new("bob").unwrap();
    assert_eq!(check_cancel(&s, &alice, false), Ok(()));
    assert!(matches!(
        check_cancel(&s, &bob, false),
        Err(ScheduleRefusal::NotYours { .. })
    ));
    assert_eq!(check_cancel(&s, &bob, true), Ok(()));
    let done = s.into_state(ScheduleState::Cancelled {
        by: PersonName::new("bob").unwrap(),
        ended: at("2026-11-30T00:00:00Z"),
    });
    assert_eq!(
        check_cancel(&done, &alice, true),
        Err(ScheduleRefusal::NotOpen("cancelled"))
    );
}

#[test]
fn a_schedule_reads_back_as_written() {
    let s = claimed(
        schedule("2026-12-01T02:00:00+01:00"),
        "replica-a",
        at("2026-12-01T01:00:00Z"),
        TimeDelta::minutes(5),
        DeployId::new("d1"),
    );
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["state"], "running");
    assert_eq!(json["at"], "2026-12-01T01:00:00Z");
    let back: Schedule = serde_json::from_value(json).unwrap();
    assert_eq!(back, s);
}

/// Issue 43: a schedule records whether its author asked as a person or a token, reads it
/// back as written, and restores a token author under its token key.
#[test]
fn the_author_kind_is_read_back_and_a_token_author_restored_as_a_token() {
    use crate::domain::policy::ActorKind;
    for kind in [None, Some(ActorKind::Person), Some(ActorKind::Token)] {
        let written = Schedule {
            author_kind: kind,
            ..schedule("2026-11-22T11:00:00Z")
        };
        let line = serde_json::to_string(&written).unwrap();
        let read: Schedule = serde_json::from_str(&line).unwrap();
        assert_eq!(read, written, "{line}");
    }
    let token = schedule("2026-11-22T11:00:00Z").author(CaseMatching::Caseless);
    assert_eq!(
        token.key().as_str(),
        format!("token:{}", token.name().key(CaseMatching::Caseless))
    );
    let person = Schedule {
        author_kind: Some(ActorKind::Person),
        ..schedule("2026-11-22T11:00:00Z")
    }
    .author(CaseMatching::Caseless);
    assert!(!person.key().is_token());
}
