//! Property tests of the schedule's record (issue 43): every schedule, in every state and
//! with any text in its fields, is written with no key twice and read back as it was; a
//! `refused` record in the form written before 0.9 (`reason` twice) reads back the same.

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;

use crate::domain::deploy::{DeployId, DeployKind};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::{CaseMatching, PersonName};
use crate::domain::ids::{RequestId, ScheduleId};
use crate::domain::policy::ActorKind;
use crate::domain::record_keys::Written;
use crate::domain::schedule::{record, Claim, Schedule, ScheduleState};

fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    (0i64..4_000_000_000, 0u32..1000)
        .prop_map(|(s, ms)| Utc.timestamp_opt(s, ms * 1_000_000).single().unwrap())
}

fn text() -> impl Strategy<Value = String> {
    // Any text, quotes, escapes and keys of the record included.
    prop_oneof![
        ".{0,40}",
        Just("\"reason\":\"x\"".to_owned()),
        Just("refusal".to_owned()),
        Just(String::new()),
    ]
}

fn person() -> impl Strategy<Value = PersonName> {
    "[a-zA-Z][a-zA-Z0-9._-]{0,20}".prop_map(|n| PersonName::new(&n).unwrap())
}

fn state() -> impl Strategy<Value = ScheduleState> {
    prop_oneof![
        Just(ScheduleState::Waiting),
        ("[a-z0-9-]{1,20}", instant(), "[a-f0-9-]{1,36}").prop_map(|(by, until, id)| {
            ScheduleState::Running {
                claim: Claim {
                    by,
                    until,
                    deploy_id: DeployId::new(id),
                },
            }
        }),
        ("[a-f0-9-]{1,36}", instant()).prop_map(|(id, ended)| ScheduleState::Done {
            deploy_id: DeployId::new(id),
            ended,
        }),
        ("[a-f0-9-]{1,36}", instant(), text()).prop_map(|(id, ended, message)| {
            ScheduleState::Failed {
                deploy_id: DeployId::new(id),
                ended,
                message,
            }
        }),
        (person(), instant()).prop_map(|(by, ended)| ScheduleState::Cancelled { by, ended }),
        (instant(), text()).prop_map(|(ended, reason)| ScheduleState::Refused { ended, reason }),
    ]
}

prop_compose! {
    fn schedule()(
        id in "[a-zA-Z0-9-]{1,64}",
        repository_uuid in "[a-f0-9-]{0,36}",
        repository_name in text(),
        environment in prop_oneof![Just("testing"), Just("staging"), Just("production")],
        target_version in any::<u64>(),
        expected in proptest::option::of(any::<u64>()),
        rollback in any::<bool>(),
        reason in proptest::option::of(text()),
        override_freeze in any::<bool>(),
        author in person(),
        author_groups in proptest::collection::vec("[a-z]{1,10}", 0..3),
        author_kind in prop_oneof![
            Just(None),
            Just(Some(ActorKind::Person)),
            Just(Some(ActorKind::Token))
        ],
        at in instant(),
        created in instant(),
        request_id in proptest::option::of("[a-f0-9-]{1,36}"),
        revision in any::<u64>(),
        state in state(),
    ) -> Schedule {
        Schedule {
            id: ScheduleId::parse(&id).unwrap(),
            repository_uuid,
            repository_name,
            environment: EnvironmentName::parse(environment).unwrap(),
            target_version,
            expected,
            kind: if rollback { DeployKind::Rollback } else { DeployKind::Deploy },
            reason,
            override_freeze,
            author_key: author.key(CaseMatching::Caseless),
            author,
            author_groups,
            author_kind,
            at,
            created,
            request_id: request_id.and_then(|r| RequestId::parse(&r)),
            revision,
            state,
        }
    }
}

proptest! {
    #[test]
    fn every_schedule_is_written_without_a_key_twice_and_read_back(schedule in schedule()) {
        let bytes = record::write(&schedule).unwrap();
        let written = Written::parse(&bytes).unwrap();
        prop_assert_eq!(written.duplicate_keys(), Vec::<String>::new());
        prop_assert_eq!(record::read(&bytes), Ok(schedule.clone()));
        prop_assert_eq!(record::id_of(&bytes), Some(schedule.id.clone()));
    }

    #[test]
    fn a_refused_record_written_before_0_9_reads_back_the_same(
        schedule in schedule(),
        ended in instant(),
        refusal in text(),
    ) {
        let refused = schedule.into_state(ScheduleState::Refused { ended, reason: refusal });
        let mut object = match Written::parse(&record::write(&refused).unwrap()).unwrap() {
            Written::Object(entries) => entries,
            other => panic!("{other:?}"),
        };
        for (key, _) in &mut object {
            if key == "refusal" {
                *key = "reason".to_owned();
            }
        }
        let old = serde_json::to_vec(&OldLine(&object)).unwrap();
        prop_assert_eq!(Written::parse(&old).unwrap().duplicate_keys(), vec!["reason".to_owned()]);
        prop_assert_eq!(record::read(&old), Ok(refused));
    }

    #[test]
    fn a_torn_record_names_its_schedule_only_once_its_id_is_whole(
        schedule in schedule(),
        cut in 0usize..200,
    ) {
        let bytes = record::write(&schedule).unwrap();
        let cut = cut.min(bytes.len() - 1);
        let torn = &bytes[..cut];
        let whole_id = format!("{{\"id\":\"{}\"", schedule.id);
        match record::id_of(torn) {
            Some(id) => {
                prop_assert_eq!(&id, &schedule.id);
                prop_assert!(torn.starts_with(whole_id.as_bytes()));
            }
            None => prop_assert!(torn.len() < whole_id.len()),
        }
    }
}

/// An object written entry by entry, a key twice where the old writer put it twice.
struct OldLine<'a>(&'a [(String, Written)]);

impl serde::Serialize for OldLine<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, &value.clone().into_value())?;
        }
        map.end()
    }
}
