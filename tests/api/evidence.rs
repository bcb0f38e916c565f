//! Signed evidence over the in-memory Pulp: each deploy that moved something gets a DSSE
//! envelope of an in-toto statement, served at /api/v1/deployments/<id>/evidence, verified
//! with the key of /api/v1/evidence/keys, chained per repository and environment; the
//! command `evidence verify` accepts it and refuses a changed payload byte, a wrong key and a
//! broken chain; Python's securesystemslib verifies it too.

use std::process::Command;
use std::sync::{Arc, OnceLock};

use async_trait::async_trait;
use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::memory::{InMemoryPulp, MemoryEvidenceStore};
use repo_console::adapters::signing::ed25519::{check_signature, Ed25519PublicKey, Ed25519Signer};
use repo_console::app::evidence::EvidenceSigning;
use repo_console::domain::audit_chain::link::Sha256Hex;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::evidence::dsse::Envelope;
use repo_console::domain::evidence::party::Party;
use repo_console::domain::evidence::predicate::{Actor, PolicyFacts};
use repo_console::domain::evidence::statement::Statement;
use repo_console::domain::evidence::verify::{open, payload_sha256};
use repo_console::domain::identity::PersonName;
use repo_console::domain::policy::{Approvals, Policy, Subject};
use repo_console::domain::repository::Distribution;
use repo_console::ports::evidence_store::{EvidenceStore, EvidenceStoreError, StoredEvidence};
use repo_console::ports::served_metadata::ServedMetadata;

use crate::helpers::*;

/// RFC 8410's example key, as `openssl genpkey -algorithm ed25519` writes one.
pub const PRIVATE: &str = "-----BEGIN PRIVATE KEY-----\n\
    MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
    -----END PRIVATE KEY-----\n";
/// Another key (RFC 8032's first test vector), for "a wrong key".
const OTHER_PUBLIC: &str = "-----BEGIN PUBLIC KEY-----\n\
    MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n\
    -----END PUBLIC KEY-----\n";

/// What the console's in-memory Pulp serves, known once the app is up.
#[derive(Default)]
struct Served(OnceLock<Arc<InMemoryPulp>>);

#[async_trait]
impl ServedMetadata for Served {
    async fn repomd_sha256(&self, distribution: &Distribution) -> Result<Sha256Hex, String> {
        self.0.get().unwrap().repomd_sha256(distribution).await
    }
}

async fn signing_app() -> TestApp {
    signing_app_with(fixture_app()).await
}

async fn signing_app_with(builder: TestAppBuilder<Fixture>) -> TestApp {
    signing_app_keeping(builder, Arc::new(MemoryEvidenceStore::default())).await
}

async fn signing_app_keeping(
    builder: TestAppBuilder<Fixture>,
    store: Arc<dyn EvidenceStore>,
) -> TestApp {
    let served = Arc::new(Served::default());
    let signer = Ed25519Signer::from_pem(PRIVATE, "console-2026").unwrap();
    let keys = vec![signer.public_key().published(true)];
    let signing = EvidenceSigning {
        signer: Arc::new(signer),
        store,
        served: served.clone(),
        policy: PolicyFacts {
            sha256: Sha256Hex::of(b"policy"),
        },
        keys,
    };
    let app = builder
        .configure(move |s| s.evidence(signing))
        .spawn()
        .await;
    served.0.set(app.memory.clone()).ok().unwrap();
    app
}

