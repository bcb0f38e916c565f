//! spawn_app(): the console on 127.0.0.1:0 over an in-memory Pulp with faults, a JSON Lines
//! audit file in a temporary directory and a pinned clock; plus a small HTTP client.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Utc};

pub use crate::web::{attr, enc, select, text, Reply, WebClient};
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::memory::{FaultyPulp, FixedClock, InMemoryPulp, MemoryOptions};
use repo_console::adapters::metrics::Metrics;
use repo_console::adapters::web;
use repo_console::app::AppState;
use repo_console::domain::{
    ChecksumType, DeployRequest, Intent, RepoId, RepoVerification, Screen, SeenLive, VersionNumber,
    VERSIONS_PER_SCREEN,
};

pub const HOSTILE: &str = r#"<script>alert("x")</script> 'q' & "dq""#;

/// A deploy of version `target`, confirmed with `confirm`, from a client that does not say
/// what it saw live (a script).
pub fn deploy_request(target: u64, confirm: &str) -> DeployRequest {
    DeployRequest {
        target: VersionNumber::new(target),
        environment: repo_console::domain::EnvironmentName::production(),
        confirm: confirm.into(),
        seen_live: SeenLive::NotSent,
        intent: Intent::Deploy(None),
        override_freeze: false,
    }
}

/// The versions page's first screen.
pub fn first_screen() -> Screen {
    Screen::new(0, VERSIONS_PER_SCREEN)
}

pub fn verified() -> RepoVerification {
    RepoVerification {
        gpgcheck: Some(true),
        repo_gpgcheck: Some(true),
        checksum: Some(ChecksumType::Sha256),
        metadata_signed: Some(true),
    }
}

pub fn pinned_time() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
        .unwrap()
        .into()
}

/// The repositories of the test upstream.
pub struct Fixture {
    /// Verified; v0..v4; production "base-os-prod" serves v2.
    pub base_os: RepoId,
    /// gpgcheck off.
    pub tools: RepoId,
    /// gpgcheck on, repo_gpgcheck off.
    pub partial: RepoId,
    /// Verified, never deployed; configured production "fresh-prod" serves nothing.
    pub fresh: RepoId,
    /// Verified, no production distribution at all.
    pub orphan: RepoId,
    /// Verified, with a hostile name; production serves v1.
    pub hostile: RepoId,
}

/// How many content reads (packages, advisories, builds by name) the in-memory Pulp answered.
pub fn content_calls(memory: &InMemoryPulp) -> usize {
    memory
        .calls()
        .iter()
        .filter(|c| {
            c.starts_with("packages ")
                || c.starts_with("advisories ")
                || c.starts_with("package_builds ")
        })
        .count()
}

pub fn fixture(pulp: &InMemoryPulp) -> Fixture {
    let base_os = pulp.add_repo("base-os", verified());
    pulp.add_version(&base_os, &["bash-5.1", "glibc-2.34", "curl-7.76"], &[]);
    pulp.add_version(&base_os, &["openssl-3.0", "vim-8.2"], &[]);
    pulp.add_version(
        &base_os,
        &["curl-7.77"],
        &["curl-7.76", "vim-8.2", "bash-5.1"],
    );
    pulp.add_version(&base_os, &["zlib-1.2", "xz-5.2"], &[]);
    let live = pulp.publish(&base_os, VersionNumber::new(2));
    pulp.add_distribution("base-os-prod", Some(&live));

    let tools = pulp.add_repo(
        "tools",
        RepoVerification {
            gpgcheck: Some(false),
            repo_gpgcheck: Some(false),
            checksum: None,
            metadata_signed: Some(false),
        },
    );
    pulp.add_version(&tools, &["t-1"], &[]);
    pulp.add_version(&tools, &["t-2"], &[]);
    let tools_pub = pulp.publish(&tools, VersionNumber::new(1));
    pulp.add_distribution("tools-prod", Some(&tools_pub));

    let partial = pulp.add_repo(
        "partial",
        RepoVerification {
            repo_gpgcheck: Some(false),
            ..verified()
        },
    );
    pulp.add_version(&partial, &["p-1"], &[]);

    let fresh = pulp.add_repo("fresh", verified());
    pulp.add_version(&fresh, &["f-1", "f-2"], &[]);
    pulp.add_distribution("fresh-prod", None);

    let orphan = pulp.add_repo("orphan", verified());
    pulp.add_version(&orphan, &["o-1"], &[]);

    let hostile = pulp.add_repo(HOSTILE, verified());
    pulp.add_version(&hostile, &["h-1"], &[]);
    pulp.add_version(&hostile, &["h-2"], &[]);
    let hostile_pub = pulp.publish(&hostile, VersionNumber::new(1));
    pulp.add_distribution("hostile-prod", Some(&hostile_pub));

    Fixture {
        base_os,
        tools,
        partial,
        fresh,
        orphan,
        hostile,
    }
}

