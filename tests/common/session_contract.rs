//! The `SessionStore` contract, run against every store: in memory and the JSON Lines files
//! (tests/api/session_store.rs), PostgreSQL (tests/real_pulp/postgres.rs). The in-memory
//! store is the reference behaviour.

#![allow(dead_code)] // each binary uses its own part

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use futures::future::join_all;
use repo_console::ports::session_store::{PendingSignIn, SessionStore, SignInLine, StoredSession};

pub fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-27T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::minutes(minutes)
}

pub fn session(key: &str, name: &str) -> StoredSession {
    StoredSession {
        key: key.to_owned(),
        name: name.to_owned(),
        groups: vec!["release".to_owned(), "Ops Team".to_owned()],
        subject: format!("sub-{name}"),
        started: at(0),
        last_seen: at(0),
    }
}

pub fn pending(key: &str) -> PendingSignIn {
    PendingSignIn {
        key: key.to_owned(),
        state: format!("state-{key}"),
        nonce: format!("nonce-{key}"),
        pkce_verifier: format!("verifier-{key}"),
        return_to: "/releases?x=1".to_owned(),
        started: at(1),
    }
}

/// Sessions are kept, found by key only, touched forward only, and ended once.
pub async fn sessions_start_touch_and_end(store: &dyn SessionStore) {
    assert_eq!(store.find("k1").await.unwrap(), None);
    store.start(&session("k1", "Zoë")).await.unwrap();
    store.start(&session("k2", "bob")).await.unwrap();
    assert_eq!(store.find("k1").await.unwrap(), Some(session("k1", "Zoë")));
    store.touch("k1", at(5)).await.unwrap();
    store.touch("k1", at(3)).await.unwrap();
    let touched = store.find("k1").await.unwrap().unwrap();
    assert_eq!(touched.last_seen, at(5), "a late write never moves it back");
    assert_eq!(touched.started, at(0));
    store.touch("nobody", at(5)).await.unwrap();
    assert_eq!(
        store.find("nobody").await.unwrap(),
        None,
        "a touch starts nothing"
    );
    assert!(store.end("k1").await.unwrap());
    assert!(!store.end("k1").await.unwrap(), "ended once");
    assert_eq!(store.find("k1").await.unwrap(), None);
    assert_eq!(store.find("k2").await.unwrap(), Some(session("k2", "bob")));
}

/// A sign-in under way is taken once, whoever asks.
pub async fn sign_ins_are_taken_once(stores: &[Arc<dyn SessionStore>]) {
    let first = &stores[0];
    first.begin_sign_in(&pending("p1")).await.unwrap();
    first.begin_sign_in(&pending("p2")).await.unwrap();
    assert_eq!(
        stores.last().unwrap().take_sign_in("none").await.unwrap(),
        None
    );
    let takes = join_all((0..16).map(|i| {
        let store = stores[i % stores.len()].clone();
        async move { store.take_sign_in("p1").await.unwrap() }
    }))
    .await;
    let taken: Vec<_> = takes.into_iter().flatten().collect();
    assert_eq!(taken, vec![pending("p1")], "exactly one of 16 takes it");
    assert_eq!(first.take_sign_in("p2").await.unwrap(), Some(pending("p2")));
    assert_eq!(first.take_sign_in("p2").await.unwrap(), None);
}

/// Audit lines are read back in order, as written.
pub async fn audit_lines_read_back(store: &dyn SessionStore) {
    let lines = vec![
        SignInLine {
            at: at(1),
            event: "signed_in",
            operator: Some("Zoë".to_owned()),
            groups: vec!["release".to_owned()],
            from: Some("10.0.0.7".parse().unwrap()),
            reason: None,
        },
        SignInLine {
            at: at(2),
            event: "refused",
            operator: None,
            groups: Vec::new(),
            from: Some("::1".parse().unwrap()),
            reason: Some("state mismatch \"quoted\"\nnew line".to_owned()),
        },
        SignInLine {
            at: at(3),
            event: "expired",
            operator: Some("bob".to_owned()),
            groups: Vec::new(),
            from: None,
            reason: Some("idle".to_owned()),
        },
    ];
    for line in &lines {
        store.audit(line).await.unwrap();
    }
    assert_eq!(store.audit_lines().await.unwrap(), lines);
}

/// Sessions past a lifetime and old sign-ins under way are forgotten; the others kept.
pub async fn stale_sessions_and_sign_ins_are_forgotten(store: &dyn SessionStore) {
    let mut idle = session("idle", "a");
    idle.last_seen = at(10);
    let mut old = session("old", "b");
    old.started = at(-500);
    old.last_seen = at(100);
    let mut live = session("live", "c");
    live.started = at(50);
    live.last_seen = at(100);
    for s in [&idle, &old, &live] {
        store.start(s).await.unwrap();
    }
    let mut stale = pending("stale");
    stale.started = at(0);
    let mut fresh = pending("fresh");
    fresh.started = at(95);
    store.begin_sign_in(&stale).await.unwrap();
    store.begin_sign_in(&fresh).await.unwrap();
    let forgotten = store.forget_stale(at(70), at(-20), at(90)).await.unwrap();
    assert_eq!(forgotten, 3, "idle, old and the stale sign-in");
    assert_eq!(store.find("idle").await.unwrap(), None);
    assert_eq!(store.find("old").await.unwrap(), None);
    assert_eq!(store.find("live").await.unwrap(), Some(live));
    assert_eq!(store.take_sign_in("stale").await.unwrap(), None);
    assert_eq!(store.take_sign_in("fresh").await.unwrap(), Some(fresh));
    assert_eq!(
        store.forget_stale(at(70), at(-20), at(90)).await.unwrap(),
        0
    );
}
