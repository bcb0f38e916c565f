//! The outboxes of one console (issue 25): the contract every outbox keeps, in memory and in
//! the JSON Lines file; and the file read back at start: what was pending still is, facts
//! recorded stay known, and a delivery claimed when the console stopped is due again.

use repo_console::adapters::files::outbox::JsonlOutbox;
use repo_console::adapters::memory::MemoryOutbox;
use repo_console::domain::event::Settlement;
use repo_console::ports::{EventOutbox, Recorded};

use crate::outbox_contract::{at, compaction_contract, event, hook, outbox_contract, LEASE};

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

#[tokio::test]
async fn the_memory_outbox_keeps_the_compaction_contract() {
    compaction_contract(&MemoryOutbox::default(), false).await;
}

#[tokio::test]
async fn the_file_outbox_compacts_in_place_and_reads_the_facts_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("webhooks-outbox.jsonl");
    let outbox = JsonlOutbox::open(&path).unwrap();
    compaction_contract(&outbox, true).await;
    drop(outbox);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["line"], "fact", "c-1 became its fact: {text}");
    assert!(
        !text.contains("\"c-1\""),
        "nothing of c-1 but its fact is left: {text}"
    );

    let reopened = JsonlOutbox::open(&path).unwrap();
    let fact_of_c1 = event("again", "/pulp/api/v3/tasks/101/");
    assert_eq!(
        reopened
            .record(&fact_of_c1, &[hook("http://a.example/in")])
            .await
            .unwrap(),
        Recorded::Known,
        "the fact read back from its line"
    );
    assert_eq!(reopened.pending(), 1, "c-2 still pending");
}

#[tokio::test]
async fn a_compaction_racing_writers_loses_no_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("webhooks-outbox.jsonl");
    let outbox = std::sync::Arc::new(JsonlOutbox::open(&path).unwrap());
    let a = hook("http://a.example/in");
    // Finished long ago: what the compactions remove.
    for n in 0..200 {
        let e = event(&format!("old-{n}"), &format!("/pulp/api/v3/tasks/old-{n}/"));
        outbox.record(&e, std::slice::from_ref(&a)).await.unwrap();
    }
    for d in outbox.claim_due(at(0), 1000, LEASE).await.unwrap() {
        outbox
            .settle(
                &d,
                &repo_console::domain::event::Settlement::Delivered { at: at(1) },
            )
            .await
            .unwrap();
    }
    let writers = (0..100).map(|n| {
        let (outbox, a) = (outbox.clone(), a.clone());
        tokio::spawn(async move {
            let mut e = event(&format!("new-{n}"), &format!("/pulp/api/v3/tasks/new-{n}/"));
            e.time = at(1_000 + n);
            outbox.record(&e, &[a]).await.unwrap()
        })
    });
    let writers: Vec<_> = writers.collect();
    let mut compacted = 0;
    for _ in 0..5 {
        compacted += outbox.compact(at(100)).await.unwrap();
    }
    for writer in writers {
        assert_eq!(writer.await.unwrap(), Recorded::New);
    }
    assert_eq!(compacted, 200);
    drop(outbox);

    let reopened = JsonlOutbox::open(&path).unwrap();
    assert_eq!(
        reopened.pending(),
        100,
        "every event written meanwhile is there"
    );
    for n in [0, 199] {
        let again = event("x", &format!("/pulp/api/v3/tasks/old-{n}/"));
        assert_eq!(
            reopened
                .record(&again, std::slice::from_ref(&a))
                .await
                .unwrap(),
            Recorded::Known
        );
    }
}

#[tokio::test]
async fn a_compaction_cut_short_by_a_crash_leaves_a_readable_outbox() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("webhooks-outbox.jsonl");
    let outbox = JsonlOutbox::open(&path).unwrap();
    let a = hook("http://a.example/in");
    outbox
        .record(
            &event("e-1", "/pulp/api/v3/tasks/1/"),
            std::slice::from_ref(&a),
        )
        .await
        .unwrap();
    drop(outbox);
    let whole = std::fs::read_to_string(&path).unwrap();
    // The crash: a half-written new file beside the whole old one.
    let leftover = dir.path().join("webhooks-outbox.jsonl.compacting");
    std::fs::write(&leftover, "{\"line\":\"fact\",\"fa").unwrap();
    let reopened = JsonlOutbox::open(&path).unwrap();
    assert!(!leftover.exists(), "the rest of the compaction is removed");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
    assert_eq!(reopened.pending(), 1);
}
