//! The `RequestStore` contract, run against every store: in memory and the JSON Lines file
//! (tests/api/request_store.rs), PostgreSQL (tests/real_pulp/postgres.rs). The in-memory
//! store is the reference behaviour.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use futures::future::join_all;
use repo_console::domain::approval::{
    Actor, ApprovalRequest, ExecutionOutcome, RequestEvent, RequestLog,
};
use repo_console::domain::deploy::{DeployId, DeployKind};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::{Operator, PersonName};
use repo_console::domain::ids::RequestId;
use repo_console::domain::repository::RepoId;
use repo_console::ports::{RequestStore, RequestStoreError};

pub const REPO_A: &str = "0199a1b2-0000-7000-8000-0000000000aa";
pub const REPO_B: &str = "0199a1b2-0000-7000-8000-0000000000bb";

pub fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-10T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::minutes(minutes)
}

/// A request of `repo` made `minutes` after 09:00, named `id`.
pub fn request(id: &str, repo: &str, minutes: i64) -> ApprovalRequest {
    ApprovalRequest {
        id: RequestId::parse(id).unwrap(),
        repository_uuid: repo.into(),
        repository_name: "base-os".into(),
        environment: EnvironmentName::production(),
        target_version: 7,
        asked_against: Some(5),
        requester: PersonName::new("alice").unwrap(),
        requester_key: None,
        requester_groups: vec!["dev".into()],
        requester_kind: Some(repo_console::domain::policy::ActorKind::Person),
        kind: DeployKind::Deploy,
        reason: Some("the fix for CVE-2026-1".into()),
        override_freeze: false,
        release: None,
        created: at(minutes),
        expires: at(minutes) + Duration::hours(24),
        schedule: None,
    }
}

pub fn approved(by: &str, minutes: i64) -> RequestEvent {
    RequestEvent::Approved {
        actor: Actor::of(&Operator::new(by).unwrap()),
        at: at(minutes),
    }
}

fn id(text: &str) -> RequestId {
    RequestId::parse(text).unwrap()
}

fn ids(logs: &[RequestLog]) -> Vec<&str> {
    logs.iter().map(|log| log.request.id.as_str()).collect()
}

/// Requests are kept as made, found by id, and listed newest first, of one repository or all,
/// at most as many as asked; an id is made once.
pub async fn create_get_and_recent(store: &dyn RequestStore) {
    let made = [
        request("r1", REPO_A, 0),
        request("r2", REPO_B, 1),
        request("r3", REPO_A, 2),
    ];
    for request in &made {
        store.create(request).await.unwrap();
    }
    let got = store.get(&id("r2")).await.unwrap().expect("kept");
    assert_eq!(got.request, made[1], "every field as made");
    assert!(got.events.is_empty());
    assert_eq!(store.get(&id("nope")).await.unwrap(), None);
    assert_eq!(
        ids(&store.recent(None, 10).await.unwrap()),
        ["r3", "r2", "r1"],
        "newest first"
    );
    let a = RepoId::parse(REPO_A).unwrap();
    assert_eq!(
        ids(&store.recent(Some(&a), 10).await.unwrap()),
        ["r3", "r1"]
    );
    assert_eq!(ids(&store.recent(Some(&a), 1).await.unwrap()), ["r3"]);
    assert_eq!(ids(&store.recent(None, 2).await.unwrap()), ["r3", "r2"]);
    let none = RepoId::parse("0199a1b2-0000-7000-8000-0000000000cc").unwrap();
    assert!(store.recent(Some(&none), 10).await.unwrap().is_empty());
    let again = store.create(&request("r1", REPO_B, 5)).await;
    assert_eq!(
        again,
        Err(RequestStoreError::Conflict),
        "an id is made once"
    );
    assert_eq!(
        store.get(&id("r1")).await.unwrap().unwrap().request,
        made[0]
    );
}

