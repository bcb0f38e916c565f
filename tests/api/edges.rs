//! Edges (issue 48) over the in-memory Pulp and in-memory edge Pulps: after a deploy the
//! console asks each edge to replicate and follows it; each state an edge can be in; an
//! edge that does not answer holds nothing and catches up by itself; two replicas of the
//! console trigger one replication per edge.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::files::edge_states::JsonlEdgeStates;
use repo_console::adapters::memory::{
    InMemoryEdges, InMemoryPulp, ManualClock, MemoryEdgeStates, MemoryOptions, MemoryOutbox,
};
use repo_console::app::edges::view::{rows, tally};
use repo_console::app::edges::{reconcile, replicate_again, EdgeFollow, Edges, FollowedEdge};
use repo_console::app::events::Events;
use repo_console::app::AppState;
use repo_console::domain::edge::{EdgeBackoff, EdgeName, EdgeStateKind, MetadataDigest};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::event::{EventData, EventKind, Subscription, WebhookUrl};
use repo_console::domain::repository::{DistributionHref, VersionNumber};
use repo_console::ports::{DeployLock, DeployTurn, EdgeStateStore, LockError};

use crate::helpers::*;

const PROD: &str = "base-os-prod";

fn name(text: &str) -> EdgeName {
    EdgeName::parse(text).unwrap()
}

fn follow() -> EdgeFollow {
    EdgeFollow {
        replication_timeout: Duration::from_secs(30),
        backoff: EdgeBackoff {
            first: Duration::from_millis(10),
            cap: Duration::from_millis(40),
        },
        behind_alert: Duration::from_secs(600),
        poll: Duration::from_millis(5),
    }
}

struct Setup {
    memory: Arc<InMemoryPulp>,
    fx: Fixture,
    edges: InMemoryEdges,
    names: Vec<EdgeName>,
    audit_path: std::path::PathBuf,
    /// The edge state store the consoles of a setup share (as replicas share the database).
    store: Arc<dyn EdgeStateStore>,
    _dir: tempfile::TempDir,
}

fn setup(names: &[&str]) -> Setup {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay: Duration::ZERO,
        ..Default::default()
    }));
    let fx = fixture(&memory);
    let names: Vec<EdgeName> = names.iter().map(|n| name(n)).collect();
    let edges = InMemoryEdges::new(memory.clone(), &names);
    let dir = tempfile::tempdir().unwrap();
    let audit_path = dir.path().join("audit.jsonl");
    Setup {
        memory,
        fx,
        edges,
        names,
        audit_path,
        store: Arc::new(MemoryEdgeStates::default()),
        _dir: dir,
    }
}

/// The console over the setup, following its edges (every one copying production), their
/// state kept in the setup's store.
fn console(s: &Setup, lock: Option<Arc<dyn DeployLock>>) -> AppState {
    console_kept_in(s, lock, s.store.clone())
}

/// The console over the setup, their state kept in `store`.
fn console_kept_in(
    s: &Setup,
    lock: Option<Arc<dyn DeployLock>>,
    store: Arc<dyn EdgeStateStore>,
) -> AppState {
    let (state, _) = test_state(&s.memory, &s.audit_path);
    let followed = s
        .names
        .iter()
        .map(|n| FollowedEdge {
            name: n.clone(),
            environments: vec![EnvironmentName::production()],
        })
        .collect();
    let edges = Edges::new(Arc::new(s.edges.clone()), followed, follow(), store);
    let builder = state.rebuild().edges(edges);
    match lock {
        Some(lock) => builder.replica_lock(lock).build(),
        None => builder.build(),
    }
}

/// The state of `edge` for production's distribution, as the console shows it now.
async fn shown(state: &AppState, edge: &str) -> Option<EdgeStateKind> {
    rows(&state.edge_world())
        .await
        .into_iter()
        .find(|row| row.name.as_str() == edge)?
        .cells
        .into_iter()
        .find(|cell| cell.distribution == PROD)?
        .state
        .map(|s| s.kind())
}

