//! Computed diffs kept in a directory (the file diff store) are found by another console
//! sharing it (a restart, a second process) without asking Pulp for content again.

use std::path::Path;
use std::sync::Arc;

use repo_console::adapters::files::diff_store::FileDiffStore;
use repo_console::adapters::memory::{InMemoryPulp, MemoryOptions};
use repo_console::app::diffs::compare::version_diff;
use repo_console::app::diffs::known::known_diff;
use repo_console::app::AppState;
use repo_console::domain::content::kind::ContentType;
use repo_console::domain::diff::DiffEnd;
use repo_console::domain::repository::VersionNumber;
use repo_console::ports::RepositoryManager;

use super::helpers::{content_calls, fixture, Fixture};
use crate::test_app::{TestApp, TestAppBuilder};

/// A console over `memory` keeping its diffs in `dir`.
fn sharing(memory: &Arc<InMemoryPulp>, dir: &Path) -> TestAppBuilder<()> {
    let store = Arc::new(FileDiffStore::new(dir.join("diffs"), 64 << 20));
    TestApp::builder()
        .memory(memory.clone())
        .audit_file(dir.join("audit.jsonl"))
        .configure(|state| state.diff_store(store))
}

/// A console's state over `memory` keeping its diffs in `dir`.
fn state_sharing(memory: &Arc<InMemoryPulp>, dir: &Path) -> AppState {
    sharing(memory, dir).build().state
}

fn upstream() -> (Arc<InMemoryPulp>, Fixture) {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions::default()));
    let fixture = fixture(&memory);
    (memory, fixture)
}

#[tokio::test]
async fn a_diff_one_console_computed_is_read_by_another_from_the_directory_without_content_calls() {
    let (memory, fixture) = upstream();
    let dir = tempfile::tempdir().unwrap();
    let repo = memory.get_repo(&fixture.base_os).await.unwrap();
    let key = (
        Some(repo.version_href(VersionNumber::new(2))),
        repo.version_href(VersionNumber::new(4)),
    );

    let first = state_sharing(&memory, dir.path());
    assert!(
        known_diff(&first, &key).await.is_none(),
        "nothing stored yet"
    );
    let end = |href| DiffEnd { href, count: None };
    let computed = version_diff(
        &first,
        ContentType::Rpm,
        key.0.as_ref().map(end),
        end(&key.1),
    )
    .await
    .unwrap();
    assert!(content_calls(&memory) > 0, "the first console asked Pulp");

    let before = memory.calls().len();
    let second = state_sharing(&memory, dir.path());
    let found = known_diff(&second, &key)
        .await
        .expect("stored by the first");
    assert_eq!(found, computed);
    assert!(!found.packages.is_empty());
    assert_eq!(
        memory.calls().len(),
        before,
        "found in the directory: no call to Pulp at all"
    );
}

/// The same through HTTP: the compare page of a second console sharing the directory costs
/// no content call.
#[tokio::test]
async fn the_compare_page_of_a_second_console_sharing_the_directory_asks_pulp_for_no_content() {
    let (memory, fixture) = upstream();
    let dir = tempfile::tempdir().unwrap();
    let page = format!("/repos/{}/versions/4/changes?against=2", fixture.base_os);
    let mut bodies = Vec::new();
    let mut calls = Vec::new();
    for _ in 0..2 {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let mut app = sharing(&memory, dir.path())
            .until(async {
                let _ = stopped.await;
            })
            .spawn()
            .await;
        let before = content_calls(&memory);
        let reply = app.get(&page).await;
        assert_eq!(reply.status, 200);
        bodies.push(reply.body.clone());
        calls.push(content_calls(&memory) - before);
        let _ = stop.send(());
        let _ = (&mut app.served).await;
    }
    assert!(
        calls[0] >= 2,
        "the first console computed the diff: {calls:?}"
    );
    assert_eq!(calls[1], 0, "the second read it from the directory");
    assert_eq!(bodies[0], bodies[1]);
}
