//! The session store contract (tests/common/session_contract.rs) on the in-memory store and
//! the JSON Lines files; PostgreSQL runs it in tests/real_pulp/postgres.rs. The files also:
//! sessions kept across store instances (a restart), ended ones not, and the file rewritten
//! with the live sessions only.

use std::sync::Arc;

use repo_console::adapters::files::sessions::JsonlSessionStore;
use repo_console::adapters::memory::MemorySessionStore;
use repo_console::ports::session_store::SessionStore;

use super::session_contract::{
    at, audit_lines_read_back, session, sessions_start_touch_and_end, sign_ins_are_taken_once,
    stale_sessions_and_sign_ins_are_forgotten,
};

fn in_dir(dir: &tempfile::TempDir) -> JsonlSessionStore {
    JsonlSessionStore::beside(&dir.path().join("logs").join("audit.jsonl"))
}

#[tokio::test]
async fn memory_sessions_start_touch_and_end() {
    sessions_start_touch_and_end(&MemorySessionStore::default()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn memory_sign_ins_are_taken_once() {
    let store: Arc<dyn SessionStore> = Arc::new(MemorySessionStore::default());
    sign_ins_are_taken_once(&[store]).await;
}

#[tokio::test]
async fn memory_audit_lines_read_back() {
    audit_lines_read_back(&MemorySessionStore::default()).await;
}

#[tokio::test]
async fn jsonl_sessions_start_touch_and_end() {
    let dir = tempfile::tempdir().unwrap();
    sessions_start_touch_and_end(&in_dir(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn jsonl_sign_ins_are_taken_once() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn SessionStore> = Arc::new(in_dir(&dir));
    sign_ins_are_taken_once(&[store]).await;
}

#[tokio::test]
async fn jsonl_audit_lines_read_back() {
    let dir = tempfile::tempdir().unwrap();
    audit_lines_read_back(&in_dir(&dir)).await;
    let text = std::fs::read_to_string(dir.path().join("logs/sign-ins.jsonl")).unwrap();
    assert_eq!(
        text.lines().count(),
        3,
        "one line each, beside the audit file"
    );
}

#[tokio::test]
async fn jsonl_sessions_outlive_a_restart_and_the_file_keeps_only_live_ones() {
    let dir = tempfile::tempdir().unwrap();
    let first = in_dir(&dir);
    first.start(&session("live", "alice")).await.unwrap();
    first.start(&session("gone", "bob")).await.unwrap();
    first.touch("live", at(9)).await.unwrap();
    first.end("gone").await.unwrap();
    let path = dir.path().join("logs/sessions.jsonl");
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 4);
    let again = in_dir(&dir);
    let live = again
        .find("live")
        .await
        .unwrap()
        .expect("kept across a restart");
    assert_eq!(live.last_seen, at(9));
    assert_eq!(again.find("gone").await.unwrap(), None, "ended stays ended");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().count(),
        1,
        "rewritten with the live session only: {text}"
    );
    assert!(!text.contains("\"gone\""));
}

#[tokio::test]
async fn memory_stale_sessions_and_sign_ins_are_forgotten() {
    stale_sessions_and_sign_ins_are_forgotten(&MemorySessionStore::default()).await;
}

#[tokio::test]
async fn jsonl_stale_sessions_and_sign_ins_are_forgotten_and_the_file_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    stale_sessions_and_sign_ins_are_forgotten(&in_dir(&dir)).await;
    let text = std::fs::read_to_string(dir.path().join("logs/sessions.jsonl")).unwrap();
    assert!(
        !text.contains("\"idle\"") && !text.contains("\"old\""),
        "{text}"
    );
    let again = in_dir(&dir);
    assert!(again.find("live").await.unwrap().is_some());
    assert_eq!(again.find("idle").await.unwrap(), None);
}