/// An event is appended only by who saw every event before it; the others get `Conflict` and
/// nothing changes.
pub async fn append_is_compare_and_swap(store: &dyn RequestStore) {
    store.create(&request("cas", REPO_A, 0)).await.unwrap();
    let executed = RequestEvent::Executed {
        deploy_id: DeployId::new("d-1"),
        outcome: ExecutionOutcome::Failed {
            message: "refused: production moved. Nothing was changed.".into(),
        },
        at: at(9),
    };
    store
        .append(&id("cas"), 0, &approved("bob", 1))
        .await
        .unwrap();
    for stale in [0, 2, 7] {
        let refused = store.append(&id("cas"), stale, &approved("carol", 2)).await;
        assert_eq!(refused, Err(RequestStoreError::Conflict), "seen {stale}");
    }
    store.append(&id("cas"), 1, &executed).await.unwrap();
    let log = store.get(&id("cas")).await.unwrap().unwrap();
    assert_eq!(log.events, [approved("bob", 1), executed.clone()]);
    let recent = store.recent(None, 1).await.unwrap();
    assert_eq!(recent[0].events, log.events, "recent brings the events too");
    match store.append(&id("missing"), 0, &approved("bob", 3)).await {
        Err(RequestStoreError::Unavailable { reason, .. }) => {
            assert!(reason.contains("no request missing"), "{reason}")
        }
        other => panic!("no such request: {other:?}"),
    }
}

/// What one store kept, another store over the same storage (a restart, another replica)
/// reads, and appends to after it.
pub async fn another_store_reads_and_continues(
    first: &dyn RequestStore,
    second: &dyn RequestStore,
) {
    first.create(&request("kept", REPO_A, 0)).await.unwrap();
    first
        .append(&id("kept"), 0, &approved("bob", 1))
        .await
        .unwrap();
    let log = second.get(&id("kept")).await.unwrap().expect("kept");
    assert_eq!(log.request, request("kept", REPO_A, 0));
    assert_eq!(log.events, [approved("bob", 1)]);
    let stale = second.append(&id("kept"), 0, &approved("carol", 2)).await;
    assert_eq!(stale, Err(RequestStoreError::Conflict));
    second
        .append(&id("kept"), 1, &approved("carol", 2))
        .await
        .unwrap();
    let log = first.get(&id("kept")).await.unwrap().unwrap();
    assert_eq!(log.events, [approved("bob", 1), approved("carol", 2)]);
}

/// `appenders` append at once after the same events, through `stores` in turn: exactly one
/// succeeds each round, the others get `Conflict`. Answers the rounds' winners.
pub async fn one_of_many_concurrent_appenders_wins(
    stores: &[Arc<dyn RequestStore>],
    appenders: usize,
    rounds: usize,
) -> Vec<String> {
    let first = &stores[0];
    first.create(&request("race", REPO_A, 0)).await.unwrap();
    let mut winners = Vec::new();
    for round in 0..rounds {
        let attempts = (0..appenders).map(|i| {
            let store = stores[i % stores.len()].clone();
            let by = format!("approver-{round}-{i}");
            tokio::spawn(async move {
                let event = approved(&by, round as i64 + 1);
                (by, store.append(&id("race"), round, &event).await)
            })
        });
        let results: Vec<(String, Result<(), RequestStoreError>)> = join_all(attempts)
            .await
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let won: Vec<&String> = results
            .iter()
            .filter(|(_, result)| result.is_ok())
            .map(|(by, _)| by)
            .collect();
        assert_eq!(won.len(), 1, "round {round}: exactly one wins: {results:?}");
        for (by, result) in &results {
            if result.is_err() {
                assert_eq!(result, &Err(RequestStoreError::Conflict), "{by}");
            }
        }
        winners.push(won[0].clone());
    }
    for store in stores {
        let log = store.get(&id("race")).await.unwrap().unwrap();
        let by: Vec<String> = log
            .events
            .iter()
            .map(|event| match event {
                RequestEvent::Approved { actor, .. } => actor.by.to_string(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(by, winners, "every store reads the winners, in order");
    }
    winners
}

/// Retention (issue 34): `remove` takes requests with their events away, answers how many it
/// found, and leaves every other request and its events as they were.
pub async fn remove_takes_only_the_named_requests(store: &dyn RequestStore) {
    for (n, name) in ["old-1", "old-2", "kept-1"].iter().enumerate() {
        store
            .create(&request(name, "repo-r", n as i64))
            .await
            .unwrap();
        store
            .append(&id(name), 0, &approved("bob", n as i64 + 1))
            .await
            .unwrap();
    }
    let removed = store
        .remove(&[id("old-1"), id("old-2"), id("never-made")])
        .await
        .unwrap();
    assert_eq!(removed, 2);
    assert!(store.get(&id("old-1")).await.unwrap().is_none());
    let kept = store.get(&id("kept-1")).await.unwrap().expect("kept");
    assert_eq!(kept.events.len(), 1, "with its event");
    assert_eq!(ids(&store.recent(None, 10).await.unwrap()), ["kept-1"]);
    assert_eq!(store.remove(&[]).await.unwrap(), 0);
    store
        .append(&id("kept-1"), 1, &approved("carol", 9))
        .await
        .unwrap();
}