/// Waits until `edge` shows `kind` (a bounded number of looks; no time is asserted).
async fn until_shown(state: &AppState, edge: &str, kind: EdgeStateKind) {
    for _ in 0..3000 {
        if shown(state, edge).await == Some(kind) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!(
        "{edge} never showed {kind:?}: it shows {:?}",
        shown(state, edge).await
    );
}

/// Waits until no follow-up runs.
async fn settled(state: &AppState) {
    let edges = state.edges().unwrap();
    for _ in 0..3000 {
        if edges.following() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the edges' follow-ups never ended");
}

#[tokio::test]
async fn a_deploy_reaches_every_edge_and_each_serves_the_central_metadata() {
    let s = setup(&["dc1", "dc2"]);
    let state = console(&s, None);
    assert_deployed(&deploy_v4(&state, &s.fx.base_os).await);
    settled(&state).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Serving));
    assert_eq!(shown(&state, "dc2").await, Some(EdgeStateKind::Serving));
    assert_eq!(s.edges.replications(&name("dc1")), 1);
    assert_eq!(s.edges.replications(&name("dc2")), 1);
    let tally = tally(&state.edge_world(), PROD).await.unwrap();
    assert_eq!(tally.to_string(), "edges: 2 of 2 serve it");
}

#[tokio::test]
async fn an_edge_stopped_during_a_deploy_holds_nothing_and_catches_up_by_itself() {
    let s = setup(&["dc1", "dc2"]);
    s.edges.set_reachable(&name("dc2"), false);
    let state = console(&s, None);
    let outcome = deploy_v4(&state, &s.fx.base_os).await;
    assert_deployed(&outcome);
    assert_eq!(s.memory.serving_version(PROD), Some(VersionNumber::new(4)));
    until_shown(&state, "dc1", EdgeStateKind::Serving).await;
    until_shown(&state, "dc2", EdgeStateKind::Unreachable).await;
    let tally = tally(&state.edge_world(), PROD).await.unwrap();
    assert_eq!(tally.to_string(), "edges: 1 of 2 serve it", "never claimed");
    let row = rows(&state.edge_world())
        .await
        .into_iter()
        .find(|r| r.name.as_str() == "dc2")
        .unwrap();
    let cell = row.cells.iter().find(|c| c.distribution == PROD).unwrap();
    let error = cell.state.as_ref().unwrap().error().unwrap().to_owned();
    assert!(error.contains("connection refused"), "{error}");
    assert!(row.following, "retried with back-off");
    until_retry_shown(&state, "dc2").await;
    s.edges.set_reachable(&name("dc2"), true);
    settled(&state).await;
    assert_eq!(shown(&state, "dc2").await, Some(EdgeStateKind::Serving));
    let caught_up = rows(&state.edge_world()).await;
    assert!(
        caught_up.iter().all(|r| r.next_retry.is_none()),
        "caught up: no retry"
    );
}

