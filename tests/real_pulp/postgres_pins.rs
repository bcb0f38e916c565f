//! The pin store on PostgreSQL (`pin_records`): the contract of tests/common/pin_contract.rs,
//! two replicas (each its own pool) holding the same pin, and a row that cannot be read
//! holding its pin (never lifting or setting it in silence).

use std::sync::Arc;

use repo_console::adapters::postgres::{connect, PgPinStore};
use repo_console::domain::pin::PinRecord;
use repo_console::ports::{PinStore, PinStoreError};

use super::database::{required_database, TestDatabase};
use super::pin_contract::{
    a_pin_is_set_replaced_held_and_lifted, every_replica_holds_the_same_pin, key, pin, REPO_A,
    REPO_B,
};

/// A pin store on its own connection pool to `database` (as a replica has).
async fn pin_store(database: &TestDatabase) -> Arc<dyn PinStore> {
    let db = connect(&database.url, None).await.unwrap();
    Arc::new(PgPinStore::new(db))
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_pin_is_set_replaced_held_and_lifted_in_postgres() {
    let database = required_database();
    let store = pin_store(&database).await;
    assert!(store.target().starts_with("postgres://127.0.0.1:"));
    a_pin_is_set_replaced_held_and_lifted(store.as_ref()).await;
    assert_eq!(database.query("SELECT count(*) FROM pin_records"), "8");
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn every_replica_holds_the_same_pin_in_postgres() {
    let database = required_database();
    let (first, second) = (pin_store(&database).await, pin_store(&database).await);
    every_replica_holds_the_same_pin(first.as_ref(), second.as_ref()).await;
}

/// The attack: a row edited so that it cannot be read (by hand, or a bad restore) must not
/// lift or set the pin it names; another pin still reads.
#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_row_that_cannot_be_read_holds_its_pin_in_postgres() {
    let database = required_database();
    let store = pin_store(&database).await;
    let production = key(REPO_A, "production");
    store
        .append(&PinRecord::Set(pin(REPO_A, "production", 3, 0)))
        .await
        .unwrap();
    store
        .append(&PinRecord::Set(pin(REPO_B, "production", 5, 1)))
        .await
        .unwrap();
    database.query(&format!(
        "UPDATE pin_records SET record = replace(record, '\"version\":3', '\"version\":\"three\"') \
         WHERE pin_key = '{production}'"
    ));
    match store.standing(&production).await {
        Err(PinStoreError::Unreadable(unreadable)) => {
            assert_eq!(unreadable.id, Some(production.clone()));
            assert!(
                unreadable.place.starts_with("pin_records row "),
                "{}",
                unreadable.place
            );
        }
        other => panic!("an unreadable row must hold its pin: {other:?}"),
    }
    assert_eq!(
        store
            .standing(&key(REPO_B, "production"))
            .await
            .unwrap()
            .map(|p| p.version.get()),
        Some(5)
    );
}
