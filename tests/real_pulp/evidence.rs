//! Signed evidence end to end on the real Pulp (issue 47): a console with an evidence key,
//! staging then production, production needing one approval (bob) and the check `smoke`
//! passed on staging. Twice, a version is staged, its check reported passing by the CI
//! token, its promotion to production requested by alice and approved by bob: it lands, and
//! its envelope is fetched from the API. The Rust verifier (the `evidence verify` command, with
//! the published key and Pulp's content app) accepts the two as a chain; Python's
//! securesystemslib verifies the newest with the key `/api/v1/evidence/keys` publishes; its
//! subject digest is the SHA-256 of the `repodata/repomd.xml` the production distribution
//! serves; its predicate names the deployer, the approver and the check (name, reporter,
//! link). One changed byte of the payload, a wrong key and a broken chain are each refused.
//!
//! Its own repository, `rcev2-evidence` (seeded here from rc-checks' versions when missing:
//! v1..v3, a publication of each; `rcev2-evidence-staging` and `-prod` put back at v1 before
//! and after).

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::num::NonZeroU32;
use std::process::Command;
use std::sync::Arc;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::MemoryEvidenceStore;
use repo_console::adapters::pulp::PulpContent;
use repo_console::adapters::signing::ed25519::Ed25519Signer;
use repo_console::app::evidence::EvidenceSigning;
use repo_console::domain::audit_chain::link::Sha256Hex;
use repo_console::domain::check::CheckName;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::evidence::party::Party;
use repo_console::domain::evidence::predicate::{Actor, PolicyFacts};
use repo_console::domain::evidence::statement::Statement;
use repo_console::domain::evidence::verify::payload_sha256;
use repo_console::domain::policy::checks::CheckPolicy;
use repo_console::domain::policy::{Allowed, Approvals, Policy, Subject};
use serde_json::{json, Value};

use super::console::{over_upstream, Console, Reply};
use super::support::{env_file_value, exclusive, required_pulp, staging_then_production, TestPulp};

const REPO: &str = "rcev2-evidence";
/// The repository whose versions this one copies (scripts/pulp/seed.sh).
const SOURCE: &str = "rc-checks";
const CI: &str = "ci-staging-token-rcev2-evidence";
const KEY_ID: &str = "console-e2e";
/// RFC 8410's example key, as `openssl genpkey -algorithm ed25519` writes one.
const PRIVATE: &str = "-----BEGIN PRIVATE KEY-----\n\
    MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
    -----END PRIVATE KEY-----\n";
/// Another key (RFC 8032's first test vector), for "a wrong key".
const OTHER_PUBLIC: &str = "-----BEGIN PUBLIC KEY-----\n\
    MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n\
    -----END PUBLIC KEY-----\n";

/// The repository as seeded: its href, the publications of v1..v3, its two distributions.
struct Seeded {
    pulp: TestPulp,
    repo: String,
    publications: Vec<String>,
    staging: String,
    production: String,
}

impl Seeded {
    /// `rcev2-evidence` made when missing (v1..v3 with rc-checks' content of each version,
    /// a publication of each, both distributions), both distributions pointed at v1.
    fn at_v1(pulp: TestPulp) -> Self {
        let source = pulp
            .href_named("repositories/rpm/rpm/", SOURCE)
            .unwrap_or_else(|| panic!("no repository {SOURCE}: run scripts/pulp/seed.sh"));
        let repo = pulp
            .href_named("repositories/rpm/rpm/", REPO)
            .unwrap_or_else(|| create_like(&pulp, &source));
        let latest = version_number(&pulp.raw_ok("GET", &repo, None)["latest_version_href"]);
        for n in latest + 1..=3 {
            let (had, wanted) = (
                packages(&pulp, &format!("{repo}versions/{}/", n - 1)),
                packages(&pulp, &format!("{source}versions/{n}/")),
            );
            let body = json!({
                "add_content_units": wanted.difference(&had).collect::<Vec<_>>(),
                "remove_content_units": had.difference(&wanted).collect::<Vec<_>>(),
            });
            pulp.raw_ok("POST", &format!("{repo}modify/"), Some(&body));
        }
        let publications = (1..=3).map(|n| publication(&pulp, &repo, n)).collect();
        let seeded = Self {
            staging: distribution(
                &pulp,
                &format!("{REPO}-staging"),
                &publication(&pulp, &repo, 1),
            ),
            production: distribution(
                &pulp,
                &format!("{REPO}-prod"),
                &publication(&pulp, &repo, 1),
            ),
            pulp,
            repo,
            publications,
        };
        seeded.point(&seeded.staging, 1);
        seeded.point(&seeded.production, 1);
        seeded
    }