/// Waits until when `edge` is tried again is shown (a bounded number of looks).
async fn until_retry_shown(state: &AppState, edge: &str) {
    for _ in 0..3000 {
        let retry = rows(&state.edge_world())
            .await
            .into_iter()
            .find(|r| r.name.as_str() == edge)
            .and_then(|r| r.next_retry);
        if retry.is_some() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("when {edge} is tried again was never shown");
}

/// A console that stopped while an edge did not answer (its follow-up ends with its runtime,
/// as with a process): a new one over the same kept states starts the follow-up again at its
/// first drift check, and the edge catches up without a promotion or a click.
#[test]
fn a_follow_up_cut_off_by_a_restart_starts_again_at_the_next_drift_check() {
    let s = setup(&["dc1"]);
    let kept = || -> Arc<dyn EdgeStateStore> { Arc::new(JsonlEdgeStates::beside(&s.audit_path)) };
    let runtime = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    };
    s.edges.set_reachable(&name("dc1"), false);
    runtime().block_on(async {
        let before = console_kept_in(&s, None, kept());
        assert_deployed(&deploy_v4(&before, &s.fx.base_os).await);
        until_retry_shown(&before, "dc1").await;
    });
    s.edges.set_reachable(&name("dc1"), true);
    runtime().block_on(async {
        let after = console_kept_in(&s, None, kept());
        assert_eq!(
            after.edges().unwrap().following(),
            0,
            "nothing runs before the check"
        );
        assert_ne!(shown(&after, "dc1").await, Some(EdgeStateKind::Serving));
        reconcile(&after.edge_world()).await;
        settled(&after).await;
        assert_eq!(shown(&after, "dc1").await, Some(EdgeStateKind::Serving));
        let rows = rows(&after.edge_world()).await;
        assert!(
            rows.iter().all(|r| r.next_retry.is_none()),
            "caught up: no retry"
        );
    });
}

#[tokio::test]
async fn a_failed_replication_shows_the_edge_s_words_and_is_tried_again() {
    let s = setup(&["dc1"]);
    s.edges
        .fail_replications(&name("dc1"), Some("the upstream-pulp refused: 403"));
    let state = console(&s, None);
    assert_deployed(&deploy_v4(&state, &s.fx.base_os).await);
    until_shown(&state, "dc1", EdgeStateKind::Failed).await;
    let row = rows(&state.edge_world()).await.remove(0);
    let error = row.cells[0]
        .state
        .as_ref()
        .unwrap()
        .error()
        .unwrap()
        .to_owned();
    assert_eq!(error, "the upstream-pulp refused: 403");
    assert!(row.last.is_some(), "the last replication's task is shown");
    s.edges.fail_replications(&name("dc1"), None);
    settled(&state).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Serving));
    assert!(s.edges.replications(&name("dc1")) >= 2);
}

#[tokio::test]
async fn a_running_replication_is_replicating_until_it_ends() {
    let s = setup(&["dc1"]);
    s.edges.hold_replications(&name("dc1"), true);
    let state = console(&s, None);
    assert_deployed(&deploy_v4(&state, &s.fx.base_os).await);
    until_shown(&state, "dc1", EdgeStateKind::Replicating).await;
    s.edges.hold_replications(&name("dc1"), false);
    settled(&state).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Serving));
}

#[tokio::test]
async fn an_edge_without_the_distribution_is_missing_until_replicated() {
    let s = setup(&["dc1"]);
    let state = console(&s, None);
    reconcile(&state.edge_world()).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Missing));
    assert!(replicate_again(&state.edge_world(), &name("dc1")));
    settled(&state).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Serving));
    assert!(
        !replicate_again(&state.edge_world(), &name("nowhere")),
        "an unknown edge is refused"
    );
}

#[tokio::test]
async fn an_edge_serving_what_production_served_before_is_behind_and_other_metadata_is_drift() {
    let s = setup(&["dc1"]);
    let state = console(&s, None);
    reconcile(&state.edge_world()).await;
    assert!(replicate_again(&state.edge_world(), &name("dc1")));
    settled(&state).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Serving));
    // Production moves outside the console: the drift reconciler sees the edge behind.
    let v4 = s.memory.publish(&s.fx.base_os, VersionNumber::new(4));
    s.memory.point_distribution(PROD, &v4);
    reconcile(&state.edge_world()).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Behind));
    // The edge serves metadata production never served: drift.
    let foreign = MetadataDigest::parse(&"f".repeat(64)).unwrap();
    s.edges.serve(&name("dc1"), PROD, foreign);
    reconcile(&state.edge_world()).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Other));
}

