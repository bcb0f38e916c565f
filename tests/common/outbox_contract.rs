//! What every `EventOutbox` does, run against each (memory, the JSON Lines file,
//! PostgreSQL): a fact is recorded once, with a delivery per webhook due at the event's
//! time; a claimed delivery is nobody else's until its claim lapses; a retry is due at its
//! time; a lapsed claim settles nothing; delivered and given-up deliveries are done.
//! Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

use std::time::Duration;

use chrono::{DateTime, Utc};
use repo_console::domain::event::{
    ConsoleEvent, EventData, EventId, RepositoryRef, Settlement, SyncFailedData, WebhookUrl,
};
use repo_console::domain::repository::TaskHref;
use repo_console::ports::{EventOutbox, Recorded};

pub const LEASE: Duration = Duration::from_secs(60);

pub fn at(seconds: i64) -> DateTime<Utc> {
    let start: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
        .unwrap()
        .into();
    start + chrono::Duration::seconds(seconds)
}

/// A `sync.failed` event of task `task`, at second 0.
pub fn event(id: &str, task: &str) -> ConsoleEvent {
    ConsoleEvent {
        id: EventId::new(id),
        time: at(0),
        data: EventData::SyncFailed(SyncFailedData {
            repository: RepositoryRef {
                uuid: "01a202de-e818-7629-a483-70ecc3240361".into(),
                name: "base-os".into(),
            },
            task: TaskHref::new(task),
            reason: "Cannot connect".into(),
        }),
    }
}

pub fn hook(url: &str) -> WebhookUrl {
    WebhookUrl::parse(url).unwrap()
}

pub async fn outbox_contract(outbox: &dyn EventOutbox) {
    let (a, b) = (hook("http://a.example/in"), hook("http://b.example/in"));
    let first = event("e-1", "/pulp/api/v3/tasks/1/");
    let both = [a.clone(), b.clone()];
    assert_eq!(outbox.record(&first, &both).await.unwrap(), Recorded::New);
    let again = event("e-2", "/pulp/api/v3/tasks/1/");
    assert_eq!(
        outbox.record(&again, &both).await.unwrap(),
        Recorded::Known,
        "the same fact, under another id"
    );

    assert!(outbox
        .claim_due(at(-1), 10, LEASE)
        .await
        .unwrap()
        .is_empty());
    let claimed = outbox.claim_due(at(0), 10, LEASE).await.unwrap();
    let mut webhooks: Vec<&str> = claimed.iter().map(|d| d.webhook.as_str()).collect();
    webhooks.sort_unstable();
    assert_eq!(webhooks, [a.as_str(), b.as_str()]);
    for delivery in &claimed {
        assert_eq!(delivery.event, first);
        assert_eq!((delivery.attempt, delivery.recorded), (1, at(0)));
    }
    assert!(
        outbox
            .claim_due(at(30), 10, LEASE)
            .await
            .unwrap()
            .is_empty(),
        "claimed until the lease lapses"
    );
    let to_a = claimed.iter().find(|d| d.webhook == a).unwrap();
    let to_b = claimed.iter().find(|d| d.webhook == b).unwrap();
    outbox
        .settle(to_a, &Settlement::Delivered { at: at(1) })
        .await
        .unwrap();
    let retry = Settlement::Retry {
        at: at(1),
        next: at(10),
        error: "the receiver answered 503".into(),
    };
    outbox.settle(to_b, &retry).await.unwrap();
    assert!(outbox.claim_due(at(9), 10, LEASE).await.unwrap().is_empty());
    let second = outbox.claim_due(at(10), 10, LEASE).await.unwrap();
    assert_eq!(second.len(), 1, "only b's, a's was delivered");
    assert_eq!(
        (second[0].webhook.as_str(), second[0].attempt),
        (b.as_str(), 2)
    );

    // Its claimer dies: the delivery is claimed again once the claim lapses, and the late
    // answer of the first claimer changes nothing.
    let third = outbox.claim_due(at(70), 10, LEASE).await.unwrap();
    assert_eq!(third.len(), 1);
    assert_eq!(third[0].attempt, 3);
    let gave_up = |s| Settlement::GaveUp {
        at: at(s),
        error: "the receiver answered 503".into(),
    };
    outbox.settle(&second[0], &gave_up(71)).await.unwrap();
    assert!(
        outbox.claim_due(at(200), 10, LEASE).await.unwrap().len() == 1,
        "still pending: the lapsed claim settled nothing"
    );
    let fourth = outbox.claim_due(at(300), 10, LEASE).await.unwrap();
    outbox.settle(&fourth[0], &gave_up(301)).await.unwrap();
    assert!(outbox
        .claim_due(at(10_000), 10, LEASE)
        .await
        .unwrap()
        .is_empty());

    // Oldest first, at most the limit.
    for n in 3..6 {
        let mut later = event(&format!("e-{n}"), &format!("/pulp/api/v3/tasks/{n}/"));
        later.time = at(20_000 - n);
        outbox
            .record(&later, std::slice::from_ref(&a))
            .await
            .unwrap();
    }
    let oldest = outbox.claim_due(at(20_000), 2, LEASE).await.unwrap();
    let ids: Vec<&str> = oldest.iter().map(|d| d.event.id.as_str()).collect();
    assert_eq!(ids, ["e-5", "e-4"]);
}

