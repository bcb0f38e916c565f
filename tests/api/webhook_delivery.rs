//! Issue 25, webhook delivery to a receiver on 127.0.0.1: each event is a CloudEvents 1.0
//! document, signed; refused attempts are retried with the same id until delivered; a
//! receiver that never answers holds no deploy and is retried after the delivery timeout;
//! a delivery failing until its deadline is given up, and counted.

use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::files::outbox::JsonlOutbox;
use repo_console::adapters::memory::{InMemoryPulp, MemoryOptions};
use repo_console::adapters::metrics::Metrics;
use repo_console::adapters::webhook::{HttpWebhookSender, WebhookSecret};
use repo_console::app::deploy::{deploy, DeployOutcome};
use repo_console::app::events::delivery::{self, Deliverer, DeliverySettings};
use repo_console::app::{AppState, Events};
use repo_console::domain::event::{EventKind, RetryPolicy, Subscription, WebhookUrl};
use repo_console::domain::identity::Operator;
use repo_console::ports::EventMetrics;
use tokio::sync::oneshot;

use crate::helpers::*;
use crate::receiver::{Answer, Receiver};

const SECRET: &[u8] = b"a shared secret";

/// The fixture's console sending every event to `receiver`, kept in a JSON Lines outbox,
/// its deliveries retried after 50 ms (doubling up to 200 ms) for `give_up_after`.
pub(crate) struct Sending {
    state: AppState,
    outbox: Arc<JsonlOutbox>,
    metrics: Arc<Metrics>,
    fx: Fixture,
    stop: Option<oneshot::Sender<()>>,
    worker: Option<tokio::task::JoinHandle<()>>,
    _dir: tempfile::TempDir,
}

pub(crate) async fn sending(
    receiver: &Receiver,
    timeout: Duration,
    give_up_after: Duration,
) -> Sending {
    sending_signed(receiver, WebhookSecret::new(SECRET), timeout, give_up_after).await
}

/// The same, signing with `secret`.
pub(crate) async fn sending_signed(
    receiver: &Receiver,
    secret: WebhookSecret,
    timeout: Duration,
    give_up_after: Duration,
) -> Sending {
    sending_signed_also_deprecated(receiver, secret, timeout, give_up_after, false).await
}

/// The same, also with the deprecated body-only header when `deprecated`.
pub(crate) async fn sending_signed_also_deprecated(
    receiver: &Receiver,
    secret: WebhookSecret,
    timeout: Duration,
    give_up_after: Duration,
    deprecated: bool,
) -> Sending {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay: Duration::ZERO,
        ..Default::default()
    }));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    let (state, _) = test_state(&memory, &audit);
    let outbox = Arc::new(JsonlOutbox::beside(&audit).unwrap());
    let url = WebhookUrl::parse(&receiver.url).unwrap();
    let hook = Subscription {
        url: url.clone(),
        events: EventKind::ALL.into_iter().collect(),
    };
    let events = Events::new(outbox.clone(), vec![hook], Arc::new(SystemClock));
    let sender = HttpWebhookSender::new([(url, secret)], "https://console.test".into(), timeout)
        .with_deprecated_signature(deprecated);
    let metrics = Arc::new(Metrics::new());
    let deliverer = Deliverer {
        events: events.clone(),
        sender: Arc::new(sender),
        metrics: metrics.clone(),
        settings: DeliverySettings {
            retry: RetryPolicy {
                first: Duration::from_millis(50),
                cap: Duration::from_millis(200),
                give_up_after,
            },
            poll: Duration::from_millis(20),
            ..DeliverySettings::default()
        },
    };
    let (stop, stopped) = oneshot::channel::<()>();
    let worker = tokio::spawn(delivery::work(deliverer, async move {
        let _ = stopped.await;
    }));
    Sending {
        state: state.rebuild().events(events).build(),
        outbox,
        metrics,
        fx,
        stop: Some(stop),
        worker: Some(worker),
        _dir: dir,
    }
}

impl Sending {
    pub(crate) async fn deploy_v4(&self) {
        let request = deploy_request(4, "base-os");
        let operator = Operator::placeholder();
        let deployed = deploy(&self.state, &self.fx.base_os, &request, &operator);
        let outcome = tokio::time::timeout(Duration::from_secs(10), deployed)
            .await
            .expect("the deploy ends whatever the receiver does");
        assert!(
            matches!(outcome, DeployOutcome::Deployed { .. }),
            "{outcome:?}"
        );
    }

