//! The edge state store contract (tests/common/edge_state_contract.rs) on the in-memory store
//! and the JSON Lines file; PostgreSQL runs it in tests/real_pulp/edge_states.rs. The file
//! also: records kept across store instances (a restart), the file rewritten with one line
//! per key, and a line that cannot be read never changes a state.

use std::sync::Arc;

use repo_console::adapters::files::edge_states::JsonlEdgeStates;
use repo_console::adapters::memory::MemoryEdgeStates;
use repo_console::domain::edge::EdgeState;
use repo_console::ports::edge_state_store::EdgeStateStore;

use super::edge_state_contract::{
    cell, every_record_reads_back_as_written, mark, one_swap_sees_each_change,
    the_last_record_under_a_key_wins,
};

fn in_dir(dir: &tempfile::TempDir) -> JsonlEdgeStates {
    JsonlEdgeStates::beside(&dir.path().join("logs").join("audit.jsonl"))
}

#[tokio::test]
async fn memory_every_record_reads_back_as_written() {
    every_record_reads_back_as_written(&MemoryEdgeStates::default()).await;
}

#[tokio::test]
async fn memory_the_last_record_under_a_key_wins() {
    the_last_record_under_a_key_wins(&MemoryEdgeStates::default()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn memory_one_swap_sees_each_change() {
    let store: Arc<dyn EdgeStateStore> = Arc::new(MemoryEdgeStates::default());
    one_swap_sees_each_change(&[store]).await;
}

#[tokio::test]
async fn jsonl_every_record_reads_back_as_written_also_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = in_dir(&dir);
    every_record_reads_back_as_written(&first).await;
    let written = first.load().await.unwrap();
    assert_eq!(
        in_dir(&dir).load().await.unwrap(),
        written,
        "a new process reads what the last one wrote"
    );
}

#[tokio::test]
async fn jsonl_the_last_record_under_a_key_wins_and_the_file_keeps_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    the_last_record_under_a_key_wins(&in_dir(&dir)).await;
    let path = dir.path().join("logs/edges.jsonl");
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 6);
    in_dir(&dir).load().await.unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count(),
        3,
        "rewritten at the first read with one line per key"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn jsonl_one_swap_sees_each_change() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn EdgeStateStore> = Arc::new(in_dir(&dir));
    one_swap_sees_each_change(&[store]).await;
}

#[tokio::test]
async fn jsonl_a_line_that_cannot_be_read_never_changes_a_state() {
    let dir = tempfile::tempdir().unwrap();
    let store = in_dir(&dir);
    let serving = cell("dc1", "prod-a", EdgeState::Serving);
    store.swap_cell(&serving).await.unwrap();
    store.put_mark(&mark("prod-a")).await.unwrap();
    let path = dir.path().join("logs/edges.jsonl");
    let good = std::fs::read_to_string(&path).unwrap();
    // Later lines under the same keys: damaged, a state word this version does not know,
    // and a mark whose digest is not one.
    let damaged = [
        r#"{"record":"cell","edge":"dc1","distribution":"prod-a","state":{"state":"fail"#
            .to_owned(),
        good.lines()
            .next()
            .unwrap()
            .replace(r#""state":"serving""#, r#""state":"fine""#),
        good.lines()
            .nth(1)
            .unwrap()
            .replace(&"c".repeat(64), "not-a-digest"),
    ];
    assert_ne!(
        damaged[1],
        good.lines().next().unwrap(),
        "the word was replaced"
    );
    assert_ne!(
        damaged[2],
        good.lines().nth(1).unwrap(),
        "the digest was replaced"
    );
    std::fs::write(&path, format!("{good}{}\n", damaged.join("\n"))).unwrap();
    let loaded = in_dir(&dir).load().await.unwrap();
    assert_eq!(loaded.cells, vec![serving], "the record before stands");
    assert_eq!(loaded.marks, vec![mark("prod-a")]);
}