pub struct TestApp {
    pub address: String,
    pub pulp: Arc<FaultyPulp>,
    pub memory: Arc<InMemoryPulp>,
    pub fixture: Fixture,
    pub audit_path: PathBuf,

    _dir: tempfile::TempDir,
}

pub fn test_state(
    memory: &Arc<InMemoryPulp>,
    audit_path: &std::path::Path,
) -> (AppState, Arc<FaultyPulp>) {
    let pulp = Arc::new(FaultyPulp::new(memory.clone()));
    let production = HashMap::from([("fresh".to_owned(), "fresh-prod".to_owned())]);
    let state = AppState::builder(
        pulp.clone(),
        pulp.clone(),
        Arc::new(JsonlAuditSink::new(audit_path)),
        Arc::new(FixedClock(pinned_time())),
        Arc::new(FixedOperator::default()),
    )
    .production(production)
    .metrics(Arc::new(Metrics::new()))
    .build();
    (state, pulp)
}

/// The console over the fixture, served on a free port of 127.0.0.1.
pub async fn spawn_app() -> TestApp {
    let settings = web::EdgeSettings {
        shutdown_grace: std::time::Duration::from_secs(5),
        ..web::EdgeSettings::default()
    };
    let quick_tasks = std::time::Duration::from_millis(5);
    spawn_app_with(settings, std::future::pending(), quick_tasks)
        .await
        .0
}

/// [`spawn_app`] with these edge settings and upstream task duration, until `shutdown`;
/// the task ends when serving does.
pub async fn spawn_app_with(
    settings: web::EdgeSettings,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    task_delay: std::time::Duration,
) -> (TestApp, tokio::task::JoinHandle<std::io::Result<()>>) {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay,
        // A task that never ends is given up on quickly; one that runs has time to.
        task_timeout: std::time::Duration::from_secs(1) + task_delay * 4,
        ..Default::default()
    }));
    let fixture = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let audit_path = dir.path().join("logs/audit.jsonl");
    let (state, pulp) = test_state(&memory, &audit_path);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let served = tokio::spawn(web::serve_with(listener, state, shutdown, settings));
    let app = TestApp {
        address,
        pulp,
        memory,
        fixture,
        audit_path,
        _dir: dir,
    };
    (app, served)
}

impl TestApp {
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Reply {
        WebClient {
            address: self.address.clone(),
        }
        .send(method, path, headers, body)
        .await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.request("GET", path, &[], "").await
    }

    /// A deploy as the browser's htmx sends it, without the `live` field.
    pub async fn deploy(&self, id: &RepoId, version: &str, confirm: &str) -> Reply {
        self.post_deploy(
            id,
            format!("version={}&confirm={}", enc(version), enc(confirm)),
        )
        .await
    }

    /// A deploy that says what was live when its preview was shown.
    pub async fn deploy_seen(
        &self,
        id: &RepoId,
        version: &str,
        confirm: &str,
        live: &str,
    ) -> Reply {
        self.post_deploy(
            id,
            format!(
                "version={}&confirm={}&live={}",
                enc(version),
                enc(confirm),
                enc(live)
            ),
        )
        .await
    }

    /// A deploy form posted as htmx does, with the given urlencoded body.
    pub async fn post_form(&self, id: &RepoId, body: &str) -> Reply {
        self.post_deploy(id, body.to_owned()).await
    }

    async fn post_deploy(&self, id: &RepoId, body: String) -> Reply {
        let headers = [
            ("content-type", "application/x-www-form-urlencoded"),
            ("hx-request", "true"),
        ];
        self.request("POST", &format!("/repos/{id}/deploy"), &headers, &body)
            .await
    }

    pub fn audit_lines(&self) -> Vec<serde_json::Value> {
        match std::fs::read_to_string(&self.audit_path) {
            Ok(text) => text
                .lines()
                .map(|l| serde_json::from_str(l).expect("each audit line is JSON"))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The upstream calls that change something.
    pub fn mutations(&self) -> Vec<String> {
        self.memory
            .calls()
            .into_iter()
            .filter(|c| {
                c.starts_with("create_publication")
                    || c.starts_with("update_distribution")
                    || c.starts_with("sync ")
            })
            .collect()
    }

    pub fn production_version(&self, distribution: &str) -> Option<u64> {
        self.memory.serving_version(distribution).map(|n| n.get())
    }
}
