//! Two operators, one production: deploys are serialized and carry what was live at preview.

use std::time::Duration;

use repo_console::app::deploy::{deploy, DeployOutcome, StepError};
use repo_console::domain::deploy::{ProductionChanged, Refusal, SeenLive};
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::VersionNumber;

use crate::helpers::*;

fn live_field(confirm_fragment: &str) -> String {
    let html = scraper::Html::parse_fragment(confirm_fragment);
    let input = select(&html, "input[name=live]");
    attr(&input[0], "value").to_owned()
}

#[tokio::test]
async fn a_deploy_from_a_stale_preview_is_refused() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    let preview = app
        .get(&format!("/repos/{id}/deploy/confirm?version=4"))
        .await;
    let live = live_field(&preview.body);
    assert_eq!(live, "2");
    // Another operator deploys v3 meanwhile.
    assert_eq!(app.deploy_seen(id, "3", "base-os", "2").await.status, 200);
    let reply = app.deploy_seen(id, "4", "base-os", &live).await;
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert!(
        reply.body.contains("production moved since the preview"),
        "{}",
        reply.body
    );
    assert_eq!(app.production_version("base-os-prod"), Some(3));
}

#[tokio::test]
async fn fifty_concurrent_identical_deploys_make_exactly_one_deployment() {
    let app = std::sync::Arc::new(spawn_app().await);
    let mut handles = Vec::new();
    for _ in 0..50 {
        let app = app.clone();
        handles.push(tokio::spawn(async move {
            app.deploy_seen(&app.fixture.base_os, "4", "base-os", "2")
                .await
        }));
    }
    let mut statuses = Vec::new();
    for handle in handles {
        let reply = handle.await.unwrap();
        if reply.status != 200 {
            assert!(
                reply.body.contains("already deployed") || reply.body.contains("production moved"),
                "{}",
                reply.body
            );
        }
        statuses.push(reply.status);
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 49);
    let deployed: Vec<_> = app
        .audit_lines()
        .into_iter()
        .filter(|l| l["outcome"] == "deployed")
        .collect();
    assert_eq!(deployed.len(), 1);
    assert_eq!(
        app.mutations()
            .iter()
            .filter(|m| m.starts_with("update_distribution"))
            .count(),
        1
    );
}

#[tokio::test]
async fn production_moved_by_someone_else_during_the_deploy_is_not_overwritten() {
    let memory = std::sync::Arc::new(repo_console::adapters::memory::InMemoryPulp::new(
        repo_console::adapters::memory::MemoryOptions {
            task_delay: Duration::from_millis(300),
            ..Default::default()
        },
    ));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = test_state(&memory, &dir.path().join("a.jsonl"));
    let request = deploy_request(4, "base-os");
    let running = tokio::spawn({
        let state = state.clone();
        let id = fx.base_os.clone();
        async move { deploy(&state, &id, &request, &Operator::placeholder()).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Another console (another process) points production at v1 while the publish runs.
    let other = memory.publish(&fx.base_os, VersionNumber::new(1));
    memory.point_distribution("base-os-prod", &other);
    let outcome = running.await.unwrap();
    let DeployOutcome::Failed {
        error,
        production_changed,
        ..
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    assert!(
        matches!(error, StepError::ProductionMoved { .. }),
        "{error}"
    );
    assert_eq!(production_changed, ProductionChanged::No);
    assert_eq!(
        memory.serving_version("base-os-prod"),
        Some(VersionNumber::new(1))
    );
}

#[tokio::test]
async fn a_refusal_names_the_version_now_live() {
    let err = repo_console::domain::deploy::check_unmoved(
        &repo_console::domain::environment::EnvironmentName::production(),
        Some(VersionNumber::new(5)),
        SeenLive::Version(VersionNumber::new(4)),
    );
    assert!(matches!(err, Err(Refusal::ProductionMoved { ref now, .. }) if now == "v5"));
}
