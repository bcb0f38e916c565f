//! The session store contract (tests/common/session_contract.rs) on PostgreSQL, each test in
//! a database of its own; two replicas (a pool each) on one database: a session started on
//! one is found on the other, and a sign-in under way is taken by exactly one of them.

use std::sync::Arc;

use repo_console::adapters::postgres::{connect, PgSessionStore};
use repo_console::ports::session_store::SessionStore;

use super::database::{required_database, TestDatabase};
use super::session_contract;

/// A session store on its own connection pool to `database` (as a replica has).
async fn store(database: &TestDatabase) -> Arc<dyn SessionStore> {
    let db = connect(&database.url, None).await.unwrap();
    Arc::new(PgSessionStore::new(db))
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn sessions_start_touch_and_end() {
    let database = required_database();
    let store = store(&database).await;
    assert!(store.target().ends_with("(console_sessions)"));
    session_contract::sessions_start_touch_and_end(store.as_ref()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL"]
async fn a_sign_in_under_way_is_taken_by_one_replica_once() {
    let database = required_database();
    let replicas = [store(&database).await, store(&database).await];
    session_contract::sign_ins_are_taken_once(&replicas).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn stale_sessions_and_sign_ins_are_forgotten() {
    let database = required_database();
    session_contract::stale_sessions_and_sign_ins_are_forgotten(store(&database).await.as_ref())
        .await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn audit_lines_read_back() {
    let database = required_database();
    session_contract::audit_lines_read_back(store(&database).await.as_ref()).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn every_replica_knows_every_session() {
    let database = required_database();
    let (one, other) = (store(&database).await, store(&database).await);
    one.start(&session_contract::session("k", "alice"))
        .await
        .unwrap();
    assert_eq!(
        other.find("k").await.unwrap(),
        Some(session_contract::session("k", "alice"))
    );
    assert!(other.end("k").await.unwrap());
    assert_eq!(one.find("k").await.unwrap(), None);
}
