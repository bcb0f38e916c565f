//! The evidence store's contract (tests/common/evidence_contract.rs) in memory and in the
//! JSON Lines file beside the audit file.

use repo_console::adapters::files::evidence::JsonlEvidenceStore;
use repo_console::adapters::memory::MemoryEvidenceStore;

use super::evidence_contract;

#[tokio::test]
async fn the_memory_store_keeps_the_contract() {
    let store = MemoryEvidenceStore::default();
    evidence_contract::kept_found_and_once(&store).await;
    evidence_contract::attested_in_one_call(&store).await;
}

#[tokio::test]
async fn the_file_store_keeps_the_contract_beside_the_audit_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = JsonlEvidenceStore::beside(&dir.path().join("logs/audit.jsonl"));
    evidence_contract::kept_found_and_once(&store).await;
    evidence_contract::attested_in_one_call(&store).await;
    assert!(dir.path().join("logs/evidence.jsonl").is_file());
}
