//! The evidence store's contract (tests/common/evidence_contract.rs) on a real PostgreSQL.

use repo_console::adapters::postgres::{connect, PgEvidenceStore};

use super::database::required_database;
use super::evidence_contract;

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_postgres_store_keeps_the_contract() {
    let database = required_database();
    let store = PgEvidenceStore::new(connect(&database.url, None).await.unwrap());
    evidence_contract::kept_found_and_once(&store).await;
    evidence_contract::attested_in_one_call(&store).await;
}