#[tokio::test]
async fn after_a_restart_an_edge_serving_what_production_served_before_is_still_behind() {
    let s = setup(&["dc1"]);
    let kept = || -> Arc<dyn EdgeStateStore> { Arc::new(JsonlEdgeStates::beside(&s.audit_path)) };
    let before = console_kept_in(&s, None, kept());
    reconcile(&before.edge_world()).await;
    assert!(replicate_again(&before.edge_world(), &name("dc1")));
    settled(&before).await;
    assert_eq!(shown(&before, "dc1").await, Some(EdgeStateKind::Serving));
    let v4 = s.memory.publish(&s.fx.base_os, VersionNumber::new(4));
    s.memory.point_distribution(PROD, &v4);
    reconcile(&before.edge_world()).await;
    assert_eq!(shown(&before, "dc1").await, Some(EdgeStateKind::Behind));
    let since = rows(&before.edge_world()).await[0].cells[0].state.clone();
    // A new process over the same file: the digest production served before is known.
    let after = console_kept_in(&s, None, kept());
    assert_eq!(
        shown(&after, "dc1").await,
        Some(EdgeStateKind::Behind),
        "the kept state is shown before any read"
    );
    reconcile(&after.edge_world()).await;
    assert_eq!(shown(&after, "dc1").await, Some(EdgeStateKind::Behind));
    assert_eq!(
        rows(&after.edge_world()).await[0].cells[0].state,
        since,
        "behind since the same moment"
    );
    // Without the kept states, the same edge would read as drift.
    let forgetful = console_kept_in(&s, None, Arc::new(MemoryEdgeStates::default()));
    reconcile(&forgetful.edge_world()).await;
    assert_eq!(shown(&forgetful, "dc1").await, Some(EdgeStateKind::Other));
}

/// A lock shared by two consoles, as PostgreSQL's advisory lock is: one holder per key.
#[derive(Default)]
struct SharedLock(Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>);

#[async_trait]
impl DeployLock for SharedLock {
    async fn acquire(&self, key: &DistributionHref) -> Result<DeployTurn, LockError> {
        let mutex = self
            .0
            .lock()
            .unwrap()
            .entry(key.as_str().to_owned())
            .or_default()
            .clone();
        Ok(DeployTurn::new(mutex.lock_owned().await))
    }
}

#[tokio::test]
async fn two_replicas_trigger_one_replication_per_edge() {
    let s = setup(&["dc1", "dc2"]);
    let lock: Arc<dyn DeployLock> = Arc::new(SharedLock::default());
    let first = console(&s, Some(lock.clone()));
    let second = console(&s, Some(lock));
    reconcile(&second.edge_world()).await;
    s.edges.hold_replications(&name("dc1"), true);
    assert_deployed(&deploy_v4(&first, &s.fx.base_os).await);
    // The second replica is asked too while the first one's replication runs.
    until_shown(&first, "dc1", EdgeStateKind::Replicating).await;
    assert!(replicate_again(&second.edge_world(), &name("dc1")));
    assert!(replicate_again(&second.edge_world(), &name("dc2")));
    s.edges.hold_replications(&name("dc1"), false);
    settled(&first).await;
    settled(&second).await;
    assert_eq!(
        s.edges.replications(&name("dc1")),
        1,
        "one replication, not two"
    );
    assert_eq!(
        s.edges.replications(&name("dc2")),
        1,
        "one replication, not two"
    );
    assert_eq!(shown(&second, "dc1").await, Some(EdgeStateKind::Serving));
}

