//! The outboxes of one console (issue 25): the contract every outbox keeps, in memory and in
//! the JSON Lines file; and the file read back at start: what was pending still is, facts
//! recorded stay known, and a delivery claimed when the console stopped is due again.

use repo_console::adapters::files::outbox::JsonlOutbox;
use repo_console::adapters::memory::MemoryOutbox;
use repo_console::domain::Settlement;
use repo_console::ports::{EventOutbox, Recorded};

use crate::outbox_contract::{at, event, hook, outbox_contract, LEASE};

#[tokio::test]
async fn the_memory_outbox_keeps_the_contract() {
    outbox_contract(&MemoryOutbox::default()).await;
}

#[tokio::test]
async fn the_file_outbox_keeps_the_contract_and_reads_it_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("logs/webhooks-outbox.jsonl");
    let outbox = JsonlOutbox::open(&path).unwrap();
    outbox_contract(&outbox).await;
    let pending = outbox.pending();
    assert_eq!(pending, 3, "e-3..e-5, two of them claimed");
    drop(outbox);

    let reopened = JsonlOutbox::open(&path).unwrap();
    assert_eq!(reopened.pending(), pending);
    let known = event("e-9", "/pulp/api/v3/tasks/1/");
    assert_eq!(
        reopened
            .record(&known, &[hook("http://a.example/in")])
            .await
            .unwrap(),
        Recorded::Known,
        "a fact recorded before the restart"
    );
    let due = reopened.claim_due(at(20_000), 10, LEASE).await.unwrap();
    let ids: Vec<(&str, u32)> = due
        .iter()
        .map(|d| (d.event.id.as_str(), d.attempt))
        .collect();
    assert_eq!(
        ids,
        [("e-5", 1), ("e-4", 1), ("e-3", 1)],
        "claimed when the console stopped, due again (an attempt cut short is not counted)"
    );
}

#[tokio::test]
async fn a_line_cut_short_by_a_crash_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("webhooks-outbox.jsonl");
    let outbox = JsonlOutbox::open(&path).unwrap();
    let first = event("e-1", "/pulp/api/v3/tasks/1/");
    outbox
        .record(&first, &[hook("http://a.example/in")])
        .await
        .unwrap();
    let claimed = outbox.claim_due(at(0), 10, LEASE).await.unwrap();
    outbox
        .settle(&claimed[0], &Settlement::Delivered { at: at(1) })
        .await
        .unwrap();
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"line\":\"event\",\"event\":{\"id\":\"e-2\"");
    std::fs::write(&path, text).unwrap();
    let reopened = JsonlOutbox::open(&path).unwrap();
    assert_eq!(reopened.pending(), 0);
    assert!(reopened
        .claim_due(at(100), 10, LEASE)
        .await
        .unwrap()
        .is_empty());
}
