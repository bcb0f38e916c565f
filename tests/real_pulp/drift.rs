//! The drift reconciler against the real Pulp (issue 25), as two replicas sharing one
//! PostgreSQL database (audit lines and outbox): rc-envs' staging is deployed through the
//! console, then changed with Pulp's API behind its back; each replica's background check
//! sets `repo_console_drift{repository="rc-envs",environment="staging"}` to 1 (the other
//! environments 0), and `drift.detected` is recorded once for both.

use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::metrics::Metrics;
use repo_console::adapters::postgres::{connect, PgAuditSink, PgDeployLock, PgOutbox};
use repo_console::app::deploy::{deploy, DeployOutcome};
use repo_console::app::{events::reconcile, AppState, Events};
use repo_console::domain::deploy::{DeployRequest, Intent, SeenLive};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::event::{EventKind, Subscription, WebhookUrl};
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::VersionNumber;
use repo_console::ports::EventMetrics;
use serde_json::json;
use tokio::sync::oneshot;

use super::console::over_upstream;
use super::database::{required_database, TestDatabase};
use super::environments::{environment_path, REPO};
use super::support::{exclusive, required_pulp, TestPulp};

/// A replica over the real Pulp and the shared database, recording drift.detected.
async fn replica(pulp: &TestPulp, database: &TestDatabase) -> AppState {
    let db = connect(&database.url, None).await.unwrap();
    let client = Arc::new(pulp.client());
    let hook = Subscription {
        url: WebhookUrl::parse("http://127.0.0.1:9/hook").unwrap(),
        events: [EventKind::DriftDetected].into_iter().collect(),
    };
    let outbox = Arc::new(PgOutbox::new(db.clone()));
    let events = Events::new(outbox, vec![hook], Arc::new(SystemClock));
    let audit = Arc::new(PgAuditSink::new(db.clone()));
    over_upstream(client, 25)
        .environments(environment_path())
        .configure(move |state| {
            state
                .audit(audit)
                .replica_lock(Arc::new(PgDeployLock::new(db)))
                .events(events)
        })
        .build()
        .state
}

/// rc-envs' distributions in path order, and the publications of v1..v3.
fn distributions_and_publications(pulp: &TestPulp) -> (Vec<String>, Vec<String>) {
    let repo = pulp
        .href_named("repositories/rpm/rpm/", REPO)
        .expect("seeded: run scripts/pulp/seed.sh");
    let dists = ["testing", "staging", "prod"]
        .iter()
        .map(|suffix| {
            let name = format!("{REPO}-{suffix}");
            pulp.href_named("distributions/rpm/rpm/", &name)
                .unwrap_or_else(|| panic!("no distribution {name}: run scripts/pulp/seed.sh"))
        })
        .collect();
    let publications = (1..=3).map(|n| pulp.publication_of(&repo, n)).collect();
    (dists, publications)
}

fn point(pulp: &TestPulp, dist: &str, publication: &str) {
    pulp.raw_ok("PATCH", dist, Some(&json!({ "publication": publication })));
}

/// Each replica's background check, with metrics of its own, until stopped.
fn reconciling(state: &AppState) -> (Arc<Metrics>, oneshot::Sender<()>) {
    let metrics = Arc::new(Metrics::new());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(reconcile::work(
        state.rebuild().metrics(metrics.clone()).build(),
        Duration::from_millis(200),
        async move {
            let _ = stopped.await;
        },
    ));
    (metrics, stop)
}

fn gauge(metrics: &Metrics, environment: &str) -> Option<String> {
    let prefix =
        format!("repo_console_drift{{repository=\"{REPO}\",environment=\"{environment}\"}} ");
    let text = metrics.render();
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix).map(str::to_owned))
}

#[tokio::test]
#[ignore = "needs a real Pulp and PostgreSQL"]
async fn a_drift_made_in_pulp_is_found_with_the_metric_and_told_once_by_two_replicas() {
    let pulp = required_pulp();
    let database = required_database();
    let _guard = exclusive(REPO).await;
    let (dists, publications) = distributions_and_publications(&pulp);
    for dist in &dists {
        point(&pulp, dist, &publications[0]);
    }
    let replicas = [
        replica(&pulp, &database).await,
        replica(&pulp, &database).await,
    ];
    let id = pulp.repo_id(REPO);
    let staging = EnvironmentName::parse("staging").unwrap();
    let request = DeployRequest {
        target: VersionNumber::new(2),
        environment: staging,
        confirm: REPO.into(),
        seen_live: SeenLive::NotSent,
        intent: Intent::Deploy(None),
        override_freeze: false,
    };
    let outcome = deploy(&replicas[0], &id, &request, &Operator::placeholder()).await;
    assert!(
        matches!(outcome, DeployOutcome::Deployed { .. }),
        "{outcome:?}"
    );

    let watching: Vec<_> = replicas.iter().map(reconciling).collect();
    for (metrics, _) in &watching {
        until("staging matches", || {
            gauge(metrics, "staging").as_deref() == Some("0")
        })
        .await;
    }
    // Staging changed with Pulp's API, behind the console's back.
    point(&pulp, &dists[1], &publications[2]);
    for (metrics, _) in &watching {
        until("staging drifts", || {
            gauge(metrics, "staging").as_deref() == Some("1")
        })
        .await;
        assert_eq!(gauge(metrics, "testing").as_deref(), Some("0"));
        assert_eq!(gauge(metrics, "production").as_deref(), Some("0"));
    }
    let told = database.query(
        "SELECT count(*) FROM webhook_outbox WHERE kind = 'drift.detected' \
         AND event LIKE '%\"distribution\":\"rc-envs-staging\"%'",
    );
    assert_eq!(told, "1", "once, for both replicas and every check");
    let event: serde_json::Value = serde_json::from_str(
        &database.query("SELECT event FROM webhook_outbox WHERE kind = 'drift.detected'"),
    )
    .unwrap();
    assert_eq!(
        (&event["data"]["from_version"], &event["data"]["to_version"]),
        (&json!(2), &json!(3))
    );
    for (_, stop) in watching {
        let _ = stop.send(());
    }
    for dist in &dists {
        point(&pulp, dist, &publications[0]);
    }
}

/// Waits (60 s at most, then fails) until `done` holds.
async fn until(what: &str, done: impl Fn() -> bool) {
    let waited = tokio::time::timeout(Duration::from_secs(60), async {
        while !done() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
    waited.await.unwrap_or_else(|_| panic!("never: {what}"));
}
