//! The PostgreSQL outbox (issue 25) on a real PostgreSQL: the contract every outbox keeps,
//! and two replicas' delivery workers on one database sending each event once.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::metrics::Metrics;
use repo_console::adapters::postgres::{connect, PgOutbox};
use repo_console::adapters::webhook::{HttpWebhookSender, WebhookSecret};
use repo_console::app::events::delivery::{self, Deliverer, DeliverySettings};
use repo_console::app::Events;
use repo_console::domain::event::{EventKind, RetryPolicy, Subscription, WebhookUrl};
use repo_console::ports::{EventOutbox, Recorded};
use tokio::sync::oneshot;

use super::console_process::ConsoleProcess;
use super::database::{required_database, TestDatabase};
use super::outbox_contract::{event, outbox_contract};
use super::receiver::{Answer, Receiver};
use super::web::{deploy_on_the_demo, WebClient};

const SECRET: &[u8] = b"replicas' secret";

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_postgres_outbox_keeps_the_contract() {
    let database = required_database();
    let db = connect(&database.url, None).await.unwrap();
    let outbox = PgOutbox::new(db);
    assert!(outbox.target().starts_with("postgres://127.0.0.1:"));
    outbox_contract(&outbox).await;
    assert_eq!(
        database.query("SELECT state, attempts FROM webhook_deliveries WHERE event_id = 'e-1' ORDER BY webhook"),
        "delivered|1\ngiven_up|5",
        "the rows say how each delivery ended, and after how many attempts"
    );
}

/// One replica's outbox, on its own connection pool.
async fn replica_outbox(database: &TestDatabase) -> Arc<PgOutbox> {
    let db = connect(&database.url, None).await.unwrap();
    Arc::new(PgOutbox::new(db))
}

