//! The console itself (the real router) over `PulpClient` and the real Pulp: spawn_console(),
//! a small HTTP client, HTML helpers, a counting `RepositoryManager` decorator and a
//! counting TCP proxy (to count the HTTP requests that reach Pulp).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::web;
use repo_console::app::state::AppStateBuilder;
use repo_console::app::AppState;
use repo_console::domain::{
    Advisory, ContentRead, Distribution, DistributionChange, DistributionHref, EnvironmentPath,
    Package, Publication, PublicationHref, RemoteHref, RepoId, RepoVersion, Repository, SyncState,
    VersionHref, VersionNumber,
};
use repo_console::ports::{
    ContentCatalog, Page, PageRequest, RepositoryManager, UpstreamError, WriteOutcome,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub use crate::web::{
    attr, change_kinds, enc, package_changes, select, select_in, text, Reply, WebClient,
};

/// The console served on 127.0.0.1:0, with a JSON Lines audit file in a temporary directory.
pub struct Console {
    pub address: String,
    pub audit_path: PathBuf,
    _dir: tempfile::TempDir,
}

/// Serves the real router over `manager`; production distributions are found by the
/// spec's rule (no `[production]` table).
pub async fn spawn_console<P: RepositoryManager + ContentCatalog + 'static>(
    pulp: Arc<P>,
    page_size: u64,
) -> Console {
    serve(pulp, page_size, |builder| builder).await
}

/// `spawn_console` with the environments of `path` (as `[environments]` configures them).
pub async fn spawn_console_with_environments<P: RepositoryManager + ContentCatalog + 'static>(
    pulp: Arc<P>,
    page_size: u64,
    path: EnvironmentPath,
) -> Console {
    serve(pulp, page_size, |builder| builder.environments(path)).await
}

/// The console over `pulp`, its state set by `configure` after the page size (which may
/// replace the clock, the identity, the policy...), served by the bare router.
async fn serve<P: RepositoryManager + ContentCatalog + 'static>(
    pulp: Arc<P>,
    page_size: u64,
    configure: impl FnOnce(AppStateBuilder) -> AppStateBuilder,
) -> Console {
    let (state, dir, audit_path) = state_for(pulp, page_size, configure);
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(async move {
        axum::serve(listener, web::router(state))
            .await
            .expect("serve")
    });
    Console {
        address,
        audit_path,
        _dir: dir,
    }
}

/// `serve`, but through the console's own server (`web::serve`, as the binary serves:
/// the edge, and each request's peer address, which a trusted-proxy identity needs).
pub async fn serve_as_the_binary<P: RepositoryManager + ContentCatalog + 'static>(
    pulp: Arc<P>,
    page_size: u64,
    configure: impl FnOnce(AppStateBuilder) -> AppStateBuilder,
) -> Console {
    let (state, dir, audit_path) = state_for(pulp, page_size, configure);
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    let never = std::future::pending::<()>();
    tokio::spawn(web::serve(listener, state, never, Duration::from_secs(1)));
    Console {
        address,
        audit_path,
        _dir: dir,
    }
}

/// The console's state over `pulp`, with a JSON Lines audit file in a new temporary
/// directory, set by `configure` after the page size.
fn state_for<P: RepositoryManager + ContentCatalog + 'static>(
    pulp: Arc<P>,
    page_size: u64,
    configure: impl FnOnce(AppStateBuilder) -> AppStateBuilder,
) -> (AppState, tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let audit_path = dir.path().join("audit.jsonl");
    let builder = AppState::builder(
        pulp.clone(),
        pulp,
        Arc::new(JsonlAuditSink::new(&audit_path)),
        Arc::new(SystemClock),
        Arc::new(FixedOperator::default()),
    )
    .page_size(page_size);
    (configure(builder).build(), dir, audit_path)
}

impl Console {
    pub fn client(&self) -> WebClient {
        WebClient {
            address: self.address.clone(),
        }
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.client().get(path).await
    }

    /// A form POST as the console's pages send it (htmx).
    pub async fn post(&self, path: &str, form: &str) -> Reply {
        self.client().post_htmx(path, form).await
    }

