//! Issue 48 against real Pulps: the central one and an edge Pulp (scripts/pulp/edge.sh: a
//! second pulpcore with its own database, media and ports, whose upstream-pulp selects the
//! central distributions labelled `repo-console-edge=production`). A deploy of `rcedge-base`
//! reaches the edge through Pulp's replication: the edge serves the same `repomd.xml` as the
//! central Pulp, and dnf pointed at the edge sees the deployed packages. With the edge
//! stopped, a deploy still moves production and the console says the edge is unreachable
//! (nothing claimed); started again, the edge is caught up by the console by itself.
//!
//! Which edge: `RC_TEST_PULP_EDGE_URL`, `RC_TEST_PULP_EDGE_CONTENT_URL`,
//! `RC_TEST_PULP_EDGE_UPSTREAM` (default `central`) and `RC_TEST_PULP_EDGE_HOME` (where
//! scripts/pulp/stop.sh and start.sh find it), or else `target/pulp-edge/edge.env`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::pulp::{PulpEdge, PulpEdges, PulpSettings, Secret};
use repo_console::app::deploy::{deploy, DeployOutcome};
use repo_console::app::edges::view::{rows, tally};
use repo_console::app::edges::{EdgeFollow, Edges, FollowedEdge};
use repo_console::app::AppState;
use repo_console::domain::deploy::{DeployRequest, Intent, SeenLive};
use repo_console::domain::edge::{EdgeBackoff, EdgeName, EdgeStateKind};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::VersionNumber;
use repo_console::wiring::default_pulp_settings;
use serde_json::json;

use super::console::over_upstream;
use super::seeded::SeededProduction;
use super::support::{exclusive, required_pulp};
use crate::host_tools::required;
use crate::needs::missing;

const REPO: &str = "rcedge-base";
const PROD: &str = "rcedge-base-prod";
const LABEL: (&str, &str) = ("repo-console-edge", "production");

/// The edge Pulp of the tests.
struct TestEdge {
    base_url: String,
    content_url: String,
    upstream: String,
    home: PathBuf,
}

fn edge_env_value(key: &str) -> Option<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/target/pulp-edge/edge.env");
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| {
        let rest = line
            .trim()
            .trim_start_matches("export ")
            .strip_prefix(key)?;
        Some(rest.strip_prefix('=')?.to_owned())
    })
}

fn value(variable: &str, env_key: &str) -> Option<String> {
    std::env::var(variable)
        .ok()
        .filter(|v| !v.is_empty())
        .or_else(|| edge_env_value(env_key))
}

fn required_edge() -> TestEdge {
    let found = (|| {
        Some(TestEdge {
            base_url: value("RC_TEST_PULP_EDGE_URL", "PULP_EDGE_BASE_URL")?,
            content_url: value("RC_TEST_PULP_EDGE_CONTENT_URL", "PULP_EDGE_CONTENT_URL")?,
            upstream: value("RC_TEST_PULP_EDGE_UPSTREAM", "PULP_EDGE_UPSTREAM")
                .unwrap_or_else(|| "central".into()),
            home: PathBuf::from(value("RC_TEST_PULP_EDGE_HOME", "PULP_EDGE_HOME")?),
        })
    })();
    found.unwrap_or_else(|| {
        missing(
            "an edge Pulp",
            "none configured: set RC_TEST_PULP_EDGE_URL, _CONTENT_URL and _HOME, or run \
             scripts/pulp/edge.sh to write target/pulp-edge/edge.env",
        )
    })
}

fn port_of(url: &str) -> String {
    url.rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_owned()
}

impl TestEdge {
    fn script(&self, name: &str) -> Command {
        let mut command = Command::new(format!(
            "{}/scripts/pulp/{name}",
            env!("CARGO_MANIFEST_DIR")
        ));
        command
            .env("PULP_HOME", &self.home)
            .env("PULP_WORKERS", "1")
            .env("PULP_API_PORT", port_of(&self.base_url))
            .env("PULP_CONTENT_PORT", port_of(&self.content_url));
        command
    }