    fn counted(&self, outcome: &str) -> u64 {
        let prefix = format!("repo_console_webhook_deliveries_total{{outcome=\"{outcome}\"}} ");
        let text = self.metrics.render();
        text.lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .map_or(0, |n| n.parse().unwrap())
    }

    /// Waits (10 s at most, then fails) until `outcome` was counted `n` times.
    async fn until_counted(&self, outcome: &str, n: u64) {
        let waited = tokio::time::timeout(Duration::from_secs(10), async {
            while self.counted(outcome) < n {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        });
        waited
            .await
            .unwrap_or_else(|_| panic!("{outcome} x{n}:\n{}", self.metrics.render()));
    }

    pub(crate) async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.worker.take().unwrap().await.unwrap();
    }

    /// An attempt is counted just before the outbox keeps how it ended: waits (2 s at most)
    /// until nothing is pending, so that a test reads the outbox after the count.
    async fn until_settled(&self) {
        let started = std::time::Instant::now();
        while self.outbox.pending() != 0 && started.elapsed() < Duration::from_secs(2) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    fn outbox_lines(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(self.outbox.path())
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

#[tokio::test]
async fn a_refused_event_is_sent_again_with_the_same_id_until_delivered() {
    let receiver = Receiver::start(Answer::RefuseFirst(2)).await;
    let s = sending(&receiver, Duration::from_secs(5), Duration::from_secs(60)).await;
    s.deploy_v4().await;
    let got = receiver.until_got(3).await;
    s.until_counted("delivered", 1).await;
    assert_eq!((s.counted("retried"), s.counted("delivered")), (2, 1));
    let first = got[0].json();
    assert_eq!(first["specversion"], "1.0");
    assert_eq!(first["type"], "io.repo-console.deployment.finished");
    assert_eq!(first["source"], "https://console.test");
    assert_eq!(first["datacontenttype"], "application/json");
    assert_eq!(first["data"]["repository"]["name"], "base-os");
    assert_eq!(first["data"]["to_version"], 4);
    assert_eq!(first["data"]["outcome"], "deployed");
    for attempt in &got {
        assert_eq!(attempt.body, got[0].body, "the same document, the same id");
        assert_eq!(attempt.content_type, "application/cloudevents+json");
        assert!(attempt.signed_with(SECRET), "{}", attempt.signature);
        assert!(!attempt.signed_with(b"another secret"));
    }
    s.until_settled().await;
    assert_eq!(s.outbox.pending(), 0);
    let results: Vec<String> = s
        .outbox_lines()
        .iter()
        .map(|l| format!("{} {}", l["line"], l["result"]))
        .collect();
    assert_eq!(
        results,
        [
            "\"event\" null",
            "\"attempt\" \"retry\"",
            "\"attempt\" \"retry\"",
            "\"attempt\" \"delivered\""
        ]
    );
    assert_eq!(receiver.got().len(), 3, "nothing sent after the delivery");
    s.stop().await;
}

#[tokio::test]
async fn a_receiver_that_never_answers_holds_no_deploy_and_is_tried_again() {
    let receiver = Receiver::start(Answer::Never).await;
    let s = sending(
        &receiver,
        Duration::from_millis(300),
        Duration::from_secs(60),
    )
    .await;
    s.deploy_v4().await;
    receiver.until_got(2).await;
    s.until_counted("retried", 1).await;
    assert_eq!(s.counted("delivered"), 0);
    assert_eq!(s.outbox.pending(), 1, "still to deliver");
    s.stop().await;
}

#[tokio::test]
async fn a_delivery_failing_until_its_deadline_is_given_up_and_counted() {
    let receiver = Receiver::start(Answer::AlwaysFail).await;
    let s = sending(
        &receiver,
        Duration::from_secs(5),
        Duration::from_millis(300),
    )
    .await;
    s.deploy_v4().await;
    s.until_counted("given_up", 1).await;
    assert!(receiver.got().len() >= 2, "tried more than once first");
    s.until_settled().await;
    assert_eq!(s.outbox.pending(), 0, "no more attempts");
    let last = s.outbox_lines().pop().unwrap();
    assert_eq!(last["result"], "given_up");
    assert!(last["error"].as_str().unwrap().contains("500"), "{last}");
    s.stop().await;
}
