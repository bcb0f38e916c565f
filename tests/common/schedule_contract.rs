//! The `ScheduleStore` contract, run against every store: in memory and the JSON Lines file
//! (tests/api/schedule_store.rs), PostgreSQL (tests/real_pulp/postgres.rs). The in-memory
//! store is the reference behaviour.

#![allow(dead_code)] // each binary uses its own part

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use futures::future::join_all;
use repo_console::domain::deploy::{DeployId, DeployKind};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::{CaseMatching, PersonName};
use repo_console::domain::ids::ScheduleId;
use repo_console::domain::repository::RepoId;
use repo_console::domain::schedule::rules::claimed;
use repo_console::domain::schedule::{Schedule, ScheduleState};
use repo_console::ports::{ScheduleStore, ScheduleStoreError};

pub const REPO_A: &str = "0199a1b2-0000-7000-8000-0000000000aa";
pub const REPO_B: &str = "0199a1b2-0000-7000-8000-0000000000bb";

pub fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-10T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::minutes(minutes)
}

/// A waiting schedule `id` of `repo`, made `made` minutes after 09:00 to run `runs` minutes
/// after it.
pub fn schedule(id: &str, repo: &str, made: i64, runs: i64) -> Schedule {
    let author = PersonName::new("alice").unwrap();
    Schedule {
        id: ScheduleId::parse(id).unwrap(),
        repository_uuid: repo.into(),
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
        author_kind: Some(repo_console::domain::policy::ActorKind::Token),
        at: at(runs),
        created: at(made),
        request_id: None,
        revision: 0,
        state: ScheduleState::Waiting,
    }
}

fn ids(schedules: &[Schedule]) -> Vec<&str> {
    schedules.iter().map(|s| s.id.as_str()).collect()
}

/// Schedules are kept as made, found by id, listed newest made first (of one repository or
/// all) and, while open, soonest first; an id is made once.
pub async fn create_get_recent_and_open(store: &dyn ScheduleStore) {
    let made = [
        schedule("s-1", REPO_A, 0, 60),
        schedule("s-2", REPO_B, 1, 30),
        schedule("s-3", REPO_A, 2, 90),
    ];
    for s in &made {
        store.create(s).await.unwrap();
    }
    assert_eq!(
        store.create(&made[0]).await,
        Err(ScheduleStoreError::Conflict),
        "an id is made once"
    );
    assert_eq!(
        store.get(&made[1].id).await.unwrap().as_ref(),
        Some(&made[1])
    );
    assert_eq!(
        store.get(&ScheduleId::parse("none").unwrap()).await,
        Ok(None)
    );
    assert_eq!(
        ids(&store.recent(None, 10).await.unwrap()),
        ["s-3", "s-2", "s-1"]
    );
    let repo_a = RepoId::parse(REPO_A).unwrap();
    assert_eq!(ids(&store.recent(Some(&repo_a), 1).await.unwrap()), ["s-3"]);
    assert_eq!(ids(&store.open().await.unwrap()), ["s-2", "s-1", "s-3"]);
    let cancelled = made[1].clone().into_state(ScheduleState::Cancelled {
        by: PersonName::new("bob").unwrap(),
        ended: at(5),
    });
    store.replace(&cancelled).await.unwrap();
    assert_eq!(
        ids(&store.open().await.unwrap()),
        ["s-1", "s-3"],
        "an ended one is not open"
    );
    assert_eq!(store.get(&made[1].id).await.unwrap(), Some(cancelled));
}

/// A replacement lands only over the revision it was made from.
pub async fn replace_is_compare_and_swap(store: &dyn ScheduleStore) {
    let first = schedule("s-cas", REPO_A, 0, 60);
    store.create(&first).await.unwrap();
    let by_a = claimed(
        first.clone(),
        "replica-a",
        at(60),
        Duration::minutes(10),
        DeployId::new("d-a"),
    );
    let by_b = claimed(
        first.clone(),
        "replica-b",
        at(60),
        Duration::minutes(10),
        DeployId::new("d-b"),
    );
    store.replace(&by_a).await.unwrap();
    assert_eq!(
        store.replace(&by_b).await,
        Err(ScheduleStoreError::Conflict)
    );
    assert_eq!(
        store.replace(&by_a).await,
        Err(ScheduleStoreError::Conflict),
        "not twice"
    );
    assert_eq!(store.get(&first.id).await.unwrap(), Some(by_a.clone()));
    let ghost = schedule("s-ghost", REPO_A, 0, 60).into_state(ScheduleState::Waiting);
    assert!(matches!(
        store.replace(&ghost).await,
        Err(ScheduleStoreError::Missing(_))
    ));
}

/// Of many replicas (`stores`, over one place) claiming one schedule at once, exactly one
/// claim lands.
pub async fn one_of_many_concurrent_claims_wins(stores: &[Arc<dyn ScheduleStore>], claims: usize) {
    let first = schedule("s-race", REPO_A, 0, 60);
    stores[0].create(&first).await.unwrap();
    let attempts = (0..claims).map(|i| {
        let store = stores[i % stores.len()].clone();
        let mine = claimed(
            first.clone(),
            &format!("replica-{i}"),
            at(60),
            Duration::minutes(10),
            DeployId::new(format!("d-{i}")),
        );
        async move { (i, store.replace(&mine).await) }
    });
    let results = join_all(attempts).await;
    let won: Vec<usize> = results
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(i, _)| *i)
        .collect();
    assert_eq!(won.len(), 1, "{results:?}");
    assert!(results
        .iter()
        .all(|(_, r)| r.is_ok() || *r == Err(ScheduleStoreError::Conflict)));
    let kept = stores[0].get(&first.id).await.unwrap().unwrap();
    match kept.state {
        ScheduleState::Running { claim } => assert_eq!(claim.by, format!("replica-{}", won[0])),
        other => panic!("{other:?}"),
    }
}

/// Retention removes the ended schedules named, never an open one; a store of good records
/// has nothing unreadable.
pub async fn only_ended_schedules_are_removed(store: &dyn ScheduleStore) {
    let waiting = schedule("s-waiting", REPO_A, 0, 60);
    let ended = schedule("s-ended", REPO_A, 1, 60);
    let kept = schedule("s-kept", REPO_B, 2, 60);
    for s in [&waiting, &ended, &kept] {
        store.create(s).await.unwrap();
    }
    let cancelled = |s: &Schedule| {
        s.clone().into_state(ScheduleState::Cancelled {
            by: PersonName::new("bob").unwrap(),
            ended: at(5),
        })
    };
    store.replace(&cancelled(&ended)).await.unwrap();
    store.replace(&cancelled(&kept)).await.unwrap();
    let none = ScheduleId::parse("s-none").unwrap();
    assert_eq!(
        store
            .remove_ended(&[waiting.id.clone(), ended.id.clone(), none])
            .await,
        Ok(1),
        "only the ended one named"
    );
    assert_eq!(store.get(&ended.id).await, Ok(None));
    assert_eq!(store.get(&waiting.id).await.unwrap(), Some(waiting.clone()));
    assert_eq!(
        ids(&store.recent(None, 10).await.unwrap()),
        ["s-kept", "s-waiting"]
    );
    assert_eq!(ids(&store.open().await.unwrap()), ["s-waiting"]);
    assert_eq!(store.remove_ended(&[]).await, Ok(0));
    assert_eq!(store.unreadable().await, Ok(Vec::new()));
    let again = cancelled(&waiting);
    store.replace(&again).await.unwrap();
    assert_eq!(
        store.get(&waiting.id).await.unwrap(),
        Some(again),
        "still written after a removal"
    );
}