    /// Stops the edge (every process of it, its database too) until the answer is started
    /// again, or dropped (a test that fails half-way leaves the edge running).
    fn stop(&self) -> StoppedEdge<'_> {
        let out = self.script("stop.sh").output().expect("stop.sh runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        StoppedEdge {
            edge: self,
            started: false,
        }
    }

    fn settings(&self) -> PulpSettings {
        let pulp = required_pulp();
        PulpSettings {
            username: pulp.username.clone(),
            password: Secret::new(pulp.password.clone()),
            request_timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(5),
            ..default_pulp_settings(&self.base_url).expect("the edge's URL is valid")
        }
    }
}

/// An edge stopped by the test.
struct StoppedEdge<'a> {
    edge: &'a TestEdge,
    started: bool,
}

impl StoppedEdge<'_> {
    /// Starts it again on the same ports.
    fn start(mut self) {
        self.started = true;
        let out = self
            .edge
            .script("start.sh")
            .output()
            .expect("start.sh runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for StoppedEdge<'_> {
    fn drop(&mut self) {
        if !self.started {
            let _ = self.edge.script("start.sh").output();
        }
    }
}

fn dc1() -> EdgeName {
    EdgeName::parse("dc1").unwrap()
}

/// The console over the central Pulp, following the edge as `dc1`.
fn console(edge: &TestEdge) -> AppState {
    console_of(edge, REPO, PROD).build().state
}

/// The console's builder over the central Pulp, production serving `repo` at `distribution`,
/// following the edge as `dc1`.
fn console_of(
    edge: &TestEdge,
    repo: &str,
    distribution: &str,
) -> crate::test_app::TestAppBuilder<()> {
    let pulp = required_pulp();
    let replicator = PulpEdges::new(
        PulpSettings {
            request_timeout: Duration::from_secs(10),
            ..pulp.settings()
        },
        vec![PulpEdge {
            name: dc1(),
            api: edge.settings(),
            upstream: edge.upstream.clone(),
            content_origin: edge.content_url.clone(),
        }],
    )
    .expect("the edge's settings are valid");
    let follow = EdgeFollow {
        replication_timeout: Duration::from_secs(300),
        backoff: EdgeBackoff {
            first: Duration::from_secs(1),
            cap: Duration::from_secs(5),
        },
        behind_alert: Duration::from_secs(600),
        poll: Duration::from_millis(500),
    };
    let followed = vec![FollowedEdge {
        name: dc1(),
        environments: vec![EnvironmentName::production()],
    }];
    let edges = Edges::new(
        Arc::new(replicator),
        followed,
        follow,
        Arc::new(repo_console::adapters::memory::MemoryEdgeStates::default()),
    );
    over_upstream(Arc::new(pulp.client()), 25)
        .production(HashMap::from([(repo.to_owned(), distribution.to_owned())]))
        .configure(move |state| state.edges(edges))
}

async fn deploy_version(state: &AppState, seeded: &SeededProduction, n: u64) -> DeployOutcome {
    let request = DeployRequest {
        target: VersionNumber::new(n),
        environment: EnvironmentName::production(),
        confirm: REPO.into(),
        seen_live: SeenLive::NotSent,
        intent: Intent::Deploy(None),
        override_freeze: false,
    };
    deploy(state, &seeded.id, &request, &Operator::placeholder()).await
}

async fn shown(state: &AppState) -> Option<EdgeStateKind> {
    rows(&state.edge_world())
        .await
        .into_iter()
        .next()?
        .cells
        .into_iter()
        .find(|c| c.distribution == PROD)?
        .state
        .map(|s| s.kind())
}

/// Waits (a bounded number of looks, nothing timed is asserted) until the edge shows `kind`.
async fn until_shown(state: &AppState, kind: EdgeStateKind) {
    for _ in 0..600 {
        if shown(state).await == Some(kind) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let rows = rows(&state.edge_world()).await;
    panic!("the edge never showed {kind:?}: {rows:#?}");
}

fn fetch(url: &str) -> Vec<u8> {
    let out = Command::new("curl")
        .args(["-fsS", url])
        .output()
        .expect("curl runs");
    assert!(
        out.status.success(),
        "GET {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The packages dnf sees at `base_url` (name-version), in directories of its own.
fn dnf_sees(base_url: &str) -> String {
    let dnf = required("dnf", "dnf");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (root, repos, cache) = (
        dir.path().join("root"),
        dir.path().join("repos.d"),
        dir.path().join("cache"),
    );
    for d in [&root, &repos, &cache] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    let repo_file =
        format!("[rcedge]\nname=rcedge\nbaseurl={base_url}\ngpgcheck=0\nrepo_gpgcheck=0\n");
    std::fs::write(repos.join("rcedge.repo"), &repo_file).expect("write .repo");
    let out = Command::new(dnf)
        .arg("-y")
        .arg(format!("--installroot={}", root.display()))
        .arg(format!("--setopt=reposdir={}", repos.display()))
        .arg(format!("--setopt=cachedir={}", cache.display()))
        .args([
            "--setopt=skip_if_unavailable=False",
            "--releasever=9",
            "--disablerepo=*",
        ])
        .args([
            "--enablerepo=rcedge",
            "repoquery",
            "--queryformat",
            "%{name}-%{version}\n",
        ])
        .output()
        .expect("dnf runs");
    assert!(
        out.status.success(),
        "dnf: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a real Pulp and an edge Pulp"]
async fn a_deploy_reaches_the_edge_and_a_stopped_edge_catches_up_by_itself() {
    let _guard = exclusive(REPO).await;
    let pulp = required_pulp();
    let edge = required_edge();
    let seeded = SeededProduction::at_v1(pulp.clone(), REPO);
    // The edge's upstream-pulp copies the central distributions labelled for production.
    pulp.raw_ok(
        "PATCH",
        &seeded.dist,
        Some(&json!({ "pulp_labels": { LABEL.0: LABEL.1 } })),
    );
    let state = console(&edge);

    // A deploy reaches the edge: the same repomd.xml, and dnf sees what was deployed.
    assert!(matches!(
        deploy_version(&state, &seeded, 2).await,
        DeployOutcome::Deployed { .. }
    ));
    until_shown(&state, EdgeStateKind::Serving).await;
    let central = fetch(&format!(
        "{}/pulp/content/{PROD}/repodata/repomd.xml",
        content_of_central(&pulp)
    ));
    let at_edge = fetch(&format!(
        "{}/pulp/content/{PROD}/repodata/repomd.xml",
        edge.content_url
    ));
    assert_eq!(
        central, at_edge,
        "the edge serves the central metadata, byte for byte"
    );
    let seen = dnf_sees(&format!("{}/pulp/content/{PROD}/", edge.content_url));
    assert!(
        seen.contains("hello-1.0") && seen.contains("world-2.0"),
        "{seen}"
    );
    let row = rows(&state.edge_world()).await.remove(0);
    let task = row.last.expect("the replication's task is shown").task;
    assert!(
        task.as_str().starts_with("/pulp/api/v3/task-groups/"),
        "{task:?}"
    );

    // The edge stopped during a deploy: production still moves, nothing is claimed.
    let stopped = edge.stop();
    let outcome = deploy_version(&state, &seeded, 3).await;
    let stopped_state = shown(&state).await;
    assert!(
        matches!(outcome, DeployOutcome::Deployed { .. }),
        "{outcome:?}"
    );
    assert_eq!(seeded.state().version, 3, "production moved");
    until_shown(&state, EdgeStateKind::Unreachable).await;
    assert_ne!(stopped_state, Some(EdgeStateKind::Serving));
    assert_eq!(
        tally(&state.edge_world(), PROD).await.unwrap().to_string(),
        "edges: 0 of 1 serve it"
    );

    // Started again, it is caught up by the console's retries alone.
    stopped.start();
    until_shown(&state, EdgeStateKind::Serving).await;
    let central = fetch(&format!(
        "{}/pulp/content/{PROD}/repodata/repomd.xml",
        content_of_central(&pulp)
    ));
    let at_edge = fetch(&format!(
        "{}/pulp/content/{PROD}/repodata/repomd.xml",
        edge.content_url
    ));
    assert_eq!(central, at_edge);
    let seen = dnf_sees(&format!("{}/pulp/content/{PROD}/", edge.content_url));
    assert!(
        seen.contains("hello-1.1") && !seen.contains("hello-1.0"),
        "{seen}"
    );
}

/// The central Pulp's content origin, as Pulp gives it in a distribution's base_url.
fn content_of_central(pulp: &super::support::TestPulp) -> String {
    content_of(pulp, PROD)
}

/// The central Pulp's content origin, read from `distribution`'s base_url.
fn content_of(pulp: &super::support::TestPulp, distribution: &str) -> String {
    let found = pulp.raw_ok(
        "GET",
        &format!("distributions/rpm/rpm/?name={distribution}&fields=base_url"),
        None,
    );
    let base_url = found["results"][0]["base_url"]
        .as_str()
        .expect("a base_url");
    base_url
        .trim_end_matches('/')
        .trim_end_matches(distribution)
        .trim_end_matches('/')
        .trim_end_matches("/pulp/content")
        .to_owned()
}

/// This test's own repository (prefix `rcedge2-`), so that it runs beside the one above.
const REPO2: &str = "rcedge2-base";
const PROD2: &str = "rcedge2-base-prod";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a real Pulp and an edge Pulp"]
async fn the_deploy_s_answer_names_the_edge_serving_once_it_serves_the_central_metadata() {
    let _guard = exclusive(REPO2).await;
    let pulp = required_pulp();
    let edge = required_edge();
    let seeded = SeededProduction::at_v1(pulp.clone(), REPO2);
    pulp.raw_ok(
        "PATCH",
        &seeded.dist,
        Some(&json!({ "pulp_labels": { LABEL.0: LABEL.1 } })),
    );
    let app = console_of(&edge, REPO2, PROD2).spawn().await;
    let line_url = format!("/edges/line?env=production&distribution={PROD2}");
    // Each deploy's answer says the edge does not serve it yet (whatever an earlier run left
    // on the edge, it serves another version then); what it asks again says when it does.
    for version in ["2", "3"] {
        let answer = app.deploy(&seeded.id, version, REPO2).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_eq!(
            seeded.state().version.to_string(),
            version,
            "production moved"
        );
        assert!(
            answer.body.contains(&format!("data-edge-line=\"{PROD2}\"")),
            "{}",
            answer.body
        );
        assert!(
            answer
                .body
                .contains("production: moved; edges: 0 of 1 serve it"),
            "right after the move the edge does not serve it yet: {}",
            answer.body
        );
        assert!(answer.body.contains("hx-trigger=\"every 2s\""));
        let mut line = app.get(&line_url).await;
        for _ in 0..600 {
            if line.body.contains("edges: 1 of 1 serve it") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
            line = app.get(&line_url).await;
        }
        assert!(
            line.body
                .contains("production: moved; edges: 1 of 1 serve it"),
            "{}",
            line.body
        );
        assert!(line
            .body
            .contains("data-edge=\"dc1\" data-edge-state=\"serving\""));
        assert!(
            !line.body.contains("hx-get"),
            "still once every edge serves it"
        );
    }
    // Said serving: the edge serves the central metadata byte for byte.
    let central = fetch(&format!(
        "{}/pulp/content/{PROD2}/repodata/repomd.xml",
        content_of(&pulp, PROD2)
    ));
    let at_edge = fetch(&format!(
        "{}/pulp/content/{PROD2}/repodata/repomd.xml",
        edge.content_url
    ));
    assert_eq!(central, at_edge);
    let versions = app.get(&format!("/repos/{}/versions", seeded.id)).await;
    assert!(
        versions
            .body
            .contains("production: moved; edges: 1 of 1 serve it"),
        "{}",
        versions.body
    );
}
