//! `/readyz` is 200 only when everything a deploy needs answers: Pulp and the audit store.

use repo_console::adapters::memory::{Fault, Op};

use crate::helpers::*;

/// Makes the audit file's directory impossible to create: a plain file takes its place.
fn break_audit_directory(app: &TestApp) {
    let directory = app.audit_path.parent().unwrap();
    if directory.is_dir() {
        std::fs::remove_dir_all(directory).unwrap();
    }
    std::fs::write(directory, "not a directory").unwrap();
}

#[tokio::test]
async fn readyz_names_an_audit_store_that_cannot_be_written() {
    let app = spawn_app().await;
    assert_eq!(app.get("/readyz").await.status, 200);

    break_audit_directory(&app);
    let reply = app.get("/readyz").await;
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert!(
        reply.body.contains("audit store")
            && reply.body.contains(&app.audit_path.display().to_string()),
        "names the audit store and its file: {}",
        reply.body
    );
    assert!(
        !reply.body.contains("Pulp:"),
        "Pulp answers: {}",
        reply.body
    );
}

#[tokio::test]
async fn readyz_names_every_part_that_is_down() {
    let app = spawn_app().await;
    break_audit_directory(&app);
    app.pulp.set(Op::ListRepos, Fault::Reset);
    let reply = app.get("/readyz").await;
    assert_eq!(reply.status, 503);
    assert!(
        reply.body.contains("Pulp:") && reply.body.contains("audit store"),
        "both named: {}",
        reply.body
    );
}