    /// The distribution at `href` pointed at the seeded publication of version `n`.
    fn point(&self, href: &str, n: usize) {
        let publication = &self.publications[n - 1];
        self.pulp
            .raw_ok("PATCH", href, Some(&json!({ "publication": publication })));
    }

    /// The version the production distribution serves, read behind the console's back.
    fn production_version(&self) -> u64 {
        let publication = self.pulp.raw_ok("GET", &self.production, None)["publication"]
            .as_str()
            .expect("production serves a publication")
            .to_owned();
        self.pulp.publication_version(&publication).1
    }

    fn id(&self) -> &str {
        self.repo
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .expect("uuid")
    }
}

impl Drop for Seeded {
    fn drop(&mut self) {
        self.point(&self.staging, 1);
        self.point(&self.production, 1);
    }
}

/// A repository named `REPO` with the settings of `source` (its verification and its
/// metadata signing service).
fn create_like(pulp: &TestPulp, source: &str) -> String {
    let settings = pulp.raw_ok("GET", source, None);
    let mut body = json!({ "name": REPO });
    for field in ["repo_config", "checksum_type", "metadata_signing_service"] {
        if !settings[field].is_null() {
            body[field] = settings[field].clone();
        }
    }
    pulp.raw_ok("POST", "repositories/rpm/rpm/", Some(&body))["pulp_href"]
        .as_str()
        .expect("the repository's href")
        .to_owned()
}