fn deploy_id_of_last(app: &TestApp) -> String {
    let lines = app.audit_lines();
    lines.last().unwrap()["deploy_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn public_key(app_keys: &serde_json::Value) -> Ed25519PublicKey {
    let key = &app_keys[0];
    Ed25519PublicKey::from_pem(
        key["public_key_pem"].as_str().unwrap(),
        key["keyid"].as_str().unwrap(),
    )
    .unwrap()
}

async fn envelope_of(app: &TestApp, deploy_id: &str) -> (String, Envelope) {
    let reply = app
        .get(&format!("/api/v1/deployments/{deploy_id}/evidence"))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let envelope = serde_json::from_str(&reply.body).unwrap();
    (reply.body, envelope)
}

#[tokio::test]
async fn each_deploy_is_signed_served_and_chained_to_the_one_before() {
    let app = signing_app().await;
    assert_eq!(
        app.deploy(&app.fixture.base_os, "3", "base-os")
            .await
            .status,
        200
    );
    let first_id = deploy_id_of_last(&app);
    assert_eq!(
        app.deploy(&app.fixture.base_os, "4", "base-os")
            .await
            .status,
        200
    );
    let second_id = deploy_id_of_last(&app);

    let keys: serde_json::Value =
        serde_json::from_str(&app.get("/api/v1/evidence/keys").await.body).unwrap();
    assert_eq!(keys[0]["keyid"], "console-2026");
    assert_eq!(keys[0]["current"], true);
    let key = public_key(&keys);

    let (_, first) = envelope_of(&app, &first_id).await;
    let (_, second) = envelope_of(&app, &second_id).await;
    assert_eq!(second.payload_type, "application/vnd.in-toto+json");
    let statement: Statement = open(&second, |s, m| {
        check_signature(std::slice::from_ref(&key), s, m)
    })
    .unwrap();
    let served = b"<repomd base_path=\"base-os-prod\" version=\"4\"/>\n";
    assert_eq!(statement.subject[0].name, "base-os@production");
    assert_eq!(
        statement.subject[0].sha256(),
        Some(Sha256Hex::of(served).as_str()),
        "the metadata the distribution serves after the move"
    );
    let predicate = &statement.predicate;
    assert_eq!((predicate.version_from, predicate.version_to), (Some(3), 4));
    assert_eq!(
        predicate.deployed_by,
        Actor::Person {
            name: "operator".into()
        }
    );
    assert_eq!(predicate.pulp.distribution_name, "base-os-prod");
    assert!(predicate.pulp.publication.is_some());
    let previous = predicate
        .previous
        .as_ref()
        .expect("chained to the first deploy");
    assert_eq!(previous.deploy_id.as_str(), first_id);
    assert_eq!(previous.payload_sha256, payload_sha256(&first));
}

const CI: &str = "ci-token-evidence-0123456789";
const GATE: &str = "gate-token-evidence-0123456789";

/// A call to the JSON API with bearer `token`.
async fn call(app: &TestApp, path: &str, token: &str, body: &serde_json::Value) -> Reply {
    let bearer = format!("Bearer {token}");
    let headers = [
        ("content-type", "application/json"),
        ("authorization", bearer.as_str()),
    ];
    app.client
        .send("POST", path, &headers, &body.to_string())
        .await
}

#[tokio::test]
async fn a_token_deployer_and_a_token_approver_are_named_with_their_owners() {
    // The token ci (owned by Bob) asks; production needs one approval, given by the token
    // gate (owned by Carol).
    let owned = |name: &str, text: &str, owner: &str| {
        crate::tokens::token(name, text, &[], &["read", "deploy:*", "approve:*"])
            .owned_by(PersonName::new(owner).unwrap())
    };
    let tokens = BearerTokens::new(
        vec![owned("ci", CI, "Bob"), owned("gate", GATE, "Carol")],
        None,
        Arc::new(SystemClock),
    );
    let approvals = Approvals::new(
        std::num::NonZeroU32::new(1).unwrap(),
        vec![Subject::parse("token:gate").unwrap()],
    )
    .unwrap();
    let policy = Policy::default().with_approvals(std::collections::BTreeMap::from([(
        EnvironmentName::production(),
        approvals,
    )]));
    let app = signing_app_with(fixture_app().tokens(tokens).requests().policy(policy)).await;

    let path = format!("/api/v1/repositories/{}/deployments", app.fixture.base_os);
    let asked = call(
        &app,
        &path,
        CI,
        &serde_json::json!({"version": 4, "expected_current": 2}),
    )
    .await;
    assert_eq!(
        asked.status, 202,
        "a request instead of a move: {}",
        asked.body
    );
    let request: serde_json::Value = serde_json::from_str(&asked.body).unwrap();
    let id = request["request"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("the request's id: {request}"))
        .to_owned();
    let approved = call(
        &app,
        &format!("/api/v1/requests/{id}/approve"),
        GATE,
        &serde_json::json!({}),
    )
    .await;
    assert_eq!(approved.status, 200, "{}", approved.body);

    let (_, envelope) = envelope_of(&app, &deploy_id_of_last(&app)).await;
    let statement: Statement = serde_json::from_slice(&envelope.payload).unwrap();
    let predicate = &statement.predicate;
    assert_eq!(
        predicate.deployed_by,
        Actor::Token {
            name: "ci".into(),
            owner: Some("Bob".into())
        }
    );
    let approval = predicate.approval.as_ref().expect("the request it ran for");
    assert_eq!(approval.request_id, id);
    assert_eq!(
        approval.requested_by,
        Party::Token {
            name: "ci".into(),
            owner: Some("bob".into())
        },
        "the request keeps its requester's owner as the four-eyes rule compares it"
    );
    assert_eq!(approval.approvals.len(), 1);
    assert_eq!(
        approval.approvals[0].by,
        Party::Token {
            name: "gate".into(),
            owner: Some("Carol".into())
        }
    );
    assert!(approval.approvals[0].at.is_some(), "when it was approved");
}

#[tokio::test]
async fn no_evidence_is_a_404_that_says_why() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/deployments/nope/evidence").await;
    assert_eq!(reply.status, 404);
    assert!(
        reply.body.contains("evidence.key_file") || reply.body.contains("key_file"),
        "{}",
        reply.body
    );
    assert_eq!(app.get("/api/v1/evidence/keys").await.body, "[]");
    let app = signing_app().await;
    let reply = app.get("/api/v1/deployments/nope/evidence").await;
    assert_eq!(reply.status, 404);
    assert!(reply.body.contains("has no evidence"), "{}", reply.body);
}

