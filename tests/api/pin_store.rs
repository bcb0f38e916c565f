//! The pin store contract (tests/common/pin_contract.rs) on the in-memory store and the JSON
//! Lines file; PostgreSQL runs it in tests/real_pulp/postgres_pins.rs. The file also: kept
//! across store instances, a torn last line not read, and a line that cannot be read holding
//! its pin (never lifting or setting it in silence).

use std::io::Write;

use repo_console::adapters::files::pins::JsonlPinStore;
use repo_console::adapters::memory::MemoryPinStore;
use repo_console::domain::pin::{LiftedBy, PinRecord};
use repo_console::ports::{PinStore, PinStoreError};

use super::pin_contract::{
    a_pin_is_set_replaced_held_and_lifted, every_replica_holds_the_same_pin, key, lift, pin,
    REPO_A, REPO_B,
};

fn path(dir: &tempfile::TempDir) -> std::path::PathBuf {
    dir.path().join("logs").join("pins.jsonl")
}

fn append_raw(dir: &tempfile::TempDir, bytes: &[u8]) {
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(path(dir))
        .unwrap();
    file.write_all(bytes).unwrap();
}

#[tokio::test]
async fn memory_a_pin_is_set_replaced_held_and_lifted() {
    a_pin_is_set_replaced_held_and_lifted(&MemoryPinStore::default()).await;
}

#[tokio::test]
async fn jsonl_a_pin_is_set_replaced_held_and_lifted() {
    let dir = tempfile::tempdir().unwrap();
    let store = JsonlPinStore::new(path(&dir));
    assert_eq!(store.target(), path(&dir).display().to_string());
    a_pin_is_set_replaced_held_and_lifted(&store).await;
}

#[tokio::test]
async fn jsonl_two_stores_on_one_file_hold_the_same_pin_and_a_restart_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (
        JsonlPinStore::new(path(&dir)),
        JsonlPinStore::new(path(&dir)),
    );
    every_replica_holds_the_same_pin(&first, &second).await;
    first
        .append(&PinRecord::Set(pin(REPO_A, "staging", 4, 9)))
        .await
        .unwrap();
    drop((first, second));
    let restarted = JsonlPinStore::new(path(&dir));
    assert_eq!(
        restarted.standing(&key(REPO_A, "staging")).await.unwrap(),
        Some(pin(REPO_A, "staging", 4, 9))
    );
}

/// The attack: a line damaged after its key (by hand, or a disk) must not lift the pin it
/// names, nor set one; the other pins still read; mended, the pin reads again.
#[tokio::test]
async fn jsonl_a_line_that_cannot_be_read_holds_its_pin_and_lifts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = JsonlPinStore::new(path(&dir));
    let production = key(REPO_A, "production");
    store
        .append(&PinRecord::Set(pin(REPO_A, "production", 3, 0)))
        .await
        .unwrap();
    store
        .append(&PinRecord::Set(pin(REPO_B, "production", 5, 1)))
        .await
        .unwrap();
    // A lift of REPO_A's pin, damaged after its key.
    let line =
        format!("{{\"pin\":\"{production}\",\"record\":{{\"record\":\"lifted\",\"repository\":");
    append_raw(&dir, format!("{line}\n").as_bytes());
    match store.standing(&production).await {
        Err(PinStoreError::Unreadable(unreadable)) => {
            assert_eq!(unreadable.id, Some(production.clone()));
            assert!(unreadable.place.ends_with("line 3"), "{}", unreadable.place);
            assert!(unreadable.to_string().contains("pin "), "{unreadable}");
        }
        other => panic!("a damaged lift must not read as lifted: {other:?}"),
    }
    assert!(matches!(
        store.of_repository(&production.repository).await,
        Err(PinStoreError::Unreadable(_))
    ));
    assert_eq!(
        store
            .standing(&key(REPO_B, "production"))
            .await
            .unwrap()
            .map(|p| p.version.get()),
        Some(5),
        "another pin still reads"
    );

    // A line too damaged to name its pin holds every pin.
    let dir2 = tempfile::tempdir().unwrap();
    let other = JsonlPinStore::new(path(&dir2));
    other
        .append(&PinRecord::Set(pin(REPO_B, "production", 5, 1)))
        .await
        .unwrap();
    append_raw(&dir2, b"{\"garbage\n");
    assert!(matches!(
        other.standing(&key(REPO_B, "production")).await,
        Err(PinStoreError::Unreadable(u)) if u.id.is_none()
    ));

    // Mended (the damaged line removed by an operator): the pin reads as it was.
    let text = std::fs::read_to_string(path(&dir)).unwrap();
    let mended: Vec<&str> = text.lines().filter(|l| l.ends_with('}')).collect();
    std::fs::write(path(&dir), format!("{}\n", mended.join("\n"))).unwrap();
    assert_eq!(
        store
            .standing(&production)
            .await
            .unwrap()
            .map(|p| p.version.get()),
        Some(3)
    );
}

/// A last line without its newline (being written, or torn by a crash before its `Ok`) is
/// not read; the next append ends it, and from then on it is an unreadable line.
#[tokio::test]
async fn jsonl_a_torn_last_line_is_not_read_until_it_is_ended() {
    let dir = tempfile::tempdir().unwrap();
    let store = JsonlPinStore::new(path(&dir));
    let production = key(REPO_A, "production");
    store
        .append(&PinRecord::Set(pin(REPO_A, "production", 3, 0)))
        .await
        .unwrap();
    append_raw(
        &dir,
        format!("{{\"pin\":\"{production}\",\"record\":{{\"record\":\"lif").as_bytes(),
    );
    assert_eq!(
        store
            .standing(&production)
            .await
            .unwrap()
            .map(|p| p.version.get()),
        Some(3)
    );
    store
        .append(&PinRecord::Lifted(lift(
            REPO_B,
            "production",
            1,
            2,
            LiftedBy::Unpin,
        )))
        .await
        .unwrap();
    assert!(matches!(
        store.standing(&production).await,
        Err(PinStoreError::Unreadable(_))
    ));
    assert_eq!(
        store.standing(&key(REPO_B, "production")).await.unwrap(),
        None,
        "the record after the torn line is whole and read"
    );
}
