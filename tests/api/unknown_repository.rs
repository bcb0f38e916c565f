//! A repository id that is a UUID but that Pulp does not have: every route answers 404 with
//! words saying the repository does not exist (a page, or a fragment for htmx), and nothing
//! changes upstream.

use crate::helpers::*;

const NOBODY: &str = "01a202de-e818-7629-a483-000000000000";
const SAYS: &str = "Pulp has no RPM repository 01a202de-e818-7629-a483-000000000000";

fn assert_says_missing(what: &str, reply: &Reply) {
    assert_eq!(reply.status, 404, "{what}: {}", reply.body);
    assert!(reply.body.contains(SAYS), "{what}: {}", reply.body);
}

#[tokio::test]
async fn the_versions_page_of_an_unknown_repository_is_a_404_page() {
    let app = spawn_app().await;
    let reply = app.get(&format!("/repos/{NOBODY}/versions")).await;
    assert_says_missing("versions page", &reply);
    assert!(reply.body.contains("<html"), "a whole page");
}

#[tokio::test]
async fn the_confirm_step_of_an_unknown_repository_is_a_404_fragment() {
    let app = spawn_app().await;
    let reply = app
        .request(
            "GET",
            &format!("/repos/{NOBODY}/deploy/confirm?version=1"),
            &[("hx-request", "true")],
            "",
        )
        .await;
    assert_says_missing("confirm", &reply);
    assert!(!reply.body.contains("<html"), "a fragment for the modal");
}

#[tokio::test]
async fn a_deploy_to_an_unknown_repository_is_a_404_and_changes_nothing() {
    let app = spawn_app().await;
    let id = repo_console::domain::repository::RepoId::parse(NOBODY).unwrap();
    let htmx = app.deploy(&id, "1", "x").await;
    assert_says_missing("deploy (htmx)", &htmx);
    assert!(htmx.body.contains("Production was not changed"));
    let script = WebClient {
        address: app.address.clone(),
    }
    .post(&format!("/repos/{NOBODY}/deploy"), "version=1&confirm=x")
    .await;
    assert_says_missing("deploy (form)", &script);
    assert!(app.mutations().is_empty());
    assert!(app.audit_lines().is_empty());
}

#[tokio::test]
async fn the_sync_of_an_unknown_repository_is_a_404() {
    let app = spawn_app().await;
    let start = app
        .request("POST", &format!("/repos/{NOBODY}/sync"), &[], "")
        .await;
    assert_says_missing("sync start", &start);
    let cell = app.get(&format!("/repos/{NOBODY}/sync")).await;
    assert_says_missing("sync cell", &cell);
    assert!(app.mutations().is_empty());
}

#[tokio::test]
async fn the_history_of_an_unknown_repository_is_a_404_page() {
    let app = spawn_app().await;
    let reply = app.get(&format!("/repos/{NOBODY}/history")).await;
    assert_says_missing("history page", &reply);
    assert!(reply.body.contains("<html"), "a whole page");
}