/// A replica's delivery worker, over its outbox.
struct Worker {
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

fn start_worker(outbox: Arc<PgOutbox>, receiver: &Receiver) -> Worker {
    let url = WebhookUrl::parse(&receiver.url).unwrap();
    let hook = Subscription {
        url: url.clone(),
        events: EventKind::ALL.into_iter().collect(),
    };
    let events = Events::new(outbox.clone(), vec![hook], Arc::new(SystemClock));
    let sender = HttpWebhookSender::new(
        [(url, WebhookSecret::new(SECRET))],
        "repo-console".into(),
        Duration::from_secs(5),
    );
    let deliverer = Deliverer {
        events,
        sender: Arc::new(sender),
        metrics: Arc::new(Metrics::new()),
        settings: DeliverySettings {
            retry: RetryPolicy {
                first: Duration::from_millis(50),
                ..RetryPolicy::default()
            },
            poll: Duration::from_millis(10),
            batch: 2,
            ..DeliverySettings::default()
        },
    };
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(delivery::work(deliverer, async move {
        let _ = stopped.await;
    }));
    Worker { stop, task }
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn two_replicas_send_each_event_once() {
    let database = required_database();
    let receiver = Receiver::start(Answer::RefuseFirst(0)).await;
    let (one, two) = (
        replica_outbox(&database).await,
        replica_outbox(&database).await,
    );
    let url = [WebhookUrl::parse(&receiver.url).unwrap()];
    const EVENTS: usize = 100;
    for n in 0..EVENTS {
        let task = format!("/pulp/api/v3/tasks/{n}/");
        let (first, second) = if n % 2 == 0 {
            (&one, &two)
        } else {
            (&two, &one)
        };
        let new = event(&format!("e-{n}"), &task);
        assert_eq!(first.record(&new, &url).await.unwrap(), Recorded::New);
        // The other replica sees the same fact: not recorded again.
        let seen = event(&format!("f-{n}"), &task);
        assert_eq!(second.record(&seen, &url).await.unwrap(), Recorded::Known);
    }
    // Both workers start on the same due deliveries, claiming a few at a time.
    let workers = [start_worker(one, &receiver), start_worker(two, &receiver)];
    let delivered =
        || database.query("SELECT count(*) FROM webhook_deliveries WHERE state = 'delivered'");
    let waited = tokio::time::timeout(Duration::from_secs(30), async {
        while delivered() != EVENTS.to_string() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    waited.await.expect("every event delivered");
    for worker in workers {
        let _ = worker.stop.send(());
        worker.task.await.unwrap();
    }
    let got = receiver.got();
    let ids: BTreeSet<String> = got
        .iter()
        .map(|r| r.json()["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), EVENTS, "every event");
    assert_eq!(got.len(), EVENTS, "each once");
    assert!(got.iter().all(|r| r.signed_with(SECRET)));
    assert_eq!(
        database.query("SELECT max(attempts) FROM webhook_deliveries"),
        "1",
        "no delivery claimed twice"
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_postgres_outbox_compacts_in_batches_and_keeps_each_fact() {
    let database = required_database();
    let db = connect(&database.url, None).await.unwrap();
    let outbox = PgOutbox::new(db);
    super::outbox_contract::compaction_contract(&outbox, true).await;
    assert_eq!(
        database.query("SELECT event_id, event = '' FROM webhook_outbox ORDER BY event_id"),
        "c-1|t\nc-2|f\nc-3|f",
        "c-1's row keeps its fact, not its body"
    );
    assert_eq!(
        database.query("SELECT count(*) FROM webhook_deliveries WHERE event_id = 'c-1'"),
        "0"
    );
}

/// Issue 34 on PostgreSQL: the real binary (demo upstream, audit and outbox in PostgreSQL) is
/// killed while its event's insert waits on a lock this test holds on the outbox table, after
/// the deploy's outcome row was written. Started again, it completes the outbox from the
/// audit table: the lost event is delivered, once.
#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn an_event_lost_between_the_audit_row_and_the_outbox_is_delivered_after_a_restart() {
    let database = required_database();
    let home = tempfile::tempdir().unwrap();
    let receiver = Receiver::start(Answer::RefuseFirst(0)).await;
    let secret = home.path().join("webhook.secret");
    std::fs::write(&secret, "completion-secret\n").unwrap();
    let config = home.path().join("console.toml");
    std::fs::write(
        &config,
        format!(
            "[audit]\nsink = \"postgres\"\nurl = \"{}\"\n\
             [[webhooks]]\nurl = \"{}\"\nevents = [\"deployment.finished\"]\nsecret_file = \"{}\"\n\
             [drift]\ninterval_secs = 0\n[demo]\ntask_delay_ms = 5\n",
            database.url,
            receiver.url,
            secret.display()
        ),
    )
    .unwrap();
    let args = ["--config", config.to_str().unwrap()];
    let outcomes = || {
        database.query("SELECT deploy_id FROM deploy_audit WHERE outcome <> 'started' ORDER BY id")
    };

    let mut first = ConsoleProcess::start(&args, &[], home.path());
    let client = WebClient {
        address: first.address.clone(),
    };
    deploy_on_the_demo(&client).await;
    receiver.until_got(1).await;
    let pool = sqlx::PgPool::connect(&database.url).await.unwrap();
    let mut held = pool.begin().await.unwrap();
    sqlx::query("LOCK TABLE webhook_outbox IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *held)
        .await
        .unwrap();
    deploy_on_the_demo(&client).await;
    assert_eq!(outcomes().lines().count(), 2, "both outcome rows written");
    first.kill();
    held.rollback().await.unwrap();
    assert_eq!(database.query("SELECT count(*) FROM webhook_outbox"), "1");

    let second = ConsoleProcess::start(&args, &[], home.path());
    let got = receiver.until_got(2).await;
    let lost = outcomes().lines().nth(1).unwrap().to_owned();
    assert_eq!(
        got[1].json()["data"]["deploy_id"].as_str(),
        Some(lost.as_str())
    );
    assert_eq!(database.query("SELECT count(*) FROM webhook_outbox"), "2");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(receiver.got().len(), 2, "told once");
    drop(second);
}
