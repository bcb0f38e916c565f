//! Two console processes (the real binary) against the real Pulp, sharing one PostgreSQL
//! database: one deploy at a time per production distribution across replicas, one shared
//! audit history, the lock released when a replica is killed mid-deploy, and migrations
//! that a restart leaves as they are. Then two consoles in this process wired as replicas
//! (the audit, the deploy lock and the approval requests in that database, each its own
//! pool) approving one request at once (issue 24): one deploy.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::join_all;
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::ManualClock;
use repo_console::adapters::postgres::{connect, PgAuditSink, PgDeployLock, PgRequestStore};
use serde_json::{json, Value};

use super::console::{over_upstream, Console};
use super::console_process::ConsoleProcess;
use super::database::{required_database, TestDatabase};
use super::policy::{four_eyes, request_id};
use super::seeded::SeededProduction;
use super::support::{exclusive, required_pulp, TestPulp};
use super::web::{attr, select, WebClient};

const REPO: &str = "rc-verified";

/// A production distribution of our own for rc-verified, serving nothing at first; deleted
/// at the end whatever happens.
struct ScratchDistribution<'a> {
    pulp: &'a TestPulp,
    href: String,
    prn: String,
    name: String,
}

impl<'a> ScratchDistribution<'a> {
    fn create(pulp: &'a TestPulp, tag: &str) -> Self {
        let name = format!("rc-replicas-{tag}-{}", std::process::id());
        if let Some(old) = pulp.href_named("distributions/rpm/rpm/", &name) {
            pulp.raw_ok("DELETE", &old, None);
        }
        let body = json!({"name": name, "base_path": name});
        let created = pulp.raw_ok("POST", "distributions/rpm/rpm/", Some(&body));
        let href = created["created_resources"][0]
            .as_str()
            .expect("created")
            .to_owned();
        let prn = pulp.raw_ok("GET", &href, None)["prn"]
            .as_str()
            .expect("a prn")
            .to_owned();
        Self {
            pulp,
            href,
            prn,
            name,
        }
    }

    /// The distribution updates Pulp ran on it.
    fn updates(&self) -> u64 {
        let path = format!(
            "tasks/?reserved_resources={}&name=pulpcore.app.tasks.base.ageneral_update",
            super::web::enc(&self.prn)
        );
        self.pulp.raw_ok("GET", &path, None)["count"]
            .as_u64()
            .expect("a count")
    }

    fn serves(&self) -> Option<String> {
        self.pulp.raw_ok("GET", &self.href, None)["publication"]
            .as_str()
            .map(str::to_owned)
    }
}

impl Drop for ScratchDistribution<'_> {
    fn drop(&mut self) {
        self.pulp.raw("DELETE", &self.href, None);
    }
}

/// A replica: the binary on the real Pulp with the postgres sink and our production mapping.
fn replica(
    pulp: &TestPulp,
    db: &TestDatabase,
    dist: &str,
    home: &std::path::Path,
) -> ConsoleProcess {
    let config = home.join("console.toml");
    let text = format!("[pulp]\ntask_timeout_secs = 120\n[production]\n\"{REPO}\" = \"{dist}\"\n");
    std::fs::write(&config, text).unwrap();
    let env = [
        ("REPO_CONSOLE_PULP_URL", pulp.base_url.as_str()),
        ("REPO_CONSOLE_PULP_USERNAME", pulp.username.as_str()),
        ("REPO_CONSOLE_PULP_PASSWORD", pulp.password.as_str()),
        ("REPO_CONSOLE_AUDIT_SINK", "postgres"),
        ("REPO_CONSOLE_AUDIT_URL", db.url.as_str()),
    ];
    ConsoleProcess::start(&["--config", config.to_str().unwrap()], &env, home)
}

