use repo_console::adapters::memory::{Fault, Op};

use crate::helpers::*;

#[tokio::test]
async fn the_confirm_fragment_previews_the_change_and_asks_for_the_name() {
    let app = spawn_app().await;
    let reply = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=4",
            app.fixture.base_os
        ))
        .await;
    assert_eq!(reply.status, 200);
    let html = reply.html();
    let modal = &select(&html, "#deploy-modal")[0];
    assert_eq!(attr(modal, "data-confirm"), "base-os");
    assert_eq!(text(&select(&html, ".preview .from")[0]), "v2");
    assert_eq!(text(&select(&html, ".preview .to")[0]), "v4");
    let net = &select(&html, "[data-net]")[0];
    assert_eq!(attr(net, "data-net"), "0", "v2 has 5 packages, v4 has 5");
    assert!(select(&html, "[data-modal-confirm]")[0]
        .value()
        .attr("disabled")
        .is_some());
    assert_eq!(
        select(&html, "code.repo-name").len(),
        1,
        "only the name is monospaced"
    );
    assert!(reply.body.contains("Cancel"));
}

#[tokio::test]
async fn net_change_is_green_plus_or_red_minus() {
    let app = spawn_app().await;
    let minus = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=3",
            app.fixture.base_os
        ))
        .await
        .html();
    let net = &select(&minus, "[data-net]")[0];
    assert_eq!(
        (attr(net, "data-net"), attr(net, "class")),
        ("-2", "net minus")
    );
    assert_eq!(text(net), "\u{2212}2");
    let plus = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=1",
            app.fixture.fresh
        ))
        .await
        .html();
    let net = &select(&plus, "[data-net]")[0];
    assert_eq!(
        (attr(net, "data-net"), attr(net, "class")),
        ("2", "net plus")
    );
    assert_eq!(
        text(&select(&plus, ".preview .from")[0]),
        "nothing deployed"
    );
}

#[tokio::test]
async fn a_confirmed_deploy_moves_production_writes_the_audit_line_and_swaps_the_list() {
    let app = spawn_app().await;
    let reply = app.deploy(&app.fixture.base_os, "4", "base-os").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(app.production_version("base-os-prod"), Some(4));
    let html = reply.html();
    let list = &select(&html, "#version-list")[0];
    assert_eq!(attr(list, "hx-swap-oob"), "true");
    let deployed: Vec<&str> = select(&html, "tr[data-deployed=true]")
        .iter()
        .map(|r| attr(r, "data-version"))
        .collect();
    assert_eq!(deployed, ["4"]);
    assert!(text(&select(&html, "#deploy-banner")[0]).contains("v4"));
    assert!(
        select(&html, "#deploy-modal").is_empty(),
        "the modal is closed"
    );

    let lines = app.audit_lines();
    assert_eq!(lines.len(), 2, "a started line, then the outcome");
    assert_eq!(lines[0]["outcome"], "started");
    assert_eq!(lines[0]["deploy_id"], lines[1]["deploy_id"]);
    let line = &lines[1];
    assert_eq!(line["operator"], "operator");
    assert_eq!(line["timestamp"], "2026-11-22T10:00:00.000Z");
    assert_eq!(line["repository_uuid"], app.fixture.base_os.as_str());
    assert_eq!(line["repository_name"], "base-os");
    assert_eq!(line["previous_version"], 2);
    assert_eq!(line["target_version"], 4);
    assert_eq!(line["distribution"], "base-os-prod");
    assert_eq!(line["outcome"], "deployed");
    assert!(line["publication"]
        .as_str()
        .unwrap()
        .contains("/publications/rpm/rpm/"));
}

#[tokio::test]
async fn without_htmx_a_deploy_redirects_to_the_versions_page() {
    let app = spawn_app().await;
    let body = "version=1&confirm=fresh";
    let reply = app
        .request(
            "POST",
            &format!("/repos/{}/deploy", app.fixture.fresh),
            &[("content-type", "application/x-www-form-urlencoded")],
            body,
        )
        .await;
    assert_eq!(reply.status, 303);
    assert_eq!(
        reply.header("location"),
        format!("/repos/{}/versions", app.fixture.fresh)
    );
    assert_eq!(app.production_version("fresh-prod"), Some(1));
}

async fn assert_refused(app: &TestApp, reply: Reply, status: u16, says: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert!(
        reply.body.contains(says),
        "the answer says why: {}",
        reply.body
    );
    assert!(
        reply.body.contains("Production was not changed."),
        "a refusal says production was not changed: {}",
        reply.body
    );
    assert!(
        app.mutations().is_empty(),
        "nothing changed upstream: {:?}",
        app.mutations()
    );
    assert!(app.audit_lines().is_empty(), "no audit line for a refusal");
}

