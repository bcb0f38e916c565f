//! The history page, drift and the overwrite warning, on the in-memory upstream: a deploy,
//! a rollback with a reason, then an outside change of the production distribution.

use std::sync::Arc;

use repo_console::adapters::audit_stdout::StdoutAuditSink;
use repo_console::adapters::memory::OUTSIDE_USER;
use repo_console::app::pages::history::history_page;
use repo_console::domain::repository::VersionNumber;

use crate::helpers::*;
use crate::web::select_in;

/// Deploys v4, rolls back to v2 ("v4 breaks dnf"), then an outside operator points
/// production at a publication of v3.
async fn deploy_rollback_outside(app: &TestApp) {
    let id = &app.fixture.base_os;
    let deployed = app.deploy(id, "4", "base-os").await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    let body = "version=2&confirm=base-os&live=4&rollback=1&reason=v4+breaks+dnf";
    let rolled_back = app.post_form(id, body).await;
    assert_eq!(rolled_back.status, 200, "{}", rolled_back.body);
    let v3 = app.memory.publish(id, VersionNumber::new(3));
    app.memory.point_distribution("base-os-prod", &v3);
}

#[tokio::test]
async fn the_history_lists_console_and_outside_changes_newest_first() {
    let app = spawn_app().await;
    deploy_rollback_outside(&app).await;
    let reply = app
        .get(&format!("/repos/{}/history", app.fixture.base_os))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = reply.html();
    let entries = select(&html, "[data-history-entry]");
    assert_eq!(entries.len(), 3, "{}", reply.body);
    let ids: Vec<String> = app
        .audit_lines()
        .iter()
        .map(|l| l["deploy_id"].as_str().unwrap().to_owned())
        .collect();
    // The outside change is newest (Pulp's clock is now; the console's is pinned earlier).
    assert_eq!(attr(&entries[0], "data-outside"), "true");
    let outside = text(&entries[0]);
    assert!(
        outside.contains(OUTSIDE_USER) && outside.contains("unknown \u{2192} v3"),
        "{outside}"
    );
    let rollback = text(&entries[1]);
    assert_eq!(
        attr(&entries[1], "data-deploy-id"),
        ids[2],
        "the rollback's deploy id"
    );
    assert!(
        rollback.contains("Rollback") && rollback.contains("v4 \u{2192} v2"),
        "{rollback}"
    );
    assert!(
        rollback.contains("v4 breaks dnf"),
        "the reason is shown: {rollback}"
    );
    assert_eq!(attr(&entries[2], "data-deploy-id"), ids[0]);
    assert!(text(&entries[2]).contains("v2 \u{2192} v4"));
    let rollbacks: Vec<&str> = select(&html, "[data-rollback-version]")
        .iter()
        .map(|b| attr(b, "data-rollback-version"))
        .collect();
    assert_eq!(
        rollbacks,
        ["2", "4"],
        "every past version offers a rollback, not the live one"
    );
    let link = &select(&html, "[data-rollback-version='2']")[0];
    assert_eq!(
        attr(link, "hx-get"),
        format!(
            "/repos/{}/deploy/confirm?version=2&rollback=1&env=production",
            app.fixture.base_os
        )
    );
}

#[tokio::test]
async fn a_first_deploy_reads_first_deploy_not_unknown() {
    let app = spawn_app().await;
    let id = &app.fixture.fresh;
    let deployed = app.deploy(id, "1", "fresh").await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    let html = app.get(&format!("/repos/{id}/history")).await.html();
    let entries = select(&html, "[data-history-entry]");
    assert_eq!(entries.len(), 1);
    let entry = text(&entries[0]);
    assert!(entry.contains("first deploy of v1"), "{entry}");
    assert!(!entry.contains("unknown"), "{entry}");
    assert_eq!(select(&html, "[data-first-deploy]").len(), 1);
}

#[tokio::test]
async fn an_outside_change_shows_drift_and_the_next_preview_says_it_overwrites_it() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    let versions = app.get(&format!("/repos/{id}/versions")).await.html();
    assert!(
        select(&versions, "[data-drift]").is_empty(),
        "no drift before anything happened"
    );
    deploy_rollback_outside(&app).await;
    let versions = app.get(&format!("/repos/{id}/versions")).await.html();
    let drift = &select(&versions, "[data-drift]")[0];
    assert!(text(drift).contains(OUTSIDE_USER), "{}", text(drift));
    assert_eq!(select(&versions, "a[data-history-link]").len(), 1);
    let preview = app
        .get(&format!("/repos/{id}/deploy/confirm?version=4"))
        .await
        .html();
    assert_eq!(
        select(&preview, "[data-overwrites-outside-change]").len(),
        1
    );
    // A deploy through the console ends the drift.
    let redeployed = app.deploy(id, "4", "base-os").await;
    assert_eq!(redeployed.status, 200, "{}", redeployed.body);
    let versions = app.get(&format!("/repos/{id}/versions")).await.html();
    assert!(select(&versions, "[data-drift]").is_empty());
}