    pub fn audit_lines(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(&self.audit_path)
            .map(|text| {
                text.lines()
                    .map(|l| serde_json::from_str(l).expect("each audit line is JSON"))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The median of some durations, in milliseconds.
pub fn median_ms(mut runs: Vec<Duration>) -> f64 {
    runs.sort();
    let mid = runs.len() / 2;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    if runs.len().is_multiple_of(2) {
        (ms(runs[mid - 1]) + ms(runs[mid])) / 2.0
    } else {
        ms(runs[mid])
    }
}

/// A `RepositoryManager` that records the name of every port call, then forwards it.
pub struct Counting<M> {
    pub inner: M,
    calls: Mutex<Vec<&'static str>>,
}

impl<M> Counting<M> {
    pub fn new(inner: M) -> Self {
        Self {
            inner,
            calls: Mutex::new(Vec::new()),
        }
    }

    /// The calls recorded since the last `take`.
    pub fn take(&self) -> Vec<&'static str> {
        std::mem::take(&mut *self.calls.lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn note(&self, name: &'static str) {
        self.calls
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(name);
    }
}

#[async_trait]
impl<M: ContentCatalog> ContentCatalog for Counting<M> {
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError> {
        self.note("packages");
        self.inner.packages(version, read).await
    }
    async fn advisories(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        self.note("advisories");
        self.inner.advisories(version, read).await
    }
    async fn package_builds(
        &self,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Vec<Package>, UpstreamError> {
        self.note("package_builds");
        self.inner.package_builds(version, names).await
    }
}

#[async_trait]
impl<M: RepositoryManager> RepositoryManager for Counting<M> {
    async fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError> {
        self.note("list_repos");
        self.inner.list_repos(page).await
    }
    async fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError> {
        self.note("get_repo");
        self.inner.get_repo(id).await
    }
    async fn version_page(
        &self,
        id: &RepoId,
        page: PageRequest,
    ) -> Result<Page<RepoVersion>, UpstreamError> {
        self.note("version_page");
        self.inner.version_page(id, page).await
    }
    async fn versions_numbered(
        &self,
        id: &RepoId,
        numbers: &[VersionNumber],
    ) -> Result<Vec<RepoVersion>, UpstreamError> {
        self.note("versions_numbered");
        self.inner.versions_numbered(id, numbers).await
    }
    async fn versions_newer_than(
        &self,
        id: &RepoId,
        number: VersionNumber,
    ) -> Result<u64, UpstreamError> {
        self.note("versions_newer_than");
        self.inner.versions_newer_than(id, number).await
    }
    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError> {
        self.note("list_distributions");
        self.inner.list_distributions().await
    }
    async fn distributions_named(
        &self,
        names: &[String],
    ) -> Result<Vec<Distribution>, UpstreamError> {
        self.note("distributions_named");
        self.inner.distributions_named(names).await
    }
    async fn get_distribution(
        &self,
        href: &DistributionHref,
    ) -> Result<Distribution, UpstreamError> {
        self.note("get_distribution");
        self.inner.get_distribution(href).await
    }
    async fn get_publication(&self, href: &PublicationHref) -> Result<Publication, UpstreamError> {
        self.note("get_publication");
        self.inner.get_publication(href).await
    }
    async fn publications(
        &self,
        hrefs: &[PublicationHref],
    ) -> Result<Vec<Publication>, UpstreamError> {
        self.note("publications");
        self.inner.publications(hrefs).await
    }
    async fn publish(&self, version: &VersionHref) -> WriteOutcome<PublicationHref> {
        self.note("publish");
        self.inner.publish(version).await
    }
    async fn point_distribution(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> WriteOutcome<()> {
        self.note("point_distribution");
        self.inner
            .point_distribution(distribution, publication)
            .await
    }
    async fn distribution_changes(
        &self,
        distribution: &DistributionHref,
        limit: u64,
    ) -> Result<Vec<DistributionChange>, UpstreamError> {
        self.note("distribution_changes");
        self.inner.distribution_changes(distribution, limit).await
    }
    async fn start_sync(
        &self,
        id: &RepoId,
        remote: &RemoteHref,
    ) -> Result<SyncState, UpstreamError> {
        self.note("start_sync");
        self.inner.start_sync(id, remote).await
    }
    async fn sync_states(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, SyncState>, UpstreamError> {
        self.note("sync_states");
        self.inner.sync_states(ids).await
    }
}

/// A TCP proxy on 127.0.0.1:0 in front of Pulp that keeps the request line of every HTTP
/// request sent through it (scanned in the client's bytes, so kept-alive connections count).
pub struct CountingProxy {
    pub url: String,
    requests: Arc<Mutex<Vec<String>>>,
}

const METHODS: [&str; 5] = ["GET /", "POST /", "PATCH /", "PUT /", "DELETE /"];

impl CountingProxy {
    pub async fn start(upstream_url: &str) -> Self {
        let upstream = upstream_url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (seen, upstream) = (seen.clone(), upstream.clone());
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(&upstream).await else {
                        return;
                    };
                    let (mut client_read, mut client_write) = client.into_split();
                    let (mut server_read, mut server_write) = server.into_split();
                    let up = async move {
                        let mut buf = vec![0u8; 16 * 1024];
                        loop {
                            let n = client_read.read(&mut buf).await.unwrap_or(0);
                            if n == 0 {
                                let _ = server_write.shutdown().await;
                                break;
                            }
                            let chunk = String::from_utf8_lossy(&buf[..n]);
                            let lines = chunk
                                .lines()
                                .filter(|l| METHODS.iter().any(|m| l.starts_with(m)))
                                .map(|l| l.trim_end_matches(" HTTP/1.1").to_owned());
                            seen.lock().unwrap_or_else(|p| p.into_inner()).extend(lines);
                            if server_write.write_all(&buf[..n]).await.is_err() {
                                break;
                            }
                        }
                    };
                    let down = tokio::io::copy(&mut server_read, &mut client_write);
                    let _ = tokio::join!(up, down);
                });
            }
        });
        Self { url, requests }
    }

    /// The request lines seen since the last `take`.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.requests.lock().unwrap_or_else(|p| p.into_inner()))
    }
}
