//! The edge state store contract (tests/common/edge_state_contract.rs) on PostgreSQL, each
//! test in a database of its own; two replicas (a pool each) on one database: what one kept
//! the other reads, and of both swapping the same cell at once, one sees the change.

use std::sync::Arc;

use repo_console::adapters::postgres::{connect, PgEdgeStates};
use repo_console::ports::edge_state_store::EdgeStateStore;

use super::database::{required_database, TestDatabase};
use super::edge_state_contract;

/// An edge state store on its own connection pool to `database` (as a replica has).
async fn store(database: &TestDatabase) -> Arc<dyn EdgeStateStore> {
    let db = connect(&database.url, None).await.unwrap();
    Arc::new(PgEdgeStates::new(db))
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn every_record_reads_back_as_written_also_on_another_replica() {
    let database = required_database();
    let first = store(&database).await;
    assert!(first.target().ends_with("(edge_states)"));
    edge_state_contract::every_record_reads_back_as_written(first.as_ref()).await;
    let second = store(&database).await;
    assert_eq!(
        second.load().await.unwrap(),
        first.load().await.unwrap(),
        "what one replica kept, another reads"
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_last_record_under_a_key_wins() {
    let database = required_database();
    edge_state_contract::the_last_record_under_a_key_wins(store(&database).await.as_ref()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL"]
async fn of_two_replicas_swapping_one_cell_at_once_one_sees_the_change() {
    let database = required_database();
    let replicas = [store(&database).await, store(&database).await];
    edge_state_contract::one_swap_sees_each_change(&replicas).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_row_that_cannot_be_read_is_left_out_and_never_stands_for_a_state() {
    let database = required_database();
    let store = store(&database).await;
    database.query(
        "INSERT INTO edge_states (key, record) VALUES \
         ('cell:dc1:prod-a', '{\"record\":\"cell\",\"edge\":\"dc1\",\"distribution\":\"prod-a\",\"state\":{\"state\":\"fine\"},\"served\":null,\"served_since\":null,\"judged_at\":\"2026-11-28T00:00:00Z\"}')",
    );
    let loaded = store.load().await.unwrap();
    assert!(loaded.cells.is_empty(), "{loaded:?}");
}