/// The console served with the fixture and two edges, production deployable by alice only.
async fn spawn_with_edges() -> (crate::test_app::TestApp<Fixture>, InMemoryEdges) {
    use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
    use repo_console::domain::policy::{Allowed, Policy, Subject};
    use std::collections::BTreeMap;
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay: Duration::ZERO,
        ..Default::default()
    }));
    let names = [name("dc1"), name("dc2")];
    let in_memory = InMemoryEdges::new(memory.clone(), &names);
    let followed = names
        .iter()
        .map(|n| FollowedEdge {
            name: n.clone(),
            environments: vec![EnvironmentName::production()],
        })
        .collect();
    let edges = Edges::new(
        Arc::new(in_memory.clone()),
        followed,
        follow(),
        Arc::new(MemoryEdgeStates::default()),
    );
    let policy = Policy::new(
        BTreeMap::from([(
            EnvironmentName::production(),
            Allowed::Only(vec![Subject::parse("user:alice").unwrap()]),
        )]),
        Allowed::Everyone,
    );
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
        .with_groups("X-Remote-Groups");
    let app = crate::test_app::TestApp::builder()
        .memory(memory)
        .world(fixture)
        .identity(Arc::new(identity))
        .policy(policy)
        .configure(move |state| state.edges(edges))
        .spawn()
        .await;
    (app, in_memory)
}

#[tokio::test]
async fn the_edges_page_and_the_api_show_each_edge_s_state_with_its_hooks() {
    let (app, in_memory) = spawn_with_edges().await;
    in_memory.set_reachable(&name("dc2"), false);
    reconcile(&app.state.edge_world()).await;
    assert!(replicate_again(&app.state.edge_world(), &name("dc1")));
    until_shown(&app.state, "dc1", EdgeStateKind::Serving).await;
    until_shown(&app.state, "dc2", EdgeStateKind::Unreachable).await;
    let page = app.send_as("GET", "/edges", "bob", "", "").await;
    assert_eq!(page.status, 200);
    let cell =
        |edge: &str| format!("data-edge=\"{edge}\" data-distribution=\"{PROD}\" data-edge-state=");
    assert!(
        page.body.contains(&format!("{}\"serving\"", cell("dc1"))),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains(&format!("{}\"unreachable\"", cell("dc2"))),
        "{}",
        page.body
    );
    let api = app.get("/api/v1/edges").await;
    assert_eq!(api.status, 200);
    let json: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    assert_eq!(json["items"][0]["name"], "dc1");
    let dc2 = &json["items"][1]["distributions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["distribution"] == PROD)
        .unwrap()
        .clone();
    assert_eq!(dc2["state"], "unreachable");
    assert!(dc2["error"]
        .as_str()
        .unwrap()
        .contains("connection refused"));
}

#[tokio::test]
async fn replicate_again_is_refused_to_whoever_may_not_deploy_there_and_for_an_unknown_edge() {
    let (app, in_memory) = spawn_with_edges().await;
    reconcile(&app.state.edge_world()).await;
    let before = in_memory.replications(&name("dc1"));
    let refused = app
        .send_as("POST", "/edges/dc1/replicate", "mallory", "", "")
        .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let unknown = app
        .send_as("POST", "/edges/nowhere/replicate", "alice", "", "")
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.body);
    let hostile = app
        .send_as("POST", "/edges/%3Cscript%3E/replicate", "alice", "", "")
        .await;
    assert_eq!(hostile.status, 404);
    assert!(!hostile.body.contains("<script>"), "{}", hostile.body);
    settled(&app.state).await;
    assert_eq!(
        in_memory.replications(&name("dc1")),
        before,
        "nothing was asked"
    );
    let asked = app
        .send_as("POST", "/edges/dc1/replicate", "alice", "", "")
        .await;
    assert!(matches!(asked.status, 200 | 303), "{}", asked.status);
    settled(&app.state).await;
    assert_eq!(in_memory.replications(&name("dc1")), before + 1);
}

#[tokio::test]
async fn right_after_production_moves_no_edge_is_said_to_serve_it() {
    let s = setup(&["dc1"]);
    let state = console(&s, None);
    assert_deployed(&deploy_v4(&state, &s.fx.base_os).await);
    settled(&state).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Serving));
    s.edges.set_reachable(&name("dc1"), false);
    let request = deploy_request(3, "base-os");
    let operator = repo_console::domain::identity::Operator::placeholder();
    let outcome =
        repo_console::app::deploy::deploy(&state, &s.fx.base_os, &request, &operator).await;
    assert_deployed(&outcome);
    assert_ne!(
        shown(&state, "dc1").await,
        Some(EdgeStateKind::Serving),
        "never claimed"
    );
    assert_eq!(
        tally(&state.edge_world(), PROD).await.unwrap().to_string(),
        "edges: 0 of 1 serve it"
    );
}