#[tokio::test]
async fn a_wrong_confirmation_is_refused() {
    let app = spawn_app().await;
    for typed in ["", "base", "BASE-OS", " base-os", "base-os "] {
        let reply = app.deploy(&app.fixture.base_os, "4", typed).await;
        assert_refused(&app, reply, 422, "confirmation text does not match").await;
    }
    assert_eq!(app.production_version("base-os-prod"), Some(2));
}

#[tokio::test]
async fn an_unverified_repository_is_refused_on_the_server() {
    let app = spawn_app().await;
    let reply = app.deploy(&app.fixture.tools, "2", "tools").await;
    assert_refused(&app, reply, 409, "verification does not pass").await;
    let reply = app.deploy(&app.fixture.partial, "1", "partial").await;
    assert_refused(&app, reply, 409, "the policy refuses unsigned metadata").await;
}

#[tokio::test]
async fn the_deployed_version_and_unknown_versions_are_refused() {
    let app = spawn_app().await;
    assert_refused(
        &app,
        app.deploy(&app.fixture.base_os, "2", "base-os").await,
        409,
        "already deployed",
    )
    .await;
    assert_refused(
        &app,
        app.deploy(&app.fixture.base_os, "99", "base-os").await,
        404,
        "does not exist",
    )
    .await;
}

#[tokio::test]
async fn a_repository_without_production_distribution_is_refused_with_how_to_configure() {
    let app = spawn_app().await;
    let reply = app.deploy(&app.fixture.orphan, "1", "orphan").await;
    assert_refused(&app, reply, 409, "[production]").await;
    let preview = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=1",
            app.fixture.orphan
        ))
        .await;
    assert_eq!(preview.status, 409);
    assert!(preview.body.contains("[production]"));
}

#[tokio::test]
async fn malformed_versions_are_a_400_with_a_message() {
    let app = spawn_app().await;
    for version in ["", "abc", "-1", "99999999999999999999999", "1.5"] {
        let reply = app.deploy(&app.fixture.base_os, version, "base-os").await;
        assert_eq!(reply.status, 400, "{version:?}");
        assert!(reply.body.contains("version"), "{version:?}");
    }
    let reply = app
        .get(&format!("/repos/{}/deploy/confirm", app.fixture.base_os))
        .await;
    assert_eq!(reply.status, 400);
    assert!(app.mutations().is_empty());
}

#[tokio::test]
async fn a_failed_distribution_step_says_production_was_not_changed() {
    let app = spawn_app().await;
    app.pulp.set(Op::UpdateDistribution, Fault::Http(404));
    let reply = app.deploy(&app.fixture.base_os, "4", "base-os").await;
    assert_eq!(reply.status, 502);
    assert!(
        reply.body.contains("Production was NOT changed"),
        "{}",
        reply.body
    );
    assert_eq!(app.production_version("base-os-prod"), Some(2));
    let lines = app.audit_lines();
    assert_eq!(
        lines.len(),
        2,
        "the attempt reached upstream, so it is audited"
    );
    assert_eq!(lines[1]["outcome"], "failed");
    assert_eq!(lines[1]["production_changed"], "no");
}

#[tokio::test]
async fn an_ambiguous_distribution_step_says_unknown_and_what_to_check() {
    let app = spawn_app().await;
    app.pulp.set(Op::UpdateDistribution, Fault::TaskNeverEnds);
    let reply = app.deploy(&app.fixture.base_os, "4", "base-os").await;
    assert_eq!(reply.status, 504, "Pulp's task did not end in time");
    assert!(reply.body.contains("UNKNOWN"), "{}", reply.body);
    assert!(reply.body.contains("Check the production distribution"));
    let html = reply.html();
    let task = text(&select(&html, "[data-task]")[0]);
    assert!(
        task.starts_with("/pulp/api/v3/tasks/"),
        "the task to check: {task}"
    );
    assert_eq!(app.audit_lines()[1]["production_changed"], "unknown");
}

#[tokio::test]
async fn a_distribution_deleted_between_preview_and_deploy_changes_nothing() {
    let app = spawn_app().await;
    let preview = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=1",
            app.fixture.fresh
        ))
        .await;
    assert_eq!(preview.status, 200);
    app.memory.remove_distribution("fresh-prod");
    let reply = app.deploy(&app.fixture.fresh, "1", "fresh").await;
    assert_eq!(reply.status, 409);
    assert!(
        reply.body.contains("'fresh-prod' does not exist"),
        "{}",
        reply.body
    );
    assert!(app.mutations().is_empty());
}

#[tokio::test]
async fn an_unwritable_audit_log_refuses_the_deploy_before_anything_changes() {
    let app = spawn_app().await;
    let dir = app.audit_path.parent().unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::create_dir_all(&app.audit_path).unwrap(); // a directory where the file should be
    let reply = app.deploy(&app.fixture.base_os, "4", "base-os").await;
    assert_eq!(reply.status, 503);
    assert!(reply.body.contains("audit log"), "{}", reply.body);
    assert!(reply.body.contains("Production was not changed"));
    assert!(app.mutations().is_empty());
}
