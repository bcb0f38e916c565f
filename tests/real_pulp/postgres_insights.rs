//! Issue 50's insights over PostgreSQL: the generated audit of 10,000 deploys over two years
//! (`insights_world.rs`) written through `PgAuditSink` gives the figures computed directly,
//! as the JSON Lines file does (`tests/api/insights.rs`), each duration within a second; a
//! row written afterwards is folded on the next view, from the row id the fold stopped at.

use std::sync::Arc;

use repo_console::adapters::memory::{demo, MemoryRequestStore};
use repo_console::adapters::postgres::{connect, PgAuditSink};
use repo_console::ports::{AuditSink, RequestStore};

use super::database::required_database;
use super::insights_world::{self, assert_figures_equal};
use super::test_app::{clock_at, TestApp};

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn ten_thousand_generated_deploys_in_postgres_give_the_figures_computed_directly() {
    let database = required_database();
    let sink = Arc::new(PgAuditSink::new(
        connect(&database.url, None).await.unwrap(),
    ));
    let audit: Arc<dyn AuditSink> = sink.clone();
    let store = Arc::new(MemoryRequestStore::default());
    let requests = store.clone();
    let app = TestApp::builder()
        .world(|memory| insights_world::generate(memory, "ins-pg-"))
        .clock(clock_at("2026-11-28T00:00:00Z"))
        .environments(demo::environments())
        .configure(move |state| {
            state
                .audit(audit)
                .requests(requests, chrono::Duration::hours(24))
        })
        .spawn()
        .await;
    for line in &app.fixture.lines {
        sink.record(line).await.unwrap();
    }
    for approval in &app.fixture.approvals {
        store.create(&approval.request).await.unwrap();
        store
            .append(&approval.request.id, 0, &approval.approved)
            .await
            .unwrap();
    }
    let reply = app.client.get("/api/v1/insights?days=730").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let body: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_figures_equal(&body, &app.fixture.expected);

    let mut more = app.fixture.lines.last().unwrap().clone();
    more.deploy_id = repo_console::domain::deploy::DeployId::new("one-more");
    more.kind = repo_console::domain::deploy::DeployKind::Deploy;
    more.environment =
        repo_console::domain::environment::EnvironmentName::parse("staging").unwrap();
    sink.record(&more).await.unwrap();
    let reply = app.client.get("/api/v1/insights?days=730").await;
    let after: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(
        after["environments"][0]["deploys"].as_u64().unwrap(),
        body["environments"][0]["deploys"].as_u64().unwrap() + 1
    );
}
