//! The schedule store contract (tests/common/schedule_contract.rs) on the in-memory store
//! and the JSON Lines file; PostgreSQL runs it in tests/real_pulp/postgres.rs. The file
//! also: kept across store instances, a torn last line ignored, and compare-and-swap between
//! two instances on one file (as two processes).

use std::io::Write;
use std::sync::Arc;

use repo_console::adapters::files::schedules::JsonlScheduleStore;
use repo_console::adapters::memory::MemoryScheduleStore;
use repo_console::ports::ScheduleStore;

use repo_console::domain::ids::ScheduleId;
use repo_console::domain::schedule::ScheduleState;
use repo_console::ports::ScheduleStoreError;

use super::schedule_contract::{
    at, create_get_recent_and_open, one_of_many_concurrent_claims_wins,
    only_ended_schedules_are_removed, replace_is_compare_and_swap, schedule, REPO_A,
};

fn in_dir(dir: &tempfile::TempDir) -> JsonlScheduleStore {
    JsonlScheduleStore::new(dir.path().join("logs").join("schedules.jsonl"))
}

#[tokio::test]
async fn memory_create_get_recent_and_open() {
    create_get_recent_and_open(&MemoryScheduleStore::default()).await;
}

#[tokio::test]
async fn memory_replace_is_compare_and_swap() {
    replace_is_compare_and_swap(&MemoryScheduleStore::default()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn memory_one_of_many_concurrent_claims_wins() {
    let store: Arc<dyn ScheduleStore> = Arc::new(MemoryScheduleStore::default());
    one_of_many_concurrent_claims_wins(&[store], 16).await;
}

#[tokio::test]
async fn memory_only_ended_schedules_are_removed() {
    only_ended_schedules_are_removed(&MemoryScheduleStore::default()).await;
}

#[tokio::test]
async fn jsonl_only_ended_schedules_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    only_ended_schedules_are_removed(&in_dir(&dir)).await;
}

#[tokio::test]
async fn jsonl_create_get_recent_and_open() {
    let dir = tempfile::tempdir().unwrap();
    create_get_recent_and_open(&in_dir(&dir)).await;
}

#[tokio::test]
async fn jsonl_replace_is_compare_and_swap() {
    let dir = tempfile::tempdir().unwrap();
    replace_is_compare_and_swap(&in_dir(&dir)).await;
}

/// Two stores on one file are two processes: the file lock and the revision decide.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn jsonl_one_of_many_concurrent_claims_wins_across_instances() {
    let dir = tempfile::tempdir().unwrap();
    let stores: Vec<Arc<dyn ScheduleStore>> = vec![Arc::new(in_dir(&dir)), Arc::new(in_dir(&dir))];
    one_of_many_concurrent_claims_wins(&stores, 16).await;
}

/// A line torn by a crash (never acknowledged) that still names its schedule makes that
/// schedule unreadable rather than skipped; the next line starts after it.
#[tokio::test]
async fn jsonl_keeps_schedules_across_instances_and_holds_a_torn_line() {
    let dir = tempfile::tempdir().unwrap();
    let made = schedule("s-kept", REPO_A, 0, 60);
    in_dir(&dir).create(&made).await.unwrap();
    let path = dir.path().join("logs").join("schedules.jsonl");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(b"{\"id\": \"s-torn\", \"repos").unwrap();
    let again = in_dir(&dir);
    assert_eq!(again.get(&made.id).await.unwrap(), Some(made.clone()));
    assert_eq!(
        again.unreadable().await.unwrap(),
        [],
        "being written: not read yet"
    );
    let next = schedule("s-next", REPO_A, 1, 60);
    again.create(&next).await.unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with("{\"id\":\"s-next\"")),
        "a new line starts after the torn one:\n{text}"
    );
    let fresh = in_dir(&dir);
    assert_eq!(fresh.recent(None, 10).await.unwrap().len(), 2);
    let unreadable = fresh.unreadable().await.unwrap();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert_eq!(unreadable[0].id, ScheduleId::parse("s-torn"));
    assert_eq!(unreadable[0].place, format!("line 2 of {}", path.display()));
    assert!(matches!(
        fresh.get(&ScheduleId::parse("s-torn").unwrap()).await,
        Err(ScheduleStoreError::Unreadable(_))
    ));
    assert_eq!(
        fresh.create(&schedule("s-torn", REPO_A, 2, 60)).await,
        Err(ScheduleStoreError::Conflict),
        "its id is taken"
    );
}

