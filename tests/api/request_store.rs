//! The request store contract (tests/common/request_contract.rs) on the in-memory store and
//! the JSON Lines file; PostgreSQL runs it in tests/real_pulp/postgres.rs. The file also:
//! one line per entry, kept across store instances, a torn last line ignored and never glued
//! to the next, and compare-and-swap between two instances on one file (as two processes).

use std::io::Write;
use std::sync::Arc;

use repo_console::adapters::files::requests::JsonlRequestStore;
use repo_console::adapters::memory::MemoryRequestStore;
use repo_console::domain::ids::RequestId;
use repo_console::domain::repository::RepoId;
use repo_console::ports::{RequestStore, RequestStoreError};

use super::request_contract::{
    another_store_reads_and_continues, append_is_compare_and_swap, approved, create_get_and_recent,
    one_of_many_concurrent_appenders_wins, remove_takes_only_the_named_requests, request, REPO_A,
};

fn in_dir(dir: &tempfile::TempDir) -> JsonlRequestStore {
    JsonlRequestStore::new(dir.path().join("logs").join("requests.jsonl"))
}

#[tokio::test]
async fn memory_create_get_and_recent() {
    create_get_and_recent(&MemoryRequestStore::default()).await;
}

#[tokio::test]
async fn memory_append_is_compare_and_swap() {
    append_is_compare_and_swap(&MemoryRequestStore::default()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn memory_one_of_many_concurrent_appenders_wins() {
    let store: Arc<dyn RequestStore> = Arc::new(MemoryRequestStore::default());
    one_of_many_concurrent_appenders_wins(&[store], 32, 3).await;
}

#[tokio::test]
async fn jsonl_create_get_and_recent() {
    let dir = tempfile::tempdir().unwrap();
    create_get_and_recent(&in_dir(&dir)).await;
}

#[tokio::test]
async fn jsonl_append_is_compare_and_swap() {
    let dir = tempfile::tempdir().unwrap();
    append_is_compare_and_swap(&in_dir(&dir)).await;
}

#[tokio::test]
async fn jsonl_a_new_store_on_the_same_file_reads_and_continues() {
    let dir = tempfile::tempdir().unwrap();
    let first = in_dir(&dir);
    another_store_reads_and_continues(&first, &in_dir(&dir)).await;
    drop(first);
    let restarted = in_dir(&dir);
    let log = restarted
        .get(&RequestId::parse("kept").unwrap())
        .await
        .unwrap()
        .expect("kept across a restart");
    assert_eq!(log.events.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn jsonl_one_of_many_concurrent_appenders_wins_also_across_two_stores_on_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let alone: Arc<dyn RequestStore> = Arc::new(in_dir(&dir));
    one_of_many_concurrent_appenders_wins(&[alone], 16, 2).await;
    let other = tempfile::tempdir().unwrap();
    // Two instances on one file: each its own mutex, so only the file lock keeps them apart,
    // as between two processes.
    let two: [Arc<dyn RequestStore>; 2] = [Arc::new(in_dir(&other)), Arc::new(in_dir(&other))];
    let winners = one_of_many_concurrent_appenders_wins(&two, 32, 4).await;
    let lines = std::fs::read_to_string(other.path().join("logs/requests.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1 + winners.len(), "{lines}");
}

#[tokio::test]
async fn jsonl_one_line_per_entry_with_its_request_id_and_seq() {
    let dir = tempfile::tempdir().unwrap();
    let store = in_dir(&dir);
    assert_eq!(
        store.target(),
        dir.path().join("logs/requests.jsonl").display().to_string()
    );
    assert!(
        store
            .get(&RequestId::parse("r1").unwrap())
            .await
            .unwrap()
            .is_none(),
        "no file yet"
    );
    let id = RequestId::parse("r1").unwrap();
    store.create(&request("r1", REPO_A, 0)).await.unwrap();
    store.append(&id, 0, &approved("bob", 1)).await.unwrap();
    let text = std::fs::read_to_string(store.path()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["request_id"], "r1");
    assert_eq!(lines[0]["seq"], 0);
    assert_eq!(lines[0]["event"], "requested");
    assert_eq!(lines[0]["at"], "2026-12-10T09:00:00.000Z");
    assert_eq!(lines[0]["request"]["requester"], "alice");
    assert_eq!(
        lines[1],
        serde_json::json!({"request_id": "r1", "seq": 1, "event": "approved", "by": "bob",
                           "person": "bob", "kind": "person", "at": "2026-12-10T09:01:00.000Z"})
    );
}

#[tokio::test]
async fn jsonl_a_torn_last_line_is_ignored_and_the_next_entry_starts_on_its_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let store = in_dir(&dir);
    let id = RequestId::parse("torn").unwrap();
    store.create(&request("torn", REPO_A, 0)).await.unwrap();
    store.append(&id, 0, &approved("bob", 1)).await.unwrap();
    // A crash in the middle of writing the next approval: never acknowledged.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(store.path())
        .unwrap();
    file.write_all(br#"{"request_id":"torn","seq":2,"event":"appr"#)
        .unwrap();
    drop(file);
    for reader in [&store, &in_dir(&dir)] {
        let log = reader.get(&id).await.unwrap().expect("still readable");
        assert_eq!(log.events, [approved("bob", 1)], "the torn line is skipped");
        let repo = RepoId::parse(REPO_A).unwrap();
        assert_eq!(reader.recent(Some(&repo), 5).await.unwrap(), [log]);
    }
    let stale = store.append(&id, 2, &approved("carol", 2)).await;
    assert_eq!(
        stale,
        Err(RequestStoreError::Conflict),
        "the torn line counts for nothing"
    );
    store.append(&id, 1, &approved("carol", 2)).await.unwrap();
    let log = in_dir(&dir).get(&id).await.unwrap().unwrap();
    assert_eq!(
        log.events,
        [approved("bob", 1), approved("carol", 2)],
        "the new line is not glued to the torn one"
    );
    let text = std::fs::read_to_string(store.path()).unwrap();
    assert_eq!(
        text.lines().count(),
        4,
        "request, bob, torn, carol:\n{text}"
    );
    assert!(text.ends_with('\n'));
}

#[tokio::test]
async fn jsonl_a_file_that_cannot_be_written_is_unavailable_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the file should be.
    let path = dir.path().join("requests.jsonl");
    std::fs::create_dir(&path).unwrap();
    let store = JsonlRequestStore::new(&path);
    match store.create(&request("r1", REPO_A, 0)).await {
        Err(RequestStoreError::Unavailable { target, .. }) => {
            assert_eq!(target, path.display().to_string())
        }
        other => panic!("unavailable, not {other:?}"),
    }
    assert!(matches!(
        store.recent(None, 5).await,
        Err(RequestStoreError::Unavailable { .. })
    ));
}

#[tokio::test]
async fn memory_remove_takes_only_the_named_requests() {
    remove_takes_only_the_named_requests(&MemoryRequestStore::default()).await;
}

#[tokio::test]
async fn jsonl_remove_takes_only_the_named_requests() {
    let dir = tempfile::tempdir().unwrap();
    remove_takes_only_the_named_requests(&in_dir(&dir)).await;
}

/// Issue 34: a removal (which rewrites the file and renames it over) racing appends by another
/// store on the same file (another process: its own turn, the file lock between them) loses
/// no line; and the rest of a removal cut short by a crash is never read.
#[tokio::test]
async fn jsonl_remove_racing_another_writer_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (Arc::new(in_dir(&dir)), Arc::new(in_dir(&dir)));
    for n in 0..40 {
        let name = format!("old-{n}");
        a.create(&crate::request_contract::request(&name, "repo-r", n))
            .await
            .unwrap();
    }
    let writer = {
        let b = b.clone();
        tokio::spawn(async move {
            for n in 0..40 {
                let name = format!("new-{n}");
                b.create(&crate::request_contract::request(&name, "repo-r", 100 + n))
                    .await
                    .unwrap();
            }
        })
    };
    let old: Vec<RequestId> = (0..40)
        .map(|n| RequestId::parse(&format!("old-{n}")).unwrap())
        .collect();
    let mut removed = 0;
    for chunk in old.chunks(4) {
        removed += a.remove(chunk).await.unwrap();
    }
    writer.await.unwrap();
    assert_eq!(removed, 40);
    let left = a.recent(None, 1000).await.unwrap();
    assert_eq!(left.len(), 40, "every request written meanwhile is there");
    assert!(left
        .iter()
        .all(|log| log.request.id.as_str().starts_with("new-")));
    std::fs::write(
        dir.path().join("logs/requests.jsonl.compacting"),
        "{\"request_id\": \"torn",
    )
    .unwrap();
    assert_eq!(in_dir(&dir).recent(None, 1000).await.unwrap().len(), 40);
}

/// Issue 43: a complete line that cannot be read (here a cancel whose time was damaged)
/// never changes a request in silence: the request is unreadable (not listed, not acted on,
/// named with its line) until the line is mended; a line naming no request is listed too,
/// and the other requests read on.
#[tokio::test]
async fn jsonl_a_corrupt_line_makes_its_request_unreadable_until_mended() {
    let dir = tempfile::tempdir().unwrap();
    let store = in_dir(&dir);
    let id = RequestId::parse("held").unwrap();
    store.create(&request("held", REPO_A, 0)).await.unwrap();
    store.create(&request("other", REPO_A, 1)).await.unwrap();
    store.append(&id, 0, &approved("bob", 1)).await.unwrap();
    let corrupt = "{\"request_id\":\"held\",\"seq\":2,\"event\":\"cancelled\",\"by\":\"alice\",\"at\":\"not a time\"}\n";
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(store.path())
        .unwrap();
    file.write_all(corrupt.as_bytes()).unwrap();
    file.write_all(b"\x00\x01 not json\n").unwrap();
    drop(file);
    for reader in [&store, &in_dir(&dir)] {
        match reader.get(&id).await {
            Err(RequestStoreError::Unreadable(unreadable)) => {
                assert_eq!(unreadable.id, Some(id.clone()));
                assert!(unreadable.place.starts_with("line 4 of "), "{unreadable}");
            }
            other => panic!("{other:?}"),
        }
        let listed = reader.recent(None, 10).await.unwrap();
        let ids: Vec<&str> = listed.iter().map(|l| l.request.id.as_str()).collect();
        assert_eq!(ids, ["other"], "held apart");
        let unreadable = reader.unreadable().await.unwrap();
        assert_eq!(unreadable.len(), 2, "{unreadable:?}");
        assert_eq!(unreadable[0].id, Some(id.clone()));
        assert_eq!(unreadable[1].id, None, "a line naming no request");
    }
    assert!(matches!(
        store.append(&id, 1, &approved("carol", 2)).await,
        Err(RequestStoreError::Unreadable(_))
    ));
    let mended = std::fs::read_to_string(store.path())
        .unwrap()
        .replace("not a time", "2026-12-10T09:05:00Z")
        .replace("\u{0}\u{1} not json\n", "");
    std::fs::write(store.path(), mended).unwrap();
    let log = in_dir(&dir).get(&id).await.unwrap().expect("mended");
    assert_eq!(log.events.len(), 2);
    assert_eq!(in_dir(&dir).unreadable().await.unwrap(), []);
}
