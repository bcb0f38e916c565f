//! Issue 22, "compute ahead": a page that shows a newer version than production serves has
//! its diff computed in the background, once, so the confirm step opens from what is
//! known; the background work stops at shutdown.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use repo_console::adapters::memory::InMemoryPulp;
use repo_console::app::{diffs::ahead, DiffAhead};
use repo_console::domain::diff::{Advisory, ContentRead, Package};
use repo_console::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use repo_console::domain::repository::VersionHref;
use repo_console::ports::{
    AdvisoryCatalog, ContentCatalog, PackageCatalog, Page, PageRequest, UpstreamError,
};
use tokio::sync::oneshot;

use crate::acme::add_acme;
use crate::helpers::*;
use crate::test_app::TestApp;

/// A console over `memory` (its content read from `content`) that computes diffs ahead,
/// its worker, and what stops it.
struct Ahead {
    app: TestApp<()>,
    worker: tokio::task::JoinHandle<()>,
    stop: oneshot::Sender<()>,
}

async fn computing_ahead(memory: Arc<InMemoryPulp>, content: Arc<dyn ContentCatalog>) -> Ahead {
    let standing = TestApp::builder()
        .memory(memory)
        .content(content)
        .configure(|state| state.diff_ahead(DiffAhead::default()))
        .build();
    let (stop, stopped) = oneshot::channel::<()>();
    let worker = tokio::spawn(ahead::work(standing.state.clone(), async move {
        let _ = stopped.await;
    }));
    Ahead {
        app: standing.serve().await,
        worker,
        stop,
    }
}

/// Waits until the in-memory Pulp has answered `n` content reads (at most 5 s).
async fn until_content_calls(memory: &InMemoryPulp, n: usize) -> usize {
    let started = Instant::now();
    while content_calls(memory) < n && started.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Anything more would show now.
    tokio::time::sleep(Duration::from_millis(50)).await;
    content_calls(memory)
}

#[tokio::test]
async fn the_versions_page_has_the_newest_versions_diff_computed_once_in_the_background() {
    let memory = Arc::new(InMemoryPulp::default());
    let acme = add_acme(&memory, verified());
    let console = computing_ahead(memory.clone(), memory.clone()).await;
    for _ in 0..3 {
        let page = console
            .app
            .client
            .get(&format!("/repos/{acme}/versions"))
            .await;
        assert_eq!(page.status, 200);
    }
    // Production serves v2, the newest is v5: far apart, so five reads.
    assert_eq!(until_content_calls(&memory, 5).await, 5, "computed once");
    let confirm = console
        .app
        .client
        .get(&format!("/repos/{acme}/deploy/confirm?version=5"))
        .await;
    assert_eq!(confirm.status, 200);
    assert_eq!(
        select(&confirm.html(), "[data-change]").len(),
        4,
        "the confirm step shows the diff"
    );
    assert_eq!(content_calls(&memory), 5, "from what was computed ahead");
    let _ = console.stop.send(());
}

#[tokio::test]
async fn the_dashboard_has_the_diffs_of_its_latest_not_deployed_rows_computed() {
    let memory = Arc::new(InMemoryPulp::default());
    let acme = add_acme(&memory, verified());
    let console = computing_ahead(memory.clone(), memory.clone()).await;
    assert_eq!(console.app.client.get("/").await.status, 200);
    assert_eq!(until_content_calls(&memory, 5).await, 5);
    console
        .app
        .client
        .get(&format!("/repos/{acme}/deploy/confirm?version=5"))
        .await;
    assert_eq!(
        content_calls(&memory),
        5,
        "known when the confirm step opens"
    );
    let _ = console.stop.send(());
}

/// Content reads that take a minute, counted as they start.
struct SlowContent {
    inner: Arc<InMemoryPulp>,
    started: AtomicUsize,
}

#[async_trait]
impl PackageCatalog for SlowContent {
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError> {
        self.started.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(60)).await;
        self.inner.packages(version, read).await
    }

    async fn package_builds(
        &self,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Vec<Package>, UpstreamError> {
        self.inner.package_builds(version, names).await
    }
}

#[async_trait]
impl AdvisoryCatalog for SlowContent {
    async fn advisories(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        self.started.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(60)).await;
        self.inner.advisories(version, read).await
    }

    async fn advisory_fixes(&self, ids: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError> {
        self.inner.advisory_fixes(ids).await
    }

    async fn advisories_held(
        &self,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Vec<String>, UpstreamError> {
        self.inner.advisories_held(version, ids).await
    }

    async fn advisory_references(
        &self,
        page: PageRequest,
    ) -> Result<Page<IndexedAdvisory>, UpstreamError> {
        self.inner.advisory_references(page).await
    }
}

#[tokio::test]
async fn computing_ahead_stops_at_shutdown_even_in_the_middle_of_a_diff() {
    let memory = Arc::new(InMemoryPulp::default());
    let acme = add_acme(&memory, verified());
    let slow = Arc::new(SlowContent {
        inner: memory.clone(),
        started: AtomicUsize::new(0),
    });
    let console = computing_ahead(memory, slow.clone()).await;
    let page = console
        .app
        .client
        .get(&format!("/repos/{acme}/versions"))
        .await;
    assert_eq!(page.status, 200, "the page does not wait for the diff");
    let started = Instant::now();
    while slow.started.load(Ordering::SeqCst) == 0 && started.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        slow.started.load(Ordering::SeqCst) > 0,
        "the diff is under way"
    );
    let _ = console.stop.send(());
    let ended = tokio::time::timeout(Duration::from_secs(2), console.worker).await;
    assert!(ended.is_ok(), "the worker ends at once when told to stop");
}