/// A later line of a schedule that cannot be read holds it: not open, not listed, not
/// replaced (the line may have been its claim); a readable line after it brings it back.
#[tokio::test]
async fn jsonl_a_corrupt_later_line_holds_its_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let store = in_dir(&dir);
    let made = schedule("s-held", REPO_A, 0, 60);
    let other = schedule("s-other", REPO_A, 1, 60);
    store.create(&made).await.unwrap();
    store.create(&other).await.unwrap();
    let path = dir.path().join("logs").join("schedules.jsonl");
    let corrupt = serde_json::to_string(&made.clone().into_state(ScheduleState::Waiting))
        .unwrap()
        .replace("\"state\":\"waiting\"", "\"state\":\"claimed\"");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(format!("{corrupt}\n").as_bytes())
        .unwrap();
    assert_eq!(ids_of(store.open().await.unwrap()), ["s-other"]);
    assert_eq!(ids_of(store.recent(None, 10).await.unwrap()), ["s-other"]);
    assert!(matches!(
        store.get(&made.id).await,
        Err(ScheduleStoreError::Unreadable(ref u)) if u.id.as_ref() == Some(&made.id)
    ));
    let claim = made.clone().into_state(ScheduleState::Waiting);
    assert!(matches!(
        store.replace(&claim).await,
        Err(ScheduleStoreError::Unreadable(_))
    ));
    assert_eq!(
        store.remove_ended(std::slice::from_ref(&made.id)).await,
        Ok(0)
    );
    assert_eq!(store.unreadable().await.unwrap().len(), 1);
}

/// A line naming no schedule may have been any open one: every schedule open before it is
/// held; one made after it is not.
#[tokio::test]
async fn jsonl_a_line_naming_no_schedule_holds_every_open_one_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = in_dir(&dir);
    let open = schedule("s-open", REPO_A, 0, 60);
    let ended = schedule("s-ended", REPO_A, 1, 60);
    store.create(&open).await.unwrap();
    store.create(&ended).await.unwrap();
    let cancelled = ended.clone().into_state(ScheduleState::Cancelled {
        by: repo_console::domain::identity::PersonName::new("bob").unwrap(),
        ended: at(2),
    });
    store.replace(&cancelled).await.unwrap();
    let path = dir.path().join("logs").join("schedules.jsonl");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(b"{\"i\xff\n")
        .unwrap();
    let later = schedule("s-later", REPO_A, 3, 60);
    store.create(&later).await.unwrap();
    assert_eq!(ids_of(store.open().await.unwrap()), ["s-later"]);
    assert_eq!(
        store.get(&ended.id).await.unwrap(),
        Some(cancelled),
        "ended: not held"
    );
    let unreadable = store.unreadable().await.unwrap();
    let named: Vec<Option<&str>> = unreadable
        .iter()
        .map(|u| u.id.as_ref().map(ScheduleId::as_str))
        .collect();
    assert_eq!(named.len(), 2, "{unreadable:?}");
    assert!(
        named.contains(&None) && named.contains(&Some("s-open")),
        "{unreadable:?}"
    );
}

/// The index reads what another process appended, and a file another process rewrote
/// (retention) anew.
#[tokio::test]
async fn jsonl_the_index_follows_appends_and_rewrites_by_another_instance() {
    let dir = tempfile::tempdir().unwrap();
    let (mine, theirs) = (in_dir(&dir), in_dir(&dir));
    let first = schedule("s-1", REPO_A, 0, 60);
    mine.create(&first).await.unwrap();
    assert_eq!(ids_of(theirs.open().await.unwrap()), ["s-1"]);
    let second = schedule("s-2", REPO_A, 1, 30);
    theirs.create(&second).await.unwrap();
    assert_eq!(ids_of(mine.open().await.unwrap()), ["s-2", "s-1"]);
    let done = second.clone().into_state(ScheduleState::Cancelled {
        by: repo_console::domain::identity::PersonName::new("bob").unwrap(),
        ended: at(2),
    });
    mine.replace(&done).await.unwrap();
    assert_eq!(
        theirs.remove_ended(std::slice::from_ref(&second.id)).await,
        Ok(1)
    );
    assert_eq!(
        mine.get(&second.id).await,
        Ok(None),
        "the rewritten file read anew"
    );
    assert_eq!(ids_of(mine.recent(None, 10).await.unwrap()), ["s-1"]);
    let third = schedule("s-3", REPO_A, 3, 60);
    mine.create(&third).await.unwrap();
    assert_eq!(
        ids_of(theirs.recent(None, 10).await.unwrap()),
        ["s-3", "s-1"]
    );
}

fn ids_of(schedules: Vec<repo_console::domain::schedule::Schedule>) -> Vec<String> {
    schedules
        .into_iter()
        .map(|s| s.id.as_str().to_owned())
        .collect()
}
