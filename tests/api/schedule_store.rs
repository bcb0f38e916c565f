//! The schedule store contract (tests/common/schedule_contract.rs) on the in-memory store
//! and the JSON Lines file; PostgreSQL runs it in tests/real_pulp/postgres.rs. The file
//! also: kept across store instances, a torn last line ignored, and compare-and-swap between
//! two instances on one file (as two processes).

use std::io::Write;
use std::sync::Arc;

use repo_console::adapters::files::schedules::JsonlScheduleStore;
use repo_console::adapters::memory::MemoryScheduleStore;
use repo_console::ports::ScheduleStore;

use super::schedule_contract::{
    create_get_recent_and_open, one_of_many_concurrent_claims_wins, replace_is_compare_and_swap,
    schedule, REPO_A,
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

#[tokio::test]
async fn jsonl_keeps_schedules_across_instances_and_ignores_a_torn_line() {
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
        again.recent(None, 10).await.unwrap().len(),
        1,
        "the torn line is not read"
    );
    let next = schedule("s-next", REPO_A, 1, 60);
    again.create(&next).await.unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with("{\"id\":\"s-next\"")),
        "a new line starts after the torn one:\n{text}"
    );
    assert_eq!(in_dir(&dir).recent(None, 10).await.unwrap().len(), 2);
}