fn verify_command(files: &[&std::path::Path], key: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_repo-console"))
        .args(["evidence", "verify"])
        .args(files)
        .arg("--key")
        .arg(key)
        .output()
        .unwrap()
}

#[tokio::test]
async fn the_command_verifies_and_refuses_a_changed_byte_a_wrong_key_and_a_broken_chain() {
    let app = signing_app().await;
    assert_eq!(
        app.deploy(&app.fixture.base_os, "3", "base-os")
            .await
            .status,
        200
    );
    let first_id = deploy_id_of_last(&app);
    assert_eq!(
        app.deploy(&app.fixture.base_os, "4", "base-os")
            .await
            .status,
        200
    );
    let second_id = deploy_id_of_last(&app);
    let keys: serde_json::Value =
        serde_json::from_str(&app.get("/api/v1/evidence/keys").await.body).unwrap();
    let dir = app.dir();
    let key = dir.join("public.pem");
    std::fs::write(&key, keys[0]["public_key_pem"].as_str().unwrap()).unwrap();
    let (first_text, _) = envelope_of(&app, &first_id).await;
    let (second_text, second) = envelope_of(&app, &second_id).await;
    let (first, last) = (dir.join("first.json"), dir.join("second.json"));
    std::fs::write(&first, &first_text).unwrap();
    std::fs::write(&last, &second_text).unwrap();

    let out = verify_command(&[&first, &last], &key);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("verified: base-os@production v3 -> v4"),
        "{said}"
    );

    // One changed byte of the payload: the signature no longer matches.
    let mut changed = second.clone();
    let at = changed.payload.iter().position(|b| *b == b'4').unwrap();
    changed.payload[at] = b'5';
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, serde_json::to_string(&changed).unwrap()).unwrap();
    let out = verify_command(&[&tampered], &key);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("does not match the payload"));

    // A wrong key.
    let wrong = dir.join("wrong.pem");
    std::fs::write(&wrong, OTHER_PUBLIC).unwrap();
    let out = verify_command(&[&last], &wrong);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("refused"));

    // A broken chain: the second given before the first.
    let out = verify_command(&[&last, &first], &key);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("the chain is broken"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Python's securesystemslib (PyPI, the version pinned in tests/api/securesystemslib.version,
/// installed by scripts/test.sh into a cached virtualenv named by RC_TEST_SECURESYSTEMSLIB_PYTHON)
/// verifies the envelope with the published key: a second, independent implementation.
#[tokio::test]
#[ignore = "needs the securesystemslib package"]
async fn securesystemslib_verifies_the_envelope_with_the_published_key() {
    let python = std::env::var("RC_TEST_SECURESYSTEMSLIB_PYTHON")
        .ok()
        .filter(|p| std::path::Path::new(p).exists())
        .unwrap_or_else(|| {
            crate::needs::missing(
                "the securesystemslib package",
                "no RC_TEST_SECURESYSTEMSLIB_PYTHON naming a Python that has it (scripts/test.sh \
                 installs it into a cached virtualenv)",
            )
        });
    let app = signing_app().await;
    assert_eq!(
        app.deploy(&app.fixture.base_os, "4", "base-os")
            .await
            .status,
        200
    );
    let (text, _) = envelope_of(&app, &deploy_id_of_last(&app)).await;
    let keys: serde_json::Value =
        serde_json::from_str(&app.get("/api/v1/evidence/keys").await.body).unwrap();
    let dir = app.dir();
    std::fs::write(dir.join("envelope.json"), &text).unwrap();
    std::fs::write(
        dir.join("public.pem"),
        keys[0]["public_key_pem"].as_str().unwrap(),
    )
    .unwrap();
    let script = r#"
import json, sys
from cryptography.hazmat.primitives.serialization import load_pem_public_key
from securesystemslib.dsse import Envelope
from securesystemslib.signer import SSlibKey
env = Envelope.from_dict(json.load(open(sys.argv[1])))
key = SSlibKey.from_crypto(load_pem_public_key(open(sys.argv[2], "rb").read()), keyid=sys.argv[3])
verified = env.verify([key], 1)
print("verified", sorted(verified))
"#;
    let out = Command::new(python)
        .args(["-c", script])
        .arg(dir.join("envelope.json"))
        .arg(dir.join("public.pem"))
        .arg("console-2026")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("verified ['console-2026']"),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn each_history_entry_with_evidence_links_to_it_and_no_other_does() {
    let app = signing_app().await;
    let id = app.fixture.base_os.clone();
    for version in ["3", "4"] {
        assert_eq!(app.deploy(&id, version, "base-os").await.status, 200);
    }
    let html = app.get(&format!("/repos/{id}/history")).await.html();
    let entries = select(&html, "[data-history-entry]");
    let console: Vec<_> = entries
        .iter()
        .filter(|e| e.value().attr("data-deploy-id").is_some())
        .collect();
    assert_eq!(console.len(), 2, "the two deploys");
    for entry in &console {
        let deploy_id = attr(entry, "data-deploy-id");
        let links = crate::web::select_in(entry, "[data-evidence]");
        assert_eq!(links.len(), 1, "one link on {deploy_id}");
        assert_eq!(attr(&links[0], "data-evidence"), deploy_id);
        let href = attr(&links[0], "href");
        assert_eq!(href, format!("/api/v1/deployments/{deploy_id}/evidence"));
        let envelope = app.get(href).await;
        assert_eq!(envelope.status, 200, "{}", envelope.body);
    }
    assert_eq!(
        select(&html, "[data-evidence]").len(),
        2,
        "no entry changed outside the console links to evidence"
    );

    // A console that signs nothing links to nothing.
    let unsigned = spawn_app().await;
    let id = unsigned.fixture.base_os.clone();
    assert_eq!(unsigned.deploy(&id, "3", "base-os").await.status, 200);
    let html = unsigned.get(&format!("/repos/{id}/history")).await.html();
    assert!(!select(&html, "[data-history-entry]").is_empty());
    assert!(select(&html, "[data-evidence]").is_empty());
}

/// The memory store, counting the questions a page asks it.
#[derive(Default)]
struct CountingStore {
    kept: MemoryEvidenceStore,
    attested: std::sync::atomic::AtomicUsize,
    of_deploy: std::sync::atomic::AtomicUsize,
}

#[async_trait]
impl EvidenceStore for CountingStore {
    async fn put(&self, evidence: &StoredEvidence) -> Result<(), EvidenceStoreError> {
        self.kept.put(evidence).await
    }
    async fn of_deploy(
        &self,
        id: &repo_console::domain::deploy::DeployId,
    ) -> Result<Option<StoredEvidence>, EvidenceStoreError> {
        self.of_deploy
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.kept.of_deploy(id).await
    }
    async fn attested(
        &self,
        ids: &[repo_console::domain::deploy::DeployId],
    ) -> Result<std::collections::HashSet<repo_console::domain::deploy::DeployId>, EvidenceStoreError>
    {
        self.attested
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.kept.attested(ids).await
    }
    async fn newest_of(
        &self,
        repository_uuid: &str,
        environment: &EnvironmentName,
    ) -> Result<Option<StoredEvidence>, EvidenceStoreError> {
        self.kept.newest_of(repository_uuid, environment).await
    }
    fn target(&self) -> String {
        self.kept.target()
    }
}

#[tokio::test]
async fn the_history_page_asks_the_evidence_store_once_whatever_the_number_of_entries() {
    use std::sync::atomic::Ordering;
    let store = Arc::new(CountingStore::default());
    let app = signing_app_keeping(fixture_app(), store.clone()).await;
    let id = app.fixture.base_os.clone();
    for version in ["3", "4", "3", "4"] {
        assert_eq!(app.deploy(&id, version, "base-os").await.status, 200);
    }
    let asked_before = store.of_deploy.load(Ordering::SeqCst);
    let html = app.get(&format!("/repos/{id}/history")).await.html();
    assert_eq!(select(&html, "[data-evidence]").len(), 4);
    assert_eq!(store.attested.load(Ordering::SeqCst), 1, "one question");
    assert_eq!(
        store.of_deploy.load(Ordering::SeqCst),
        asked_before,
        "no envelope read per entry"
    );
}
