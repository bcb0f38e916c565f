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

#[tokio::test]
async fn a_broken_audit_chain_is_on_metrics_and_readyz_after_the_periodic_check() {
    use repo_console::adapters::files::audit::JsonlAuditSink;
    let app = spawn_app().await;
    crate::audit_chain_contract::write_lines(&JsonlAuditSink::new(&app.audit_path)).await;
    repo_console::app::audit_chain::check(&app.state).await;
    let log = app.audit_path.display().to_string();
    let metrics = app.get("/metrics").await.body;
    assert!(
        metrics.contains(&format!(
            "repo_console_audit_chain_intact{{log=\"{log}\"}} 1"
        )),
        "{metrics}"
    );
    assert_eq!(app.get("/readyz").await.body, "ready\n");

    let text = std::fs::read_to_string(&app.audit_path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines.swap(3, 4);
    std::fs::write(&app.audit_path, lines.join("\n") + "\n").unwrap();
    repo_console::app::audit_chain::check(&app.state).await;
    let reply = app.get("/readyz").await;
    assert_eq!(reply.status, 200, "deploys still run: attention, not down");
    assert!(
        reply.body.starts_with(
            "ready; attention: the audit log's hash chain is broken: line 4 (2026-11-20T08:05:00Z)"
        ),
        "{}",
        reply.body
    );
    let metrics = app.get("/metrics").await.body;
    assert!(
        metrics.contains(&format!(
            "repo_console_audit_chain_intact{{log=\"{log}\"}} 0"
        )) && metrics.contains(&format!(
            "repo_console_audit_chain_broken_line{{log=\"{log}\"}} 4"
        )),
        "{metrics}"
    );
}

#[tokio::test]
async fn lines_cut_from_the_end_after_a_check_show_at_the_next_one() {
    use repo_console::adapters::files::audit::JsonlAuditSink;
    let app = spawn_app().await;
    crate::audit_chain_contract::write_lines(&JsonlAuditSink::new(&app.audit_path)).await;
    repo_console::app::audit_chain::check(&app.state).await;
    let text = std::fs::read_to_string(&app.audit_path).unwrap();
    let kept: Vec<&str> = text.lines().take(5).collect();
    std::fs::write(&app.audit_path, kept.join("\n") + "\n").unwrap();
    repo_console::app::audit_chain::check(&app.state).await;
    let reply = app.get("/readyz").await;
    assert!(
        reply.body.contains(
            "line 5 (2026-11-20T08:05:00Z) is the last line, but an earlier check saw line 6"
        ),
        "{}",
        reply.body
    );
}