/// `state` with a webhook wanting every event, recorded in the outbox answered.
fn with_webhook(state: &AppState) -> (AppState, Arc<MemoryOutbox>) {
    let outbox = Arc::new(MemoryOutbox::default());
    let hook = Subscription {
        url: WebhookUrl::parse("http://127.0.0.1:9/hook").unwrap(),
        events: EventKind::ALL.iter().copied().collect(),
    };
    let events = Events::new(outbox.clone(), vec![hook], Arc::new(SystemClock));
    (state.rebuild().events(events).build(), outbox)
}

/// The `edge.*` events recorded, as (kind, edge, state).
fn edge_events(outbox: &MemoryOutbox) -> Vec<(EventKind, String, String)> {
    outbox
        .events()
        .into_iter()
        .filter_map(|event| match event.data {
            EventData::EdgeBehind(e) => Some((EventKind::EdgeBehind, e.edge, e.state)),
            EventData::EdgeFailed(e) => Some((EventKind::EdgeFailed, e.edge, e.state)),
            EventData::EdgeDrift(e) => Some((EventKind::EdgeDrift, e.edge, e.state)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_failed_replication_is_told_once_however_often_it_is_tried_and_again_after_it_recovered()
{
    let s = setup(&["dc1"]);
    s.edges
        .fail_replications(&name("dc1"), Some("the upstream-pulp refused: 403"));
    let (state, outbox) = with_webhook(&console(&s, None));
    assert_deployed(&deploy_v4(&state, &s.fx.base_os).await);
    until_shown(&state, "dc1", EdgeStateKind::Failed).await;
    for _ in 0..3000 {
        if s.edges.replications(&name("dc1")) >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(s.edges.replications(&name("dc1")) >= 3, "tried again");
    let failed = (EventKind::EdgeFailed, "dc1".to_owned(), "failed".to_owned());
    assert_eq!(edge_events(&outbox), vec![failed.clone()], "told once");
    let EventData::EdgeFailed(data) = &outbox.events()[1].data else {
        panic!("{:?}", outbox.events());
    };
    assert_eq!(
        data.error.as_deref(),
        Some("the upstream-pulp refused: 403")
    );
    assert_eq!(data.distribution, PROD);
    s.edges.fail_replications(&name("dc1"), None);
    settled(&state).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Serving));
    // Fails again after it served: another change, another event.
    s.edges
        .fail_replications(&name("dc1"), Some("the upstream-pulp refused: 500"));
    let v3 = s.memory.publish(&s.fx.base_os, VersionNumber::new(3));
    s.memory.point_distribution(PROD, &v3);
    assert!(replicate_again(&state.edge_world(), &name("dc1")));
    until_shown(&state, "dc1", EdgeStateKind::Failed).await;
    assert_eq!(edge_events(&outbox), vec![failed.clone(), failed]);
    s.edges.fail_replications(&name("dc1"), None);
    settled(&state).await;
}

#[tokio::test]
async fn drift_on_an_edge_is_told_once_by_one_of_two_replicas() {
    let s = setup(&["dc1"]);
    let (first, first_outbox) = with_webhook(&console(&s, None));
    let (second, second_outbox) = with_webhook(&console(&s, None));
    reconcile(&first.edge_world()).await;
    assert!(replicate_again(&first.edge_world(), &name("dc1")));
    settled(&first).await;
    let foreign = MetadataDigest::parse(&"f".repeat(64)).unwrap();
    s.edges.serve(&name("dc1"), PROD, foreign);
    let (one, two) = (first.edge_world(), second.edge_world());
    for _ in 0..3 {
        futures::join!(reconcile(&one), reconcile(&two));
    }
    assert_eq!(shown(&second, "dc1").await, Some(EdgeStateKind::Other));
    let mut told = edge_events(&first_outbox);
    told.extend(edge_events(&second_outbox));
    assert_eq!(
        told,
        vec![(EventKind::EdgeDrift, "dc1".to_owned(), "other".to_owned())],
        "one change, one event, whichever replica saw it"
    );
}

#[tokio::test]
async fn an_edge_behind_past_the_threshold_is_told_once_and_not_before() {
    let s = setup(&["dc1"]);
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let state = console(&s, None).rebuild().clock(clock.clone()).build();
    let (state, outbox) = with_webhook(&state);
    reconcile(&state.edge_world()).await;
    assert!(replicate_again(&state.edge_world(), &name("dc1")));
    settled(&state).await;
    // Production moves outside the console: the edge is behind from now on.
    let v4 = s.memory.publish(&s.fx.base_os, VersionNumber::new(4));
    s.memory.point_distribution(PROD, &v4);
    reconcile(&state.edge_world()).await;
    assert_eq!(shown(&state, "dc1").await, Some(EdgeStateKind::Behind));
    clock.advance(chrono::Duration::seconds(599));
    reconcile(&state.edge_world()).await;
    assert_eq!(edge_events(&outbox), vec![], "not past behind_alert yet");
    clock.advance(chrono::Duration::seconds(2));
    reconcile(&state.edge_world()).await;
    reconcile(&state.edge_world()).await;
    assert_eq!(
        edge_events(&outbox),
        vec![(EventKind::EdgeBehind, "dc1".to_owned(), "behind".to_owned())]
    );
    let EventData::EdgeBehind(data) = &outbox.events()[0].data else {
        panic!("{:?}", outbox.events());
    };
    assert_eq!(data.lag_secs, 601);
    assert_ne!(
        data.edge_digest.as_deref(),
        Some(data.central_digest.as_str())
    );
}

/// The value of the attribute `name` on the first element that carries `hook`.
fn attribute(body: &str, hook: &str, name: &str) -> Option<String> {
    let from = body.find(hook)?;
    let element = &body[body[..from].rfind('<')?..];
    let element = &element[..element.find('>')?];
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(element[start..start + element[start..].find('"')?].to_owned())
}

#[tokio::test]
async fn the_deploy_s_answer_and_the_versions_page_say_how_many_edges_serve_it_until_every_one_does(
) {
    let (app, in_memory) = spawn_with_edges().await;
    in_memory.set_reachable(&name("dc2"), false);
    let id = app.fixture.base_os.clone();
    let answer = app
        .send_as(
            "POST",
            &format!("/repos/{id}/deploy"),
            "alice",
            "",
            "version=4&confirm=base-os",
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(
        app.memory.serving_version(PROD),
        Some(VersionNumber::new(4))
    );
    let hook = format!("data-edge-line=\"{PROD}\"");
    assert_eq!(
        attribute(&answer.body, &hook, "data-edges").as_deref(),
        Some("2")
    );
    let serving: usize = attribute(&answer.body, &hook, "data-edges-serving")
        .unwrap()
        .parse()
        .unwrap();
    assert!(serving <= 1, "dc2 does not answer: never claimed");
    assert!(
        answer
            .body
            .contains("hx-get=\"/edges/line?env=production&amp;distribution=base-os-prod\""),
        "it asks again: {}",
        answer.body
    );
    until_shown(&app.state, "dc1", EdgeStateKind::Serving).await;
    until_shown(&app.state, "dc2", EdgeStateKind::Unreachable).await;
    let line_url = format!("/edges/line?env=production&distribution={PROD}");
    let line = app.get(&line_url).await;
    assert_eq!(line.status, 200);
    assert!(
        line.body
            .contains("production: moved; edges: 1 of 2 serve it"),
        "{}",
        line.body
    );
    assert!(line
        .body
        .contains("data-edge=\"dc2\" data-edge-state=\"unreachable\""));
    assert!(line.body.contains("hx-trigger=\"every 2s\""));
    let page = app.get(&format!("/repos/{id}/versions")).await;
    assert!(
        page.body
            .contains("production: moved; edges: 1 of 2 serve it"),
        "{}",
        page.body
    );
    in_memory.set_reachable(&name("dc2"), true);
    until_shown(&app.state, "dc2", EdgeStateKind::Serving).await;
    let line = app.get(&line_url).await;
    assert!(line
        .body
        .contains("production: moved; edges: 2 of 2 serve it"));
    assert!(
        !line.body.contains("hx-get"),
        "still once every edge serves it"
    );
    let unknown = app.get("/edges/line?env=nowhere&distribution=x").await;
    assert_eq!(unknown.status, 400);
    let hostile = app
        .get("/edges/line?env=production&distribution=%3Cscript%3E")
        .await;
    assert_eq!(hostile.status, 200);
    assert!(!hostile.body.contains("<script>"), "{}", hostile.body);
}

#[tokio::test]
async fn the_api_s_deployment_names_each_edge_s_state_and_never_claims_one_that_does_not_serve_it()
{
    let (app, in_memory) = spawn_with_edges().await;
    in_memory.set_reachable(&name("dc2"), false);
    let alice = repo_console::domain::identity::Operator::new("alice").unwrap();
    let outcome = repo_console::app::deploy::deploy(
        &app.state,
        &app.fixture.base_os,
        &deploy_request(4, "base-os"),
        &alice,
    )
    .await;
    let repo_console::app::deploy::DeployOutcome::Deployed { deploy_id, .. } = &outcome else {
        panic!("{outcome:?}");
    };
    until_shown(&app.state, "dc1", EdgeStateKind::Serving).await;
    until_shown(&app.state, "dc2", EdgeStateKind::Unreachable).await;
    let path = format!("/api/v1/deployments/{}", deploy_id.as_str());
    let read = app.get(&path).await;
    assert_eq!(read.status, 200, "{}", read.body);
    let json: serde_json::Value = serde_json::from_str(&read.body).unwrap();
    let edges = &json["edges"];
    assert_eq!(edges["summary"], "edges: 1 of 2 serve it");
    assert_eq!(edges["serving"], 1);
    assert_eq!(edges["states"][0]["edge"], "dc1");
    assert_eq!(edges["states"][0]["state"], "serving");
    assert_eq!(edges["states"][1]["state"], "unreachable");
    assert!(edges["states"][1]["error"]
        .as_str()
        .unwrap()
        .contains("connection refused"));
    assert!(edges["states"][1]["lag_seconds"].as_i64().unwrap() >= 0);
    in_memory.set_reachable(&name("dc2"), true);
    until_shown(&app.state, "dc2", EdgeStateKind::Serving).await;
    let json: serde_json::Value = serde_json::from_str(&app.get(&path).await.body).unwrap();
    assert_eq!(json["edges"]["summary"], "edges: 2 of 2 serve it");
}

#[tokio::test]
async fn readyz_names_each_edge_and_an_edge_down_never_makes_the_console_unready() {
    let (app, in_memory) = spawn_with_edges().await;
    in_memory.set_reachable(&name("dc2"), false);
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status, 200, "{}", ready.body);
    let mut lines = ready.body.lines();
    assert_eq!(lines.next(), Some("ready"), "{}", ready.body);
    let edges = lines.next().unwrap();
    assert!(
        edges.starts_with("edges: dc1 answers; dc2 does not answer ("),
        "{edges}"
    );
    assert!(edges.contains("connection refused"), "{edges}");
    // Asked again at once: the last round is shown, the edges are not asked again.
    in_memory.set_reachable(&name("dc2"), true);
    assert_eq!(app.get("/readyz").await.body, ready.body, "kept a while");
}