#[tokio::test]
async fn the_history_costs_the_same_upstream_calls_whatever_the_audit_length() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    let count = |app: &TestApp| app.memory.calls().len();
    let deploys = [("4", "2"), ("2", "4")];
    let mut costs = Vec::new();
    for round in 1..=3 {
        for (version, live) in deploys {
            let body = format!("version={version}&confirm=base-os&live={live}");
            assert_eq!(app.post_form(id, &body).await.status, 200);
        }
        let before = count(&app);
        let reply = app.get(&format!("/repos/{id}/history")).await;
        assert_eq!(
            select(&reply.html(), "[data-history-entry]").len(),
            2 * round
        );
        costs.push(count(&app) - before);
    }
    assert!(
        costs.windows(2).all(|w| w[0] == w[1]),
        "{costs:?}: {:?}",
        app.memory.calls()
    );
}

#[tokio::test]
async fn a_sink_that_cannot_be_read_says_so_and_pulps_record_is_still_shown() {
    let memory = Arc::new(repo_console::adapters::memory::InMemoryPulp::new(
        Default::default(),
    ));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = test_state(&memory, &dir.path().join("a.jsonl"));
    let state = state
        .rebuild()
        .audit(Arc::new(StdoutAuditSink::default()))
        .build();
    let v3 = memory.publish(&fx.base_os, VersionNumber::new(3));
    memory.point_distribution("base-os-prod", &v3);
    let page = history_page(
        &state,
        &fx.base_os,
        &repo_console::domain::environment::EnvironmentName::production(),
        None,
    )
    .await
    .unwrap();
    let why = page
        .audit_unreadable
        .expect("the page says the log cannot be read");
    assert!(why.to_string().contains("standard output"), "{why}");
    assert_eq!(page.entries.len(), 1, "Pulp's record: {:?}", page.entries);
    assert_eq!(page.entries[0].who, OUTSIDE_USER);
}

#[tokio::test]
async fn the_dashboard_shows_production_latest_not_deployed_and_drift() {
    let app = spawn_app().await;
    let row = |html: &scraper::Html, id: &repo_console::domain::repository::RepoId| {
        let cell = &select(
            html,
            &format!("tr[data-repo='{id}'] [data-production-version]"),
        )[0];
        let marks = |css: &str| !select_in(cell, css).is_empty();
        (
            attr(cell, "data-production-version").to_owned(),
            marks("[data-latest-not-deployed]"),
            marks("[data-drift]"),
        )
    };
    let html = app.get("/").await.html();
    assert_eq!(row(&html, &app.fixture.base_os), ("2".into(), true, false));
    assert_eq!(
        row(&html, &app.fixture.partial),
        (String::new(), true, false)
    );
    deploy_rollback_outside(&app).await;
    let html = app.get("/").await.html();
    assert_eq!(row(&html, &app.fixture.base_os), ("3".into(), true, true));
    assert_eq!(row(&html, &app.fixture.tools), ("1".into(), true, false));
    let deployed = app.deploy(&app.fixture.base_os, "4", "base-os").await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    let html = app.get("/").await.html();
    assert_eq!(row(&html, &app.fixture.base_os), ("4".into(), false, false));
}

#[tokio::test]
async fn the_dashboard_warns_when_retention_will_delete_the_live_or_previous_version() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    let warning = |html: &scraper::Html| {
        select(
            html,
            &format!("tr[data-repo='{id}'] [data-retention-warning]"),
        )
        .first()
        .map(|w| (text(w), attr(w, "title").to_owned()))
    };
    // v4 is the newest and v2 is live: keeping 6, v2 survives 3 more versions.
    app.memory.set_retain_versions(id, Some(6));
    assert_eq!(warning(&app.get("/").await.html()), None);
    app.memory.set_retain_versions(id, Some(5));
    let (shown, title) = warning(&app.get("/").await.html()).expect("v2 is at risk");
    assert!(shown.contains("v2 (live)"), "{shown}");
    assert!(title.contains("retain_repo_versions = 5"), "{title}");
    // After a deploy of v4, the previous production version (v2) is the rollback target.
    assert_eq!(app.deploy(id, "4", "base-os").await.status, 200);
    let (shown, _) = warning(&app.get("/").await.html()).expect("v2 is still needed");
    assert!(
        shown.contains("v2 (previous production") && !shown.contains("live"),
        "{shown}"
    );
}

#[tokio::test]
async fn when_pulps_record_cannot_be_read_the_console_entries_still_show_and_the_page_says_so() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    assert_eq!(app.deploy(id, "4", "base-os").await.status, 200);
    app.pulp.set(
        repo_console::adapters::memory::Op::DistributionChanges,
        repo_console::adapters::memory::Fault::Http(500),
    );
    let reply = app.get(&format!("/repos/{id}/history")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = reply.html();
    let warning = text(&select(&html, "#upstream-unreadable")[0]);
    assert!(
        warning.contains("not listed") && warning.contains("500"),
        "{warning}"
    );
    assert_eq!(
        select(&html, "[data-history-entry][data-deploy-id]").len(),
        1
    );
    // Production as the console left it: no drift claimed without Pulp's record.
    let versions = app.get(&format!("/repos/{id}/versions")).await.html();
    assert!(select(&versions, "[data-drift]").is_empty());
}