fn latest_version(pulp: &TestPulp) -> (String, u64) {
    let href = pulp
        .href_named("repositories/rpm/rpm/", REPO)
        .expect("seeded");
    let latest = pulp.raw_ok("GET", &href, None)["latest_version_href"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = href
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned();
    let number = latest
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (id, number)
}

async fn deploy(console: &WebClient, id: &str, version: u64, live: &str) -> u16 {
    let form = format!("version={version}&confirm={REPO}&live={live}");
    console
        .post(&format!("/repos/{id}/deploy"), &form)
        .await
        .status
}

/// Advisory locks held in this test's database now.
fn locks_held(db: &TestDatabase) -> u64 {
    db.query(
        "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database \
              WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()",
    )
    .parse()
    .unwrap()
}

#[tokio::test]
#[ignore = "needs a real Pulp and PostgreSQL"]
async fn twenty_concurrent_deploys_over_two_replicas_update_production_once() {
    let pulp = required_pulp();
    let db = required_database();
    let _repo = exclusive(REPO).await;
    let dist = ScratchDistribution::create(&pulp, "race");
    let (home_a, home_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = replica(&pulp, &db, &dist.name, home_a.path());
    let b = replica(&pulp, &db, &dist.name, home_b.path());
    let clients = [
        WebClient {
            address: a.address.clone(),
        },
        WebClient {
            address: b.address.clone(),
        },
    ];
    let (id, target) = latest_version(&pulp);

    let deploys = (0..20).map(|i| deploy(&clients[i % 2], &id, target, "none"));
    let began = Instant::now();
    let statuses = join_all(deploys).await;
    println!(
        "20 concurrent deploys over two replicas answered in {:?}",
        began.elapsed()
    );
    let deployed = statuses.iter().filter(|s| **s == 303).count();
    let refused = statuses.iter().filter(|s| **s == 409).count();
    assert_eq!((deployed, refused), (1, 19), "{statuses:?}");
    assert_eq!(dist.updates(), 1, "exactly one distribution update in Pulp");
    let (_, served) = pulp.publication_version(&dist.serves().expect("production serves"));
    assert_eq!(served, target);

    let rows = db.query("SELECT string_agg(outcome, ',' ORDER BY id) FROM deploy_audit");
    assert_eq!(
        rows, "started,deployed",
        "one shared history for both replicas"
    );
    assert_eq!(
        db.query("SELECT count(DISTINCT deploy_id) FROM deploy_audit"),
        "1"
    );
    assert_eq!(locks_held(&db), 0, "every turn was released");

    // Each replica's history page reads the shared audit table: the same console entry.
    let deploy_id = db.query("SELECT DISTINCT deploy_id FROM deploy_audit");
    for client in &clients {
        let history = client.get(&format!("/repos/{id}/history")).await;
        assert_eq!(history.status, 200);
        let html = history.html();
        let ids: Vec<&str> = select(&html, "[data-history-entry][data-deploy-id]")
            .iter()
            .map(|e| attr(e, "data-deploy-id"))
            .collect();
        assert_eq!(ids, [deploy_id.as_str()], "{}: {ids:?}", client.address);
    }

    // A restart on the same database: the migrations are already applied; nothing changes.
    drop(a);
    let again = replica(&pulp, &db, &dist.name, home_a.path());
    let migrations = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .count();
    let applied = db.query("SELECT count(*) FROM _sqlx_migrations");
    assert_eq!(applied, migrations.to_string());
    assert_eq!(db.query("SELECT count(*) FROM deploy_audit"), "2");
    let page = WebClient {
        address: again.address.clone(),
    }
    .get("/")
    .await;
    assert_eq!(page.status, 200);
}

#[tokio::test]
#[ignore = "needs a real Pulp and PostgreSQL"]
async fn a_replica_killed_mid_deploy_releases_the_lock() {
    let pulp = required_pulp();
    let db = required_database();
    let _repo = exclusive(REPO).await;
    let dist = ScratchDistribution::create(&pulp, "killed");
    let (home_a, home_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut a = replica(&pulp, &db, &dist.name, home_a.path());
    let b = replica(&pulp, &db, &dist.name, home_b.path());
    let (id, target) = latest_version(&pulp);

    let client_a = WebClient {
        address: a.address.clone(),
    };
    let id_a = id.clone();
    let in_flight = tokio::spawn(async move { deploy(&client_a, &id_a, target, "none").await });
    let deadline = Instant::now() + Duration::from_secs(30);
    while locks_held(&db) == 0 {
        assert!(Instant::now() < deadline, "replica A never took the lock");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    a.kill(); // SIGKILL mid-deploy: no unlock, no outcome line
    in_flight.abort();
    let deadline = Instant::now() + Duration::from_secs(10);
    while locks_held(&db) != 0 {
        assert!(
            Instant::now() < deadline,
            "the killed replica's lock was not released"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Replica B deploys what production needs now (A's update may or may not have landed).
    let live = match dist.serves() {
        Some(publication) => pulp.publication_version(&publication).1.to_string(),
        None => "none".to_owned(),
    };
    let client_b = WebClient {
        address: b.address.clone(),
    };
    let status = tokio::time::timeout(
        Duration::from_secs(120),
        deploy(&client_b, &id, target, &live),
    )
    .await
    .expect("replica B is not blocked by the dead replica");
    let served = dist.serves().map(|p| pulp.publication_version(&p).1);
    assert_eq!(
        served,
        Some(target),
        "production serves the target (status {status})"
    );
    let started = db.query("SELECT count(*) FROM deploy_audit WHERE outcome = 'started'");
    assert!(
        started == "1" || started == "2",
        "A's started line is kept: {started}"
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp and PostgreSQL"]
async fn readyz_answers_503_naming_the_audit_store_when_its_database_is_gone() {
    let pulp = required_pulp();
    let db = required_database();
    let home = tempfile::tempdir().unwrap();
    let console = replica(&pulp, &db, "rc-readyz-unused", home.path());
    let client = WebClient {
        address: console.address.clone(),
    };
    let ready = client.get("/readyz").await;
    assert_eq!(ready.status, 200, "{}", ready.body);

    db.drop_now();
    let down = client.get("/readyz").await;
    assert_eq!(down.status, 503, "{}", down.body);
    assert!(
        down.body.contains("audit store") && down.body.contains("postgres://"),
        "names the audit store and where it is: {}",
        down.body
    );
    assert!(
        !down.body.contains("Pulp:"),
        "Pulp still answers: {}",
        down.body
    );
    assert_eq!(
        client.get("/healthz").await.status,
        200,
        "the process lives"
    );
}

/// The repository the approval race deploys (seed.sh: v1..v3, rc-approvals-prod serving v1).
const APPROVALS: &str = "rc-approvals";

/// A console on the real Pulp wired as a replica of several (as `wiring/audit_sinks.rs` wires
/// the postgres sink): its audit, its deploy lock and its approval requests in `db`, on a
/// connection pool of its own; the operator and groups named by the trusted proxy; production
/// of rc-approvals needs one approval by group:release.
async fn approving_replica(pulp: &TestPulp, db: &TestDatabase, clock: Arc<ManualClock>) -> Console {
    let database = connect(&db.url, None)
        .await
        .expect("the test database, migrated");
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
        .with_groups("X-Remote-Groups");
    let production = HashMap::from([(APPROVALS.to_owned(), format!("{APPROVALS}-prod"))]);
    over_upstream(Arc::new(pulp.client()), 25)
        .configure(move |state| {
            state
                .production(production)
                .identity(Arc::new(identity))
                .policy(four_eyes())
                .clock(clock)
                .audit(Arc::new(PgAuditSink::new(database.clone())))
                .replica_lock(Arc::new(PgDeployLock::new(database.clone())))
                .requests(
                    Arc::new(PgRequestStore::new(database)),
                    chrono::Duration::hours(24),
                )
        })
        .spawn()
        .await
}

/// The request's `data-request-state` on a replica's /requests.
async fn request_state(console: &Console, id: &str) -> String {
    let page = console.send_as("GET", "/requests", "viewer", "", "").await;
    assert_eq!(page.status, 200, "{}", page.body);
    let html = page.html();
    let rows = select(&html, &format!("tr[data-request-id='{id}']"));
    assert_eq!(rows.len(), 1, "{}: {}", console.address, page.body);
    attr(&rows[0], "data-request-state").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a real Pulp and PostgreSQL"]
async fn two_replicas_approving_one_request_at_once_run_one_deploy() {
    let pulp = required_pulp();
    let db = required_database();
    let _repo = exclusive(APPROVALS).await;
    let began = Instant::now();
    let production = SeededProduction::at_v1(pulp, APPROVALS);
    let clock = Arc::new(ManualClock::new(
        chrono::DateTime::parse_from_rfc3339("2026-11-25T10:00:00Z")
            .unwrap()
            .into(),
    ));
    let a = approving_replica(&production.pulp, &db, clock.clone()).await;
    let b = approving_replica(&production.pulp, &db, clock).await;
    let before = production.state();
    assert_eq!(before.version, 1);

    // alice asks on replica A; replica B sees the request A recorded.
    let form = format!("version=3&env=production&confirm={APPROVALS}&live=1&reason=CVE-2026-2424");
    let deploy = format!("/repos/{}/deploy", production.id);
    let asked = a.send_as("POST", &deploy, "alice", "dev", &form).await;
    let id = request_id(&asked);
    assert_eq!(
        request_state(&b, &id).await,
        "pending",
        "B reads A's request"
    );

    // bob approves on A and dave on B, at the same instant.
    let approve = format!("/requests/{id}/approve");
    let confirm = format!("confirm={APPROVALS}");
    let at_once = Instant::now();
    let (bob, dave) = tokio::join!(
        a.send_as("POST", &approve, "bob", "release", &confirm),
        b.send_as("POST", &approve, "dave", "release", &confirm),
    );
    let race = at_once.elapsed();
    let mut statuses = [bob.status, dave.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [200, 409],
        "bob: {}\ndave: {}",
        bob.body,
        dave.body
    );
    let (winner, won, lost) = if bob.status == 200 {
        ("bob", &bob, &dave)
    } else {
        ("dave", &dave, &bob)
    };
    assert!(
        won.body
            .contains("Approved and deployed: production now serves v3"),
        "{}",
        won.body
    );
    // The other approval was refused by the request itself (closed by the first: its event
    // appended compare-and-swap), not by a second deploy that the deploy lock or Pulp's
    // re-read stopped: that is a deploy's answer (`data-answer`).
    let html = lost.html();
    let refused = select(&html, "[data-refused='409']");
    assert_eq!(refused.len(), 1, "the request refused it: {}", lost.body);
    assert!(
        lost.body.contains("can no longer be approved") || lost.body.contains("is stale"),
        "{}",
        lost.body
    );

    // Pulp: production moved once, to a new publication of v3.
    let after = production.state();
    assert_eq!(after.version, 3, "production serves v3");
    assert!(
        !production.seeded.contains(&after.publication),
        "a publication the deploy made: {}",
        after.publication
    );
    assert_eq!(
        after.publications,
        before.publications + 1,
        "one new publication of rc-approvals"
    );
    assert_eq!(
        after.updates,
        before.updates + 1,
        "one update of rc-approvals-prod"
    );

    // The shared audit: one deploy, started then deployed, alice's approved by the winner.
    assert_eq!(
        db.query("SELECT string_agg(outcome, ',' ORDER BY id) FROM deploy_audit"),
        "started,deployed"
    );
    assert_eq!(
        db.query("SELECT count(DISTINCT deploy_id) FROM deploy_audit"),
        "1"
    );
    let line: Value =
        serde_json::from_str(&db.query("SELECT line FROM deploy_audit WHERE outcome = 'deployed'"))
            .expect("the audit line is JSON");
    assert_eq!(line["operator"], "alice", "{line}");
    assert_eq!(line["request"]["request_id"], id.as_str());
    assert_eq!(line["request"]["approvers"], json!([winner]));
    assert_eq!(line["reason"], "CVE-2026-2424");
    assert_eq!(
        (
            line["previous_version"].as_u64(),
            line["target_version"].as_u64()
        ),
        (Some(1), Some(3))
    );
    assert_eq!(line["publication"], after.publication.as_str());
    let deploy_id = line["deploy_id"].as_str().expect("a deploy id");

    // The request: the winner's approval, then the deploy it ran; nothing of the loser's.
    let events = db.query(&format!(
        "SELECT string_agg((event::json->>'event') || coalesce(':' || (event::json->>'by'), '') \
         || coalesce(':' || (event::json->>'deploy_id'), ''), ',' ORDER BY seq) \
         FROM deploy_request_events WHERE request_id = '{id}'"
    ));
    assert_eq!(events, format!("approved:{winner},executed:{deploy_id}"));
    for replica in [&a, &b] {
        assert_eq!(
            request_state(replica, &id).await,
            "executed",
            "{}",
            replica.address
        );
    }
    assert_eq!(locks_held(&db), 0, "every turn was released");
    println!(
        "TIMING replicas (two approvals at once): {:.1} s, the approvals answered in {:.1} s",
        began.elapsed().as_secs_f64(),
        race.as_secs_f64()
    );
}
