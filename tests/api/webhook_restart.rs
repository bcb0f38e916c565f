//! Issue 25: an event survives a restart of the console. The real binary on the demo
//! upstream deploys while its webhook's receiver is down; the attempt fails and the console
//! is killed (SIGKILL); the receiver comes up; the console started again delivers the event
//! from its file outbox, with the id it was recorded with, signed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::web::deploy_on_the_demo;

use crate::console_process::ConsoleProcess;
use crate::helpers::*;
use crate::receiver::{Answer, Receiver};

const SECRET: &str = "restart-secret";

/// A port nothing listens on (yet).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A console of the demo in `home` with one webhook to 127.0.0.1:`port` wanting
/// `deployment.finished` (signed with [`SECRET`]), its audit and outbox files, and `extra`
/// configuration.
struct Setup {
    config: PathBuf,
    audit: PathBuf,
    outbox: PathBuf,
}

impl Setup {
    fn in_dir(home: &Path, port: u16, extra: &str) -> Self {
        let secret = home.join("webhook.secret");
        std::fs::write(&secret, format!("{SECRET}\n")).unwrap();
        let config = home.join("console.toml");
        let hook = format!(
            "[[webhooks]]\nurl = \"http://127.0.0.1:{port}/hook\"\n\
             events = [\"deployment.finished\"]\nsecret_file = \"{}\"\n\
             [drift]\ninterval_secs = 0\n[demo]\ntask_delay_ms = 5\n{extra}",
            secret.display()
        );
        std::fs::write(&config, hook).unwrap();
        Self {
            config,
            audit: home.join("logs/audit.jsonl"),
            outbox: home.join("logs/webhooks-outbox.jsonl"),
        }
    }

    fn args(&self) -> [&str; 4] {
        [
            "--config",
            self.config.to_str().unwrap(),
            "--audit-path",
            self.audit.to_str().unwrap(),
        ]
    }
}

/// Waits (20 s at most, then fails) until `done` holds.
async fn until(what: &str, done: impl Fn() -> bool) {
    let waited = tokio::time::timeout(Duration::from_secs(20), async {
        while !done() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    waited.await.unwrap_or_else(|_| panic!("never: {what}"));
}

fn outbox_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn an_event_recorded_while_the_receiver_is_down_is_delivered_after_a_restart() {
    let home = tempfile::tempdir().unwrap();
    let port = free_port();
    let setup = Setup::in_dir(
        home.path(),
        port,
        "[webhook_delivery]\nretry_first_secs = 1\nretry_max_secs = 1\n",
    );
    let outbox = &setup.outbox;
    let args = setup.args();

    let mut first = ConsoleProcess::start(&args, &[], home.path());
    let client = WebClient {
        address: first.address.clone(),
    };
    deploy_on_the_demo(&client).await;
    until("a failed attempt", || {
        outbox_lines(outbox).iter().any(|l| l["result"] == "retry")
    })
    .await;
    first.kill();
    let lines = outbox_lines(outbox);
    assert_eq!(lines[0]["line"], "event", "{lines:?}");
    let id = lines[0]["event"]["id"].as_str().unwrap().to_owned();
    assert!(
        first.log_lines().iter().all(|l| !l.contains(SECRET)),
        "the secret is never logged"
    );

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    let receiver = Receiver::on(listener, Answer::RefuseFirst(0));
    let second = ConsoleProcess::start(&args, &[], home.path());
    let got = receiver.until_got(1).await;
    let event = got[0].json();
    assert_eq!(event["id"], id.as_str(), "the id it was recorded with");
    assert_eq!(event["type"], "io.repo-console.deployment.finished");
    assert_eq!(event["source"], "repo-console");
    assert!(got[0].signed_with(SECRET.as_bytes()));
    until("the delivery kept in the outbox", || {
        outbox_lines(outbox)
            .iter()
            .any(|l| l["result"] == "delivered")
    })
    .await;
    assert_eq!(receiver.got().len(), 1, "delivered once");
    drop(second);
}

/// Issue 34: the console is killed between a deploy's outcome line and its event (the outbox
/// write is held: its file is a FIFO nobody reads, so opening it blocks). Started again, the
/// console completes the outbox from the audit log: the lost event is delivered, once, and
/// the one delivered before is not sent again.
#[tokio::test]
async fn an_event_lost_between_the_audit_line_and_the_outbox_is_delivered_after_a_restart() {
    let home = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let receiver = Receiver::on(listener, Answer::RefuseFirst(0));
    let setup = Setup::in_dir(home.path(), port, "");
    let (audit, outbox) = (&setup.audit, &setup.outbox);
    let args = setup.args();
    let outcomes = || -> Vec<String> {
        std::fs::read_to_string(audit)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|l| l["outcome"] != "started")
            .map(|l| l["deploy_id"].as_str().unwrap().to_owned())
            .collect()
    };

    let mut first = ConsoleProcess::start(&args, &[], home.path());
    let client = WebClient {
        address: first.address.clone(),
    };
    deploy_on_the_demo(&client).await;
    receiver.until_got(1).await;
    until("the first delivery kept", || {
        outbox_lines(outbox)
            .iter()
            .any(|l| l["result"] == "delivered")
    })
    .await;
    // Hold the outbox's next write: its file becomes a FIFO with no reader.
    let kept = home.path().join("outbox.kept");
    std::fs::rename(outbox, &kept).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(outbox)
        .status()
        .unwrap();
    assert!(fifo.success());
    deploy_on_the_demo(&client).await;
    until("the second outcome line", || outcomes().len() == 2).await;
    first.kill();
    std::fs::remove_file(outbox).unwrap();
    std::fs::rename(&kept, outbox).unwrap();
    let events = || {
        outbox_lines(outbox)
            .into_iter()
            .filter(|l| l["line"] == "event")
            .count()
    };
    assert_eq!(events(), 1, "the second event never reached the outbox");

    let second = ConsoleProcess::start(&args, &[], home.path());
    let got = receiver.until_got(2).await;
    let told = got[1].json();
    assert_eq!(
        told["data"]["deploy_id"].as_str(),
        Some(outcomes()[1].as_str()),
        "the lost deploy's event: {told}"
    );
    assert!(got[1].signed_with(SECRET.as_bytes()));
    // Delivery is at least once: a console stopped before it kept "delivered" sends again.
    until("both deliveries kept", || {
        outbox_lines(outbox)
            .iter()
            .filter(|l| l["result"] == "delivered")
            .count()
            == 2
    })
    .await;
    drop(second);
    let third = ConsoleProcess::start(&args, &[], home.path());
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(receiver.got().len(), 2, "each event told once");
    assert_eq!(events(), 2);
    drop(third);
}