fn version_number(href: &Value) -> u64 {
    href.as_str()
        .and_then(|h| h.trim_end_matches('/').rsplit('/').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The packages of a repository version, by href.
fn packages(pulp: &TestPulp, version: &str) -> BTreeSet<String> {
    let found = pulp.raw_ok(
        "GET",
        &format!(
            "content/rpm/packages/?repository_version={}&fields=pulp_href&limit=1000",
            super::web::enc(version)
        ),
        None,
    );
    found["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["pulp_href"].as_str().map(str::to_owned))
        .collect()
}

/// The publication of version `n` of `repo`, made when missing.
fn publication(pulp: &TestPulp, repo: &str, n: u64) -> String {
    let version = format!("{repo}versions/{n}/");
    let found = pulp.raw_ok(
        "GET",
        &format!(
            "publications/rpm/rpm/?repository_version={}&fields=pulp_href",
            super::web::enc(&version)
        ),
        None,
    );
    if let Some(href) = found["results"][0]["pulp_href"].as_str() {
        return href.to_owned();
    }
    let task = pulp.raw_ok(
        "POST",
        "publications/rpm/rpm/",
        Some(&json!({ "repository_version": version })),
    );
    task["created_resources"][0]
        .as_str()
        .expect("the publication's href")
        .to_owned()
}

/// The distribution `name` (base path `name`), made serving `publication` when missing.
fn distribution(pulp: &TestPulp, name: &str, publication: &str) -> String {
    if let Some(href) = pulp.href_named("distributions/rpm/rpm/", name) {
        return href;
    }
    let body = json!({ "name": name, "base_path": name, "publication": publication });
    pulp.raw_ok("POST", "distributions/rpm/rpm/", Some(&body));
    pulp.href_named("distributions/rpm/rpm/", name)
        .expect("the distribution just made")
}

/// Pulp's content app, as `evidence.content_url` names it (`.../pulp/content/`).
fn content_url() -> String {
    let origin = std::env::var("RC_TEST_PULP_CONTENT_URL")
        .ok()
        .filter(|u| !u.is_empty())
        .or_else(|| env_file_value("PULP_CONTENT_URL"))
        .unwrap_or_else(|| {
            crate::needs::missing(
                "a real Pulp's content app",
                "set RC_TEST_PULP_CONTENT_URL (scripts/pulp/up.sh writes PULP_CONTENT_URL)",
            )
        });
    format!("{}/pulp/content/", origin.trim_end_matches('/'))
}

/// Python with securesystemslib (scripts/test.sh installs it).
fn securesystemslib_python() -> String {
    std::env::var("RC_TEST_SECURESYSTEMSLIB_PYTHON")
        .ok()
        .filter(|p| std::path::Path::new(p).exists())
        .unwrap_or_else(|| {
            crate::needs::missing(
                "the securesystemslib package",
                "no RC_TEST_SECURESYSTEMSLIB_PYTHON naming a Python that has it (scripts/test.sh \
                 installs it into a cached virtualenv)",
            )
        })
}

/// Production needs `smoke` passed on staging and one approval by bob.
fn policy() -> Policy {
    let production = EnvironmentName::production();
    let approvals = Approvals::new(
        NonZeroU32::new(1).unwrap(),
        vec![Subject::parse("user:bob").unwrap()],
    )
    .unwrap();
    Policy::new(BTreeMap::new(), Allowed::Everyone)
        .with_checks(CheckPolicy::new(
            BTreeMap::from([(
                production.clone(),
                vec![CheckName::parse("smoke").expect("a name")],
            )]),
            BTreeSet::new(),
            None,
        ))
        .with_approvals(BTreeMap::from([(production, approvals)]))
}

async fn console(pulp: &TestPulp) -> Console {
    let signer = Ed25519Signer::from_pem(PRIVATE, KEY_ID).unwrap();
    let keys = vec![signer.public_key().published(true)];
    let served = PulpContent::new(&pulp.settings(), &content_url()).expect("the content app");
    let signing = EvidenceSigning {
        signer: Arc::new(signer),
        store: Arc::new(MemoryEvidenceStore::default()),
        served: Arc::new(served),
        policy: PolicyFacts::of_tables(&json!({"rcev2": "e2e"}), &json!({})),
        keys,
    };
    let proxy = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()]);
    let callers = BearerTokens::new(
        vec![super::tokens::token(
            "ci-staging",
            CI,
            &[],
            &["check:staging"],
        )],
        Some(Arc::new(proxy)),
        Arc::new(SystemClock),
    );
    over_upstream(Arc::new(pulp.client()), 25)
        .requests()
        .tokens(callers)
        .configure(move |state| {
            state
                .environments(staging_then_production())
                .policy(policy())
                .evidence(signing)
        })
        .spawn()
        .await
}

/// A JSON API call as `who` (a person named by the trusted proxy's header) or with the
/// bearer token `who` when it is one.
async fn call(console: &Console, who: &str, path: &str, body: &Value) -> Reply {
    let bearer = format!("Bearer {who}");
    let mut headers = vec![("content-type", "application/json")];
    if who == CI {
        headers.push(("authorization", bearer.as_str()));
    } else {
        headers.push(("x-remote-user", who));
    }
    console
        .client
        .send("POST", path, &headers, &body.to_string())
        .await
}

fn json_of(reply: &Reply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

/// Version `n` staged and its smoke check passed there, its promotion to production asked
/// by alice and approved by bob: Pulp serves it; its deploy id.
async fn promote(console: &Console, seeded: &Seeded, n: u64) -> String {
    seeded.point(&seeded.staging, n as usize);
    let check = json!({
        "repository": REPO, "environment": "staging", "version": n, "name": "smoke",
        "passed": true, "url": format!("https://ci.example.com/rcev2/{n}"),
    });
    let reported = call(console, CI, "/api/v1/checks", &check).await;
    assert_eq!(reported.status, 201, "{}", reported.body);

    let deploy = format!("/api/v1/repositories/{}/deployments", seeded.id());
    let ask = json!({"version": n, "environment": "production", "expected_current": n - 1});
    let asked = call(console, "alice", &deploy, &ask).await;
    assert_eq!(asked.status, 202, "a request, not a move: {}", asked.body);
    let request = json_of(&asked)["request"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a request id: {}", asked.body))
        .to_owned();
    let approve = format!("/api/v1/requests/{request}/approve");
    let approved = call(console, "bob", &approve, &json!({})).await;
    assert_eq!(approved.status, 200, "{}", approved.body);
    assert_eq!(
        seeded.production_version(),
        n,
        "Pulp serves v{n} in production"
    );

    let deployed = console
        .audit_lines()
        .into_iter()
        .rev()
        .find(|l| l["outcome"] == "deployed" && l["target_version"] == n)
        .unwrap_or_else(|| panic!("the deploy of v{n} is audited"));
    deployed["deploy_id"].as_str().expect("an id").to_owned()
}

async fn envelope_text(console: &Console, deploy_id: &str) -> String {
    let reply = console
        .get(&format!("/api/v1/deployments/{deploy_id}/evidence"))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body
}

/// `repo-console evidence verify FILES --key KEY_ID=KEY --pulp-content-url ...`.
fn rust_verifier(files: &[&std::path::Path], key: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_repo-console"))
        .args(["evidence", "verify"])
        .args(files)
        .arg("--key")
        .arg(format!("{KEY_ID}={}", key.display()))
        .args(["--pulp-content-url", &content_url()])
        .output()
        .expect("the binary runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), said)
}

/// Python's securesystemslib on `envelope` with the PEM public key `key`.
fn securesystemslib(
    python: &str,
    envelope: &std::path::Path,
    key: &std::path::Path,
) -> (bool, String) {
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
        .arg(envelope)
        .arg(key)
        .arg(KEY_ID)
        .output()
        .expect("python runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

/// The SHA-256 of what the content app serves at `<base_path>/repodata/repomd.xml`.
fn served_repomd_sha256(base_path: &str) -> Sha256Hex {
    let url = format!("{}{base_path}/repodata/repomd.xml", content_url());
    let out = Command::new("curl")
        .args(["-sSf", &url])
        .output()
        .expect("curl runs");
    assert!(
        out.status.success(),
        "{url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Sha256Hex::of(&out.stdout)
}

#[tokio::test]
#[ignore = "needs a real Pulp and the securesystemslib package"]
async fn an_approved_checked_promotion_is_signed_and_verified_by_two_implementations() {
    let python = securesystemslib_python();
    let pulp = required_pulp();
    let _repo = exclusive(REPO).await;
    let seeded = Seeded::at_v1(pulp.clone());
    let console = console(&pulp).await;

    let first_id = promote(&console, &seeded, 2).await;
    let second_id = promote(&console, &seeded, 3).await;

    let dir = console.dir();
    let (first, second) = (dir.join("first.json"), dir.join("second.json"));
    std::fs::write(&first, envelope_text(&console, &first_id).await).unwrap();
    let second_text = envelope_text(&console, &second_id).await;
    std::fs::write(&second, &second_text).unwrap();
    let keys: Value =
        serde_json::from_str(&console.get("/api/v1/evidence/keys").await.body).expect("the keys");
    assert_eq!(keys[0]["keyid"], KEY_ID);
    let key = dir.join("console.pem");
    std::fs::write(&key, keys[0]["public_key_pem"].as_str().expect("a PEM")).unwrap();

    // What the newest attestation says.
    let envelope: repo_console::domain::evidence::dsse::Envelope =
        serde_json::from_str(&second_text).unwrap();
    let statement: Statement = serde_json::from_slice(&envelope.payload).unwrap();
    let base_path = format!("{REPO}-prod");
    assert_eq!(statement.subject[0].name, format!("{REPO}@production"));
    assert_eq!(
        statement.subject[0].sha256(),
        Some(served_repomd_sha256(&base_path).as_str()),
        "the repomd.xml the production distribution serves"
    );
    let predicate = &statement.predicate;
    assert_eq!((predicate.version_from, predicate.version_to), (Some(2), 3));
    assert_eq!(predicate.pulp.base_path, base_path);
    assert_eq!(
        predicate.deployed_by,
        Actor::Person {
            name: "alice".into()
        }
    );
    let approval = predicate.approval.as_ref().expect("the approval request");
    assert_eq!(
        approval.requested_by,
        Party::Person {
            name: "alice".into()
        }
    );
    assert_eq!(approval.approvals.len(), 1, "{approval:?}");
    assert_eq!(
        approval.approvals[0].by,
        Party::Person { name: "bob".into() }
    );
    assert!(approval.approvals[0].at.is_some(), "when bob approved");
    let smoke = predicate
        .checks
        .iter()
        .find(|c| c.name == "smoke")
        .unwrap_or_else(|| panic!("the smoke check: {:?}", predicate.checks));
    assert_eq!(
        (
            smoke.environment.as_str(),
            smoke.reporter.as_str(),
            smoke.url.as_deref()
        ),
        (
            "staging",
            "ci-staging",
            Some("https://ci.example.com/rcev2/3")
        )
    );
    let previous = predicate.previous.as_ref().expect("chained to the first");
    assert_eq!(previous.deploy_id.as_str(), first_id);

    // The Rust verifier accepts the two as a chain, the newest served now.
    let (code, said) = rust_verifier(&[&first, &second], &key);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains(&format!("verified: {REPO}@production v2 -> v3")),
        "{said}"
    );
    // Python's securesystemslib verifies it with the published key.
    let (verified, said) = securesystemslib(&python, &second, &key);
    assert!(
        verified && said.contains(&format!("verified ['{KEY_ID}']")),
        "{said}"
    );

    // One changed byte of the payload: both refuse it.
    let mut changed = envelope.clone();
    let at = changed
        .payload
        .windows(b"\"version_to\":3".len())
        .position(|w| w == b"\"version_to\":3")
        .expect("the payload names version_to")
        + b"\"version_to\":".len();
    changed.payload[at] = b'4';
    assert_ne!(payload_sha256(&changed), payload_sha256(&envelope));
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, serde_json::to_string(&changed).unwrap()).unwrap();
    let (code, said) = rust_verifier(&[&tampered], &key);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("does not match the payload"), "{said}");
    let (verified, said) = securesystemslib(&python, &tampered, &key);
    assert!(!verified, "securesystemslib refuses it too: {said}");

    // A wrong key.
    let wrong = dir.join("wrong.pem");
    std::fs::write(&wrong, OTHER_PUBLIC).unwrap();
    let (code, said) = rust_verifier(&[&second], &wrong);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("refused"), "{said}");

    // A broken chain: the newest given before the one it follows.
    let (code, said) = rust_verifier(&[&second, &first], &key);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("the chain is broken"), "{said}");
}
