//! The check store contract (tests/common/check_contract.rs) on the in-memory store and the
//! JSON Lines file; PostgreSQL runs it in tests/real_pulp/postgres.rs. The file also: kept
//! across store instances, a torn last line ignored, and claims between two instances on one
//! file (as two processes).

use std::io::Write;
use std::sync::Arc;

use repo_console::adapters::files::checks::JsonlCheckStore;
use repo_console::adapters::memory::MemoryCheckStore;
use repo_console::domain::check::PromotionKey;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::repository::RepoId;
use repo_console::ports::CheckStore;

use super::check_contract::{
    a_promotion_is_claimed_once_until_given_back, at, one_of_many_concurrent_claimers_wins,
    only_old_superseded_reports_are_pruned, report, the_latest_report_of_each_check_counts,
    the_reports_of_a_range_are_read_in_the_order_made, REPO_A,
};

fn in_dir(dir: &tempfile::TempDir) -> JsonlCheckStore {
    JsonlCheckStore::new(dir.path().join("logs").join("checks.jsonl"))
}

#[tokio::test]
async fn memory_the_latest_report_of_each_check_counts() {
    the_latest_report_of_each_check_counts(&MemoryCheckStore::default()).await;
}

#[tokio::test]
async fn memory_a_promotion_is_claimed_once_until_given_back() {
    a_promotion_is_claimed_once_until_given_back(&MemoryCheckStore::default()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn memory_one_of_many_concurrent_claimers_wins() {
    let store: Arc<dyn CheckStore> = Arc::new(MemoryCheckStore::default());
    one_of_many_concurrent_claimers_wins(&[store], 32).await;
}

#[tokio::test]
async fn memory_only_old_superseded_reports_are_pruned() {
    only_old_superseded_reports_are_pruned(&MemoryCheckStore::default()).await;
}

/// The file rewritten: every line but the two pruned stays as it was, and a store that read
/// it before reads the new file.
#[tokio::test]
async fn jsonl_only_old_superseded_reports_are_pruned() {
    let dir = tempfile::tempdir().unwrap();
    let store = in_dir(&dir);
    only_old_superseded_reports_are_pruned(&store).await;
    let text = std::fs::read_to_string(dir.path().join("logs").join("checks.jsonl")).unwrap();
    assert_eq!(
        text.lines().count(),
        4,
        "three reports and the claim:\n{text}"
    );
    store
        .record(&report(REPO_A, "testing", 9, "smoke", true, 200))
        .await
        .unwrap();
    let repo = RepoId::parse(REPO_A).unwrap();
    assert_eq!(in_dir(&dir).latest(&repo, Some(9)).await.unwrap().len(), 1);
}

#[tokio::test]
async fn memory_the_reports_of_a_range_are_read_in_the_order_made() {
    the_reports_of_a_range_are_read_in_the_order_made(&MemoryCheckStore::default()).await;
}

/// Read by the index, then again by a store that starts (reads the file whole).
#[tokio::test]
async fn jsonl_the_reports_of_a_range_are_read_in_the_order_made() {
    let dir = tempfile::tempdir().unwrap();
    the_reports_of_a_range_are_read_in_the_order_made(&in_dir(&dir)).await;
    let restarted = in_dir(&dir).reported_between(at(0), at(61)).await.unwrap();
    assert_eq!(restarted.len(), 5);
}

#[tokio::test]
async fn jsonl_the_latest_report_of_each_check_counts() {
    let dir = tempfile::tempdir().unwrap();
    the_latest_report_of_each_check_counts(&in_dir(&dir)).await;
}

#[tokio::test]
async fn jsonl_a_promotion_is_claimed_once_until_given_back() {
    let dir = tempfile::tempdir().unwrap();
    a_promotion_is_claimed_once_until_given_back(&in_dir(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn jsonl_two_stores_on_one_file_claim_one_promotion_once() {
    let dir = tempfile::tempdir().unwrap();
    let stores: [Arc<dyn CheckStore>; 2] = [Arc::new(in_dir(&dir)), Arc::new(in_dir(&dir))];
    one_of_many_concurrent_claimers_wins(&stores, 24).await;
}

#[tokio::test]
async fn jsonl_reports_survive_a_restart_and_a_torn_last_line_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let first = in_dir(&dir);
    first
        .record(&report(REPO_A, "staging", 7, "smoke", true, 1))
        .await
        .unwrap();
    drop(first);
    let path = dir.path().join("logs").join("checks.jsonl");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    write!(file, "{{\"line\":\"report\",\"repository_uuid\":").unwrap();
    drop(file);
    let restarted = in_dir(&dir);
    let repo = RepoId::parse(REPO_A).unwrap();
    assert_eq!(restarted.latest(&repo, Some(7)).await.unwrap().len(), 1);
    restarted
        .record(&report(REPO_A, "staging", 7, "e2e", false, 2))
        .await
        .unwrap();
    let latest = restarted.latest(&repo, Some(7)).await.unwrap();
    assert_eq!(
        latest.len(),
        2,
        "the torn line stays one unreadable line: {latest:?}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.lines().last().unwrap().contains("\"name\":\"e2e\""));
}

/// Reads go through an index that reads only what was appended since: a store that has read
/// the file sees the reports and claims another process appended after, and, once that other
/// process pruned the file (a new file renamed over it), reads the new file and what follows.
#[tokio::test]
async fn jsonl_a_store_reads_what_another_appended_and_the_file_a_pruning_renamed_over() {
    let dir = tempfile::tempdir().unwrap();
    let (reader, other) = (in_dir(&dir), in_dir(&dir));
    let repo = RepoId::parse(REPO_A).unwrap();
    assert_eq!(reader.latest(&repo, None).await.unwrap(), vec![]);
    let failed = report(REPO_A, "staging", 7, "smoke", false, 1);
    let passed = report(REPO_A, "staging", 7, "smoke", true, 2);
    other.record(&failed).await.unwrap();
    assert_eq!(reader.latest(&repo, Some(7)).await.unwrap(), vec![failed]);
    other.record(&passed).await.unwrap();
    let key = PromotionKey {
        repository_uuid: REPO_A.into(),
        environment: EnvironmentName::parse("staging").unwrap(),
        version: 7,
    };
    assert!(other.claim_promotion(&key).await.unwrap());
    assert_eq!(
        reader.latest(&repo, Some(7)).await.unwrap(),
        vec![passed.clone()]
    );
    assert!(
        !reader.claim_promotion(&key).await.unwrap(),
        "the other's claim was read"
    );
    assert_eq!(other.prune(at(60)).await.unwrap(), 1, "the failed run goes");
    assert_eq!(
        reader.latest(&repo, Some(7)).await.unwrap(),
        vec![passed],
        "the pruned file read"
    );
    assert!(
        !reader.claim_promotion(&key).await.unwrap(),
        "the claim kept"
    );
    other.release_promotion(&key).await.unwrap();
    let again = report(REPO_A, "staging", 7, "smoke", false, 3);
    other.record(&again).await.unwrap();
    assert_eq!(reader.latest(&repo, Some(7)).await.unwrap(), vec![again]);
    assert!(
        reader.claim_promotion(&key).await.unwrap(),
        "the release after the pruning was read"
    );
}
