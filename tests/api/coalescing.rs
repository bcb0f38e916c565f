//! Twenty operators opening the same page at once cost about what one does upstream:
//! identical concurrent reads are shared (`adapters::coalescing`), while a deploy still
//! reads fresh.

use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::coalescing::Coalescing;
use repo_console::adapters::memory::{InMemoryPulp, MemoryOptions};
use repo_console::app::{pages::dashboard::dashboard, pages::versions::versions_page};

use crate::helpers::*;

fn coalesced() -> (
    repo_console::app::AppState,
    Arc<InMemoryPulp>,
    Fixture,
    tempfile::TempDir,
) {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        latency: Duration::from_millis(30),
        ..Default::default()
    }));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, pulp) = test_state(&memory, &dir.path().join("audit.jsonl"));
    let state = state
        .rebuild()
        .page_reads(Arc::new(Coalescing::new(pulp)))
        .build();
    (state, memory, fx, dir)
}

#[tokio::test]
async fn twenty_concurrent_versions_pages_cost_the_calls_of_one() {
    let (state, memory, fx, _dir) = coalesced();
    // The first load also reads what later loads reuse; one load is the second.
    versions_page(&state, &fx.base_os, first_screen())
        .await
        .unwrap();
    let before = memory.calls().len();
    versions_page(&state, &fx.base_os, first_screen())
        .await
        .unwrap();
    let one = memory.calls().len() - before;
    let before = memory.calls().len();
    let pages = futures::future::join_all(
        (0..20).map(|_| versions_page(&state, &fx.base_os, first_screen())),
    )
    .await;
    assert!(pages.iter().all(|p| p.as_ref().unwrap().deployed.is_some()));
    let twenty = memory.calls().len() - before;
    println!("versions page: one load {one} upstream calls, twenty concurrent loads {twenty}");
    assert_eq!(twenty, one, "20 concurrent loads cost the calls of one");
}

#[tokio::test]
async fn twenty_concurrent_dashboards_cost_the_calls_of_one() {
    let (state, memory, _fx, _dir) = coalesced();
    dashboard(&state, 0).await;
    let before = memory.calls().len();
    dashboard(&state, 0).await;
    let one = memory.calls().len() - before;
    let before = memory.calls().len();
    futures::future::join_all((0..20).map(|_| dashboard(&state, 0))).await;
    let twenty = memory.calls().len() - before;
    println!("dashboard: one load {one} upstream calls, twenty concurrent loads {twenty}");
    assert_eq!(twenty, one, "20 concurrent loads cost the calls of one");
}

#[tokio::test]
async fn a_deploy_reads_fresh_while_pages_share() {
    let (state, memory, fx, _dir) = coalesced();
    let request = deploy_request(4, "base-os");
    let before = memory.calls().len();
    let operator = repo_console::domain::identity::Operator::placeholder();
    let (page, outcome) = futures::join!(
        versions_page(&state, &fx.base_os, first_screen()),
        repo_console::app::deploy::deploy(&state, &fx.base_os, &request, &operator)
    );
    page.unwrap();
    assert!(matches!(
        outcome,
        repo_console::app::deploy::DeployOutcome::Deployed { .. }
    ));
    let reads: Vec<String> = memory.calls()[before..]
        .iter()
        .filter(|c| c.starts_with("get_repo"))
        .cloned()
        .collect();
    assert_eq!(
        reads.len(),
        2,
        "the deploy read the repository itself: {reads:?}"
    );
}
