//! Rollback goes through the deploy gate with a required reason, recorded in the audit line.

use crate::helpers::*;

#[tokio::test]
async fn the_rollback_preview_is_the_deploy_gate_with_a_reason_field() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    let reply = app
        .get(&format!("/repos/{id}/deploy/confirm?version=1&rollback=1"))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = reply.html();
    assert_eq!(
        text(&select(&html, "#deploy-title")[0]),
        "Roll production back to v1"
    );
    assert_eq!(
        attr(&select(&html, "#deploy-modal")[0], "data-confirm"),
        "base-os"
    );
    let reason = &select(&html, "input[name=reason]")[0];
    assert!(reason.value().attr("required").is_some());
    assert_eq!(
        attr(&select(&html, "input[name=rollback]")[0], "value"),
        "1"
    );
    let deploy = app
        .get(&format!("/repos/{id}/deploy/confirm?version=1"))
        .await
        .html();
    assert!(select(&deploy, "input[name=reason]").is_empty());
}

#[tokio::test]
async fn a_rollback_without_a_reason_is_refused_before_anything_changes() {
    let app = spawn_app().await;
    let body = "version=1&confirm=base-os&live=2&rollback=1&reason=%20%20";
    let reply = app.post_form(&app.fixture.base_os, body).await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(
        reply.body.contains("a reason is required"),
        "{}",
        reply.body
    );
    assert!(app.mutations().is_empty());
    assert!(app.audit_lines().is_empty());
    assert_eq!(app.production_version("base-os-prod"), Some(2));
}

#[tokio::test]
async fn a_rollback_with_a_reason_moves_production_and_audits_kind_and_reason() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    // Production served v1, then v2 again: v1 is in its history.
    for body in [
        "version=1&confirm=base-os&live=2",
        "version=2&confirm=base-os&live=1",
    ] {
        assert_eq!(app.post_form(id, body).await.status, 200);
    }
    let body = "version=1&confirm=base-os&live=2&rollback=1&reason=v2+breaks+dnf";
    let reply = app.post_form(id, body).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(app.production_version("base-os-prod"), Some(1));
    let lines = app.audit_lines()[4..].to_vec();
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert_eq!(line["kind"], "rollback");
        assert_eq!(line["reason"], "v2 breaks dnf");
        assert_eq!(line["previous_version"], 2);
        assert_eq!(line["target_version"], 1);
    }
    assert_eq!(lines[1]["outcome"], "deployed");
}

/// Issue 33, attack 8: a "rollback" to a version the environment never served is refused
/// (422) before anything changes, on the pages and in the API alike (one use case).
#[tokio::test]
async fn a_rollback_to_a_version_never_served_is_refused() {
    let app = spawn_app().await;
    let body = "version=1&confirm=base-os&live=2&rollback=1&reason=not+a+rollback";
    let reply = app.post_form(&app.fixture.base_os, body).await;
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(reply.body.contains("never served v1"), "{}", reply.body);
    assert!(app.mutations().is_empty());
    assert!(app.audit_lines().is_empty());
    assert_eq!(app.production_version("base-os-prod"), Some(2));
}

#[tokio::test]
async fn a_rollback_target_pulp_deleted_is_refused_with_a_clear_message() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    let preview = app
        .get(&format!("/repos/{id}/deploy/confirm?version=9&rollback=1"))
        .await;
    assert_eq!(preview.status, 410, "{}", preview.body);
    assert!(
        preview.body.contains("retain_repo_versions"),
        "{}",
        preview.body
    );
    let body = "version=9&confirm=base-os&rollback=1&reason=back";
    let reply = app.post_form(id, body).await;
    assert_eq!(reply.status, 410, "{}", reply.body);
    assert!(
        reply.body.contains("no longer exists in Pulp"),
        "{}",
        reply.body
    );
    assert!(app.mutations().is_empty());
}
