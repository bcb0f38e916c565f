//! Property test of the request file's lines (issue 43): any request and any events, written
//! by the store, hold no key twice on any line and are read back, by a fresh store, as they
//! were written.

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;

use crate::domain::approval::{
    Actor, ApprovalRequest, ExecutionOutcome, RequestEvent, ScheduledFor,
};
use crate::domain::deploy::{DeployId, DeployKind};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::{CaseMatching, PersonName};
use crate::domain::ids::{RequestId, ScheduleId};
use crate::domain::policy::ActorKind;
use crate::domain::record_keys::Written;
use crate::ports::RequestStore;

use super::JsonlRequestStore;

fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    (0i64..4_000_000_000, 0u32..1000)
        .prop_map(|(s, ms)| Utc.timestamp_opt(s, ms * 1_000_000).single().unwrap())
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,30}",
        Just("\"event\":\"x\"".to_owned()),
        Just(String::new())
    ]
}

fn person() -> impl Strategy<Value = PersonName> {
    "[a-zA-Z][a-zA-Z0-9._-]{0,20}".prop_map(|n| PersonName::new(&n).unwrap())
}

fn actor() -> impl Strategy<Value = Actor> {
    (person(), any::<bool>(), proptest::option::of(person())).prop_map(|(by, keyed, owner)| Actor {
        person: keyed.then(|| by.key(CaseMatching::Caseless)),
        kind: owner
            .as_ref()
            .map(|_| crate::domain::policy::ActorKind::Token),
        owner,
        by,
    })
}

fn event() -> impl Strategy<Value = RequestEvent> {
    prop_oneof![
        (actor(), instant()).prop_map(|(actor, at)| RequestEvent::Approved { actor, at }),
        (actor(), instant()).prop_map(|(actor, at)| RequestEvent::Rejected { actor, at }),
        (actor(), instant()).prop_map(|(actor, at)| RequestEvent::Cancelled { actor, at }),
        (text(), instant()).prop_map(|(now_serving, at)| RequestEvent::Stale { now_serving, at }),
        ("[a-f0-9-]{1,36}", proptest::option::of(text()), instant()).prop_map(
            |(id, failed, at)| RequestEvent::Executed {
                deploy_id: DeployId::new(id),
                outcome: match failed {
                    None => ExecutionOutcome::Deployed,
                    Some(message) => ExecutionOutcome::Failed { message },
                },
                at,
            }
        ),
    ]
}

prop_compose! {
    fn request()(
        id in "[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}",
        repository_name in text(),
        environment in prop_oneof![Just("testing"), Just("staging"), Just("production")],
        target_version in any::<u64>(),
        asked_against in proptest::option::of(any::<u64>()),
        requester in person(),
        keyed in any::<bool>(),
        requester_groups in proptest::collection::vec("[a-z]{1,10}", 0..3),
        requester_kind in prop_oneof![
            Just(None),
            Just(Some(ActorKind::Person)),
            Just(Some(ActorKind::Token))
        ],
        rollback in any::<bool>(),
        reason in proptest::option::of(text()),
        override_freeze in any::<bool>(),
        created in instant(),
        expires in instant(),
        schedule in proptest::option::of(("[a-z0-9-]{1,20}", instant())),
    ) -> ApprovalRequest {
        ApprovalRequest {
            id: RequestId::parse(&id).unwrap(),
            repository_uuid: "0199a1b2-0000-7000-8000-0000000000aa".into(),
            repository_name,
            environment: EnvironmentName::parse(environment).unwrap(),
            target_version,
            asked_against,
            requester_key: keyed.then(|| requester.key(CaseMatching::Caseless)),
            requester,
            requester_groups,
            requester_kind,
            kind: if rollback { DeployKind::Rollback } else { DeployKind::Deploy },
            reason,
            override_freeze,
            release: None,
            created,
            expires,
            schedule: schedule.map(|(id, at)| ScheduledFor {
                schedule_id: ScheduleId::parse(&id).unwrap(),
                at,
            }),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_request_and_event_is_written_without_a_key_twice_and_read_back(
        request in request(),
        events in proptest::collection::vec(event(), 0..4),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("requests.jsonl");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let read = runtime.block_on(async {
            let store = JsonlRequestStore::new(&path);
            store.create(&request).await.unwrap();
            for (seen, event) in events.iter().enumerate() {
                store.append(&request.id, seen, event).await.unwrap();
            }
            JsonlRequestStore::new(&path).get(&request.id).await.unwrap()
        });
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let written = Written::parse(line.as_bytes()).unwrap();
            prop_assert_eq!(written.duplicate_keys(), Vec::<String>::new(), "{}", line);
        }
        let log = read.expect("the request read back");
        prop_assert_eq!(log.request, request);
        prop_assert_eq!(log.events, events);
    }
}
