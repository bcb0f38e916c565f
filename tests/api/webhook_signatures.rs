//! Issue 33, attack 6: deliveries signed as the Standard Webhooks specification says, checked
//! by a receiver that uses the `standardwebhooks` package from PyPI (the version pinned in
//! tests/api/standardwebhooks.version, installed by scripts/test.sh into a cached virtualenv
//! named by RC_TEST_STANDARDWEBHOOKS_PYTHON) with its 5-minute tolerance: every attempt
//! verifies with either secret of a rotation, under the same `webhook-id` (the CloudEvent
//! id); a captured delivery re-posted a day later, a changed body or a fresh timestamp on an
//! old signature do not. The receiver test is `#[ignore = "needs the standardwebhooks package"]`:
//! asked to run without the package, it fails.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use base64::Engine;
use hmac::{Hmac, Mac};
use repo_console::adapters::webhook::WebhookSecret;
use sha2::Sha256;

use crate::receiver::{Answer, Received, Receiver};
use crate::webhook_delivery::sending_signed_also_deprecated;

/// The new key of the rotation (its `whsec_` line) and the old one (a raw line).
const NEW_KEY: &[u8] = b"the new key, 32 bytes long......";
const OLD_SECRET: &str = "the old raw secret";

fn whsec() -> String {
    format!(
        "whsec_{}",
        base64::engine::general_purpose::STANDARD.encode(NEW_KEY)
    )
}

/// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with `key`.
fn standard_signature(key: &[u8], got: &Received) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
    mac.update(format!("{}.{}.", got.webhook_id, got.webhook_timestamp).as_bytes());
    mac.update(&got.body);
    let bytes = mac.finalize().into_bytes();
    format!(
        "v1,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// Two attempts of one delivery (the first refused), signed with both keys of a rotation.
async fn two_attempts_signed_during_a_rotation() -> Vec<Received> {
    two_attempts_signed_also_deprecated(false).await
}

/// The same, also with the deprecated body-only header when `deprecated`.
async fn two_attempts_signed_also_deprecated(deprecated: bool) -> Vec<Received> {
    let receiver = Receiver::start(Answer::RefuseFirst(1)).await;
    let secret = WebhookSecret::parse(&format!("{}\n{OLD_SECRET}\n", whsec())).unwrap();
    let s = sending_signed_also_deprecated(
        &receiver,
        secret,
        Duration::from_secs(5),
        Duration::from_secs(60),
        deprecated,
    )
    .await;
    s.deploy_v4().await;
    let got = receiver.until_got(2).await;
    s.stop().await;
    got
}

#[tokio::test]
async fn deliveries_are_signed_the_standard_way_with_every_key_of_a_rotation() {
    let got = two_attempts_signed_during_a_rotation().await;
    let now = chrono::Utc::now().timestamp();
    for attempt in &got {
        assert_eq!(
            attempt.webhook_id,
            attempt.json()["id"].as_str().unwrap(),
            "webhook-id is the CloudEvent id"
        );
        assert_eq!(
            attempt.webhook_id, got[0].webhook_id,
            "the same at every retry"
        );
        let sent: i64 = attempt.webhook_timestamp.parse().unwrap();
        assert!((now - sent).abs() < 60, "sent now: {sent} vs {now}");
        assert_eq!(
            attempt.webhook_signature,
            format!(
                "{} {}",
                standard_signature(NEW_KEY, attempt),
                standard_signature(OLD_SECRET.as_bytes(), attempt)
            )
        );
        assert!(attempt.signed_with(NEW_KEY) && attempt.signed_with(OLD_SECRET.as_bytes()));
        assert_eq!(
            attempt.signature, "",
            "issue 43: the replayable body-only header is not sent unless configured"
        );
    }
}

/// `webhook_delivery.deprecated_signature = true`: the body-only header too, with the first
/// key, beside the Standard Webhooks ones.
#[tokio::test]
async fn the_deprecated_header_is_sent_only_when_configured() {
    let got = two_attempts_signed_also_deprecated(true).await;
    for attempt in &got {
        assert!(attempt.signed_with(NEW_KEY), "the standard signature still");
        assert!(
            attempt.signed_the_deprecated_way_with(NEW_KEY),
            "the deprecated header, first key: {}",
            attempt.signature
        );
        assert!(!attempt.signed_the_deprecated_way_with(OLD_SECRET.as_bytes()));
    }
}

/// What a receiver built on the `standardwebhooks` package (PyPI) makes of the deliveries,
/// with no code of its own: both keys verify; a changed body, an old signature under a fresh
/// timestamp and a replay a day later are refused.
#[tokio::test]
#[ignore = "needs the standardwebhooks package"]
async fn a_receiver_using_the_standardwebhooks_package_verifies_deliveries() {
    let got = two_attempts_signed_during_a_rotation().await;
    verify_with_standardwebhooks(&got);
}

/// The Python receiver's verdicts, each `true` when `Webhook(secret).verify` accepted.
const VERIFIER: &str = r#"
import datetime, json, sys
import standardwebhooks.webhooks as sw
from standardwebhooks import Webhook

cases = json.load(sys.stdin)
secrets = {"new": cases["whsec"], "old": cases["old"].encode()}
verdicts = {}

def verdict(name, secret, body, headers):
    try:
        Webhook(secrets[secret]).verify(body, headers)
        verdicts[name] = True
    except sw.WebhookVerificationError:
        verdicts[name] = False

for i, d in enumerate(cases["deliveries"]):
    headers = {"webhook-id": d["id"], "webhook-timestamp": d["timestamp"],
               "webhook-signature": d["signature"]}
    verdict(f"new {i}", "new", d["body"], headers)
    verdict(f"old {i}", "old", d["body"], headers)
    verdict(f"changed body {i}", "new", d["body"].replace("base-os", "evil-os"), headers)
    fresh = dict(headers, **{"webhook-timestamp": str(int(datetime.datetime.now().timestamp()) + 1)})
    verdict(f"fresh timestamp {i}", "new", d["body"], fresh)

class DayLater(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return datetime.datetime.now(tz) + datetime.timedelta(days=1)

sw.datetime = DayLater
d = cases["deliveries"][0]
verdict("a day later", "new", d["body"], {"webhook-id": d["id"],
        "webhook-timestamp": d["timestamp"], "webhook-signature": d["signature"]})
print(json.dumps(verdicts))
"#;

/// The Python with `standardwebhooks`; fails the test where there is none.
fn python() -> String {
    std::env::var("RC_TEST_STANDARDWEBHOOKS_PYTHON")
        .ok()
        .filter(|p| std::path::Path::new(p).exists())
        .unwrap_or_else(|| {
            crate::needs::missing(
                "the standardwebhooks package",
                "no RC_TEST_STANDARDWEBHOOKS_PYTHON naming a Python that has it (scripts/test.sh \
                 installs it into a cached virtualenv)",
            )
        })
}

fn verify_with_standardwebhooks(got: &[Received]) {
    let python = python();
    let deliveries: Vec<serde_json::Value> = got
        .iter()
        .map(|d| {
            serde_json::json!({
                "id": d.webhook_id,
                "timestamp": d.webhook_timestamp,
                "signature": d.webhook_signature,
                "body": String::from_utf8(d.body.clone()).unwrap(),
            })
        })
        .collect();
    let input = serde_json::json!({"whsec": whsec(), "old": OLD_SECRET, "deliveries": deliveries});
    let mut child = Command::new(&python)
        .args(["-c", VERIFIER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{python}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdicts: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for i in 0..got.len() {
        assert_eq!(verdicts[format!("new {i}")], true, "{verdicts}");
        assert_eq!(verdicts[format!("old {i}")], true, "{verdicts}");
        assert_eq!(verdicts[format!("changed body {i}")], false, "{verdicts}");
        assert_eq!(
            verdicts[format!("fresh timestamp {i}")],
            false,
            "{verdicts}"
        );
    }
    assert_eq!(verdicts["a day later"], false, "no replay: {verdicts}");
}
