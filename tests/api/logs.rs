//! What the console logs: upstream failures on the dashboard, on sync and on failed deploys
//! are logged with their error, and the dashboard's span carries its page.

use std::io::Write;
use std::sync::{Arc, Mutex};

use repo_console::adapters::memory::{Fault, InMemoryPulp, MemoryOptions, Op};
use repo_console::app::{deploy, pages::dashboard::dashboard, sync};
use repo_console::domain::identity::Operator;
use tokio_test::assert_err;
use tracing_subscriber::fmt::format::FmtSpan;

use crate::helpers::*;

/// Everything logged while the returned guard lives (on this thread).
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    fn start(&self) -> tracing::subscriber::DefaultGuard {
        let sink = self.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || sink.clone())
            .with_ansi(false)
            .with_span_events(FmtSpan::CLOSE)
            .with_max_level(tracing::Level::INFO)
            .finish();
        tracing::subscriber::set_default(subscriber)
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn setup() -> (
    repo_console::app::AppState,
    Arc<repo_console::adapters::memory::FaultyPulp>,
    Fixture,
    tempfile::TempDir,
) {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay: std::time::Duration::ZERO,
        task_timeout: std::time::Duration::from_millis(200),
        ..Default::default()
    }));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, pulp) = test_state(&memory, &dir.path().join("audit.jsonl"));
    (state, pulp, fx, dir)
}

#[tokio::test(flavor = "current_thread")]
async fn the_dashboard_span_names_its_page_and_upstream_failures_are_logged() {
    let (state, pulp, _fx, _dir) = setup();
    let logs = Captured::default();
    let _guard = logs.start();
    dashboard(&state, 3).await;
    pulp.set(Op::SyncStates, Fault::Http(500));
    dashboard(&state, 0).await;
    pulp.set(Op::ListRepos, Fault::Reset);
    dashboard(&state, 0).await;
    let text = logs.text();
    assert!(text.contains("dashboard{page=3}"), "{text}");
    assert!(
        text.contains("synchronization states not read")
            && text.contains("injected fault on SyncStates"),
        "{text}"
    );
    assert!(
        text.contains("repositories not listed") && text.contains("injected on ListRepos"),
        "{text}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_sync_that_cannot_start_is_logged_with_its_error() {
    let (state, pulp, fx, _dir) = setup();
    let logs = Captured::default();
    let _guard = logs.start();
    pulp.set(Op::GetRepo, Fault::Http(502));
    assert_err!(sync::start_sync(&state, &fx.base_os, &Operator::placeholder()).await);
    assert_err!(sync::current_sync(&state, &fx.base_os).await);
    let text = logs.text();
    assert!(
        text.contains("synchronization not started") && text.contains("injected fault on GetRepo"),
        "{text}"
    );
    assert!(text.contains("synchronization state not read"), "{text}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_failed_deploy_is_logged_with_its_error_its_verdict_and_its_task() {
    let (state, pulp, fx, _dir) = setup();
    let logs = Captured::default();
    let _guard = logs.start();
    pulp.set(
        Op::UpdateDistribution,
        Fault::TaskFailed("worker lost".into()),
    );
    let request = deploy_request(4, "base-os");
    let outcome = deploy::deploy(&state, &fx.base_os, &request, &Operator::placeholder()).await;
    assert!(matches!(outcome, deploy::DeployOutcome::Failed { .. }));
    pulp.set(Op::ListVersions, Fault::Timeout);
    deploy::deploy(&state, &fx.base_os, &request, &Operator::placeholder()).await;
    let text = logs.text();
    assert!(
        text.contains("deploy failed")
            && text.contains("worker lost")
            && text.contains("production_changed=No")
            && text.contains("/pulp/api/v3/tasks/"),
        "{text}"
    );
    assert!(
        text.contains("deploy not started") && text.contains("injected timeout on ListVersions"),
        "{text}"
    );
}