/// Compaction (issue 34): an event whose deliveries all ended before the cut loses its body,
/// its fact stays known; pending deliveries and later events are untouched. `keeps_bodies`:
/// the outbox keeps finished events until compacted (file, PostgreSQL), so it reports one.
pub async fn compaction_contract(outbox: &dyn EventOutbox, keeps_bodies: bool) {
    let a = hook("http://a.example/in");
    let to_a = std::slice::from_ref(&a);
    let mut old = event("c-1", "/pulp/api/v3/tasks/101/");
    old.time = at(0);
    let mut pending = event("c-2", "/pulp/api/v3/tasks/102/");
    pending.time = at(1);
    let mut recent = event("c-3", "/pulp/api/v3/tasks/103/");
    recent.time = at(2);
    for e in [&old, &pending, &recent] {
        assert_eq!(outbox.record(e, to_a).await.unwrap(), Recorded::New);
    }
    let claimed = outbox.claim_due(at(2), 10, LEASE).await.unwrap();
    assert_eq!(claimed.len(), 3);
    let of = |id: &str| claimed.iter().find(|d| d.event.id.as_str() == id).unwrap();
    outbox
        .settle(of("c-1"), &Settlement::Delivered { at: at(10) })
        .await
        .unwrap();
    let retry = Settlement::Retry {
        at: at(10),
        next: at(500),
        error: "503".into(),
    };
    outbox.settle(of("c-2"), &retry).await.unwrap();
    outbox
        .settle(
            of("c-3"),
            &Settlement::GaveUp {
                at: at(200),
                error: "410".into(),
            },
        )
        .await
        .unwrap();

    let compacted = outbox.compact(at(100)).await.unwrap();
    if keeps_bodies {
        assert_eq!(compacted, 1, "only c-1 ended before the cut");
    }
    assert_eq!(
        outbox.compact(at(100)).await.unwrap(),
        0,
        "nothing left to compact"
    );
    for (id, task) in [("again-1", 101), ("again-3", 103)] {
        let same_fact = event(id, &format!("/pulp/api/v3/tasks/{task}/"));
        assert_eq!(
            outbox.record(&same_fact, to_a).await.unwrap(),
            Recorded::Known,
            "a compacted fact is never told twice"
        );
    }
    let due = outbox.claim_due(at(500), 10, LEASE).await.unwrap();
    assert_eq!(due.len(), 1, "the pending delivery is untouched");
    assert_eq!((due[0].event.id.as_str(), due[0].attempt), ("c-2", 2));
    assert_eq!(due[0].event, pending, "with its whole event");
    assert_eq!(outbox.newest_event_at().await.unwrap(), Some(at(2)));
}
