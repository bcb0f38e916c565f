//! The policy (issue 24) end to end against the real Pulp, on `rc-policy` (v1..v3, a
//! publication of each; `rc-policy-prod` serves v1 between tests): a console whose operator
//! is named by the trusted proxy (`X-Remote-User`, groups in `X-Remote-Groups`), with its
//! requests in a JSON Lines file (as the binary keeps them beside a JSON Lines audit) and a
//! clock the test sets. Each case checks Pulp itself (which publication,
//! of which version, the production distribution serves, and that a refusal made no
//! publication and touched no distribution) and the console's audit lines:
//! a deployer refused; a request, self-approval refused, then approved by someone else and
//! deployed; a request gone stale because production moved behind the console's back; a
//! freeze, refused, then overridden with a reason.
//!
//! The tests of this file hold `exclusive("rc-policy")`, put production back at v1 first
//! (an earlier run may have left anything) and last (also when one fails half-way).

use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Instant;

use repo_console::adapters::files::requests::JsonlRequestStore;
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::ManualClock;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Allowed, Approvals, FreezeWindow, Policy, Subject};
use serde_json::{json, Value};

use super::console::{attr, over_upstream, select, Console, Reply};
use super::seeded::{PulpState, SeededProduction};
use super::support::{exclusive, required_pulp, TestPulp};

const REPO: &str = "rc-policy";
const DIST: &str = "rc-policy-prod";
/// A year-end freeze of production, and a time inside it and one before it.
const WINDOW: &str = "2026-12-20T00:00:00Z/2027-01-04T00:00:00Z";
const IN_FREEZE: &str = "2026-12-24T18:00:00Z";
const BEFORE_FREEZE: &str = "2026-11-25T10:00:00Z";

fn subjects(texts: &[&str]) -> Vec<Subject> {
    texts
        .iter()
        .map(|t| Subject::parse(t).expect("a subject"))
        .collect()
}

/// rc-policy in Pulp, production at v1, and a console over it with `policy` at `now`.
struct Policed {
    /// rc-policy and its production, put back at v1 first and last.
    production: SeededProduction,
    clock: Arc<ManualClock>,
    console: Console,
    /// The console's requests.jsonl, in a directory of its own.
    requests: std::path::PathBuf,
    _requests_dir: tempfile::TempDir,
    started: Instant,
}

impl Policed {
    /// rc-policy's production back at v1 (an earlier run may have left anything), and the
    /// console. Pulp is read with few calls here and below: each of the raw helper's calls
    /// authenticates anew (basic auth), which costs Pulp most of a second.
    async fn at_v1(pulp: TestPulp, policy: Policy, now: &str) -> Self {
        let started = Instant::now();
        let production_state = SeededProduction::at_v1(pulp, REPO);
        let clock = Arc::new(ManualClock::new(
            chrono::DateTime::parse_from_rfc3339(now)
                .expect("an RFC 3339 time")
                .into(),
        ));
        let identity =
            TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
                .with_groups("X-Remote-Groups");
        let production = HashMap::from([(REPO.to_owned(), DIST.to_owned())]);
        let requests_dir = tempfile::tempdir().expect("a temporary directory");
        let requests = requests_dir.path().join("requests.jsonl");
        let store = JsonlRequestStore::new(&requests);
        let state_clock = clock.clone();
        let client = Arc::new(production_state.pulp.client());
        let console = over_upstream(client, 25)
            .configure(move |state| {
                state
                    .production(production)
                    .identity(Arc::new(identity))
                    .policy(policy)
                    .clock(state_clock)
                    .requests(Arc::new(store), chrono::Duration::hours(24))
            })
            .spawn()
            .await;
        Self {
            production: production_state,
            clock,
            console,
            requests,
            _requests_dir: requests_dir,
            started,
        }
    }

    /// Points production at the seeded publication of version `n` with Pulp's API (waits
    /// for the task), as an operator would behind the console's back; answers Pulp's state.
    fn point(&self, n: usize) -> PulpState {
        self.production.point(n);
        let now = self.pulp_state();
        let publication = &self.production.seeded[n - 1];
        assert_eq!((&now.publication, now.version), (publication, n as u64));
        now
    }

    /// What Pulp says now: what production serves, and rc-policy's publications.
    fn pulp_state(&self) -> PulpState {
        self.production.state()
    }

    /// The deploy form as the confirm step sends it (production serving v1, the
    /// repository's name typed), plus `extra` fields.
    async fn deploy(&self, user: &str, groups: &str, version: u64, extra: &str) -> Reply {
        let form = format!("version={version}&env=production&confirm={REPO}&live=1{extra}");
        let path = format!("/repos/{}/deploy", self.production.id);
        self.console
            .send_as("POST", &path, user, groups, &form)
            .await
    }

    async fn approve(&self, id: &str, user: &str, groups: &str) -> Reply {
        let path = format!("/requests/{id}/approve");
        self.console
            .send_as("POST", &path, user, groups, &format!("confirm={REPO}"))
            .await
    }

    /// The request's `data-request-state` on /requests.
    async fn state_of(&self, id: &str) -> String {
        let page = self
            .console
            .send_as("GET", "/requests", "viewer", "", "")
            .await;
        assert_eq!(page.status, 200, "{}", page.body);
        let html = page.html();
        let rows = select(&html, &format!("tr[data-request-id='{id}']"));
        assert_eq!(rows.len(), 1, "{}", page.body);
        attr(&rows[0], "data-request-state").to_owned()
    }

    /// The events requests.jsonl holds for request `id`, in order ("requested" first).
    fn request_events(&self, id: &str) -> Vec<String> {
        let text = std::fs::read_to_string(&self.requests).unwrap_or_default();
        text.lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("each request line is JSON"))
            .filter(|line| line["request_id"] == id)
            .map(|line| line["event"].as_str().unwrap_or("?").to_owned())
            .collect()
    }

    /// Checks the outcome line of the last deploy: deployed, its started line before it
    /// (same deploy id), `operator`, v1 -> `version`, and Pulp serving the publication it
    /// names. Answers the outcome line and Pulp's state.
    fn deployed(&self, operator: &str, version: u64) -> (Value, PulpState) {
        let lines = self.console.audit_lines();
        assert_eq!(lines.len(), 2, "started, then the outcome: {lines:#?}");
        let (started, outcome) = (&lines[0], &lines[1]);
        assert_eq!(started["outcome"], "started", "{started}");
        assert_eq!(started["deploy_id"], outcome["deploy_id"]);
        assert_eq!(outcome["outcome"], "deployed", "{outcome}");
        assert_eq!(outcome["operator"], operator);
        assert_eq!(outcome["repository_name"], REPO);
        assert_eq!(outcome["repository_uuid"], self.production.id.to_string());
        assert_eq!(
            (
                outcome["environment"].as_str(),
                outcome["distribution"].as_str()
            ),
            (Some("production"), Some(DIST))
        );
        assert_eq!(
            (
                outcome["previous_version"].as_u64(),
                outcome["target_version"].as_u64()
            ),
            (Some(1), Some(version))
        );
        let now = self.pulp_state();
        assert_eq!(now.version, version, "Pulp serves v{version}");
        assert_eq!(
            outcome["publication"].as_str(),
            Some(now.publication.as_str()),
            "the publication the audit line names is the one Pulp serves"
        );
        (outcome.clone(), now)
    }

    fn timing(&self, case: &str) {
        println!(
            "TIMING policy ({case}): {:.1} s",
            self.started.elapsed().as_secs_f64()
        );
    }
}

/// The request id of a 202 answer (a pending request).
pub fn request_id(reply: &Reply) -> String {
    assert_eq!(reply.status, 202, "{}", reply.body);
    let html = reply.html();
    let made = select(&html, "[data-request-id]");
    assert!(!made.is_empty(), "{}", reply.body);
    assert_eq!(attr(&made[0], "data-request-state"), "pending");
    attr(&made[0], "data-request-id").to_owned()
}

/// Production's deploys need one approval by group:release.
pub fn four_eyes() -> Policy {
    let approvals = Approvals::new(NonZeroU32::new(1).unwrap(), subjects(&["group:release"]))
        .expect("approvers");
    Policy::default().with_approvals(BTreeMap::from([(EnvironmentName::production(), approvals)]))
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn someone_outside_the_deployers_is_refused_and_pulp_is_unchanged() {
    let pulp = required_pulp();
    let _guard = exclusive(REPO).await;
    let policy = Policy::new(
        BTreeMap::from([(
            EnvironmentName::production(),
            Allowed::Only(subjects(&["group:release", "user:alice"])),
        )]),
        Allowed::Everyone,
    );
    let p = Policed::at_v1(pulp, policy, BEFORE_FREEZE).await;
    let before = p.pulp_state();
    assert_eq!(before.version, 1);

    let confirm = format!(
        "/repos/{}/deploy/confirm?version=3&env=production",
        p.production.id
    );
    let step = p.console.send_as("GET", &confirm, "carol", "dev", "").await;
    assert_eq!(
        step.status, 403,
        "the confirm step already says so: {}",
        step.body
    );
    let refused = p.deploy("carol", "dev", 3, "").await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("only group:release, user:alice may deploy to production")
            && refused.body.contains("you are carol (groups dev)"),
        "names who may, and who asked: {}",
        refused.body
    );
    assert_eq!(p.pulp_state(), before, "Pulp unchanged");
    assert!(p.console.audit_lines().is_empty(), "nothing audited");

    // A member of group:release, named by the proxy's groups header, may.
    let member = p.deploy("bob", "dev, release", 3, "").await;
    assert_eq!(member.status, 200, "{}", member.body);
    p.deployed("bob", 3);
    p.timing("a deployer refused, a member deploys");
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_request_is_approved_by_someone_else_not_by_its_requester_then_deployed() {
    let pulp = required_pulp();
    let _guard = exclusive(REPO).await;
    let p = Policed::at_v1(pulp, four_eyes(), BEFORE_FREEZE).await;
    let before = p.pulp_state();

    let asked = p
        .deploy("alice", "dev", 3, "&reason=CVE-2026-1234+fixed")
        .await;
    let id = request_id(&asked);
    for fact in [
        REPO,
        "production",
        "v1",
        "v3",
        "alice",
        "CVE-2026-1234 fixed",
    ] {
        assert!(asked.body.contains(fact), "{fact}: {}", asked.body);
    }
    assert_eq!(p.pulp_state(), before, "a request changes nothing in Pulp");
    assert!(p.console.audit_lines().is_empty(), "nothing deployed yet");
    assert_eq!(p.state_of(&id).await, "pending");

    let own = p.approve(&id, "alice", "dev,release").await;
    assert_eq!(own.status, 403, "self-approval: {}", own.body);
    assert!(
        own.body.contains("someone else must approve"),
        "{}",
        own.body
    );
    assert_eq!(p.pulp_state(), before);
    assert_eq!(p.state_of(&id).await, "pending");

    let approved = p.approve(&id, "bob", "release").await;
    assert_eq!(approved.status, 200, "{}", approved.body);
    assert_eq!(p.state_of(&id).await, "executed");
    assert_eq!(
        p.request_events(&id),
        ["requested", "approved", "executed"],
        "requests.jsonl"
    );
    let (outcome, after) = p.deployed("alice", 3);
    assert_eq!(outcome["reason"], "CVE-2026-1234 fixed");
    assert_eq!(outcome["request"]["request_id"], id.as_str());
    assert_eq!(outcome["request"]["requester"], "alice");
    assert_eq!(outcome["request"]["approvers"], json!(["bob"]));
    assert!(outcome.get("freeze_override").is_none(), "{outcome}");
    assert_eq!(
        after.publications,
        before.publications + 1,
        "the approved deploy published v3 once"
    );
    p.timing("request, self-approval refused, approved and deployed");
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_request_made_before_production_moved_in_pulp_is_stale_and_changes_nothing() {
    let pulp = required_pulp();
    let _guard = exclusive(REPO).await;
    let p = Policed::at_v1(pulp, four_eyes(), BEFORE_FREEZE).await;
    let id = request_id(&p.deploy("alice", "dev", 3, "").await);

    // An operator moves production with Pulp's API, behind the console's back.
    let moved = p.point(2);

    let stale = p.approve(&id, "bob", "release").await;
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert!(stale.body.contains("stale"), "{}", stale.body);
    assert_eq!(p.state_of(&id).await, "stale");
    assert_eq!(
        p.request_events(&id),
        ["requested", "stale"],
        "requests.jsonl"
    );
    assert_eq!(p.pulp_state(), moved, "Pulp unchanged by the console");
    assert!(p.console.audit_lines().is_empty(), "nothing deployed");

    let again = p.approve(&id, "dave", "release").await;
    assert_eq!(
        again.status, 409,
        "a stale request stays closed: {}",
        again.body
    );
    assert_eq!(p.pulp_state(), moved);
    p.timing("stale request");
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_freeze_refuses_a_deploy_and_an_overrider_deploys_through_it_with_a_reason() {
    let pulp = required_pulp();
    let _guard = exclusive(REPO).await;
    let production = EnvironmentName::production();
    let frozen = Policy::default()
        .with_freezes(BTreeMap::from([(
            production.clone(),
            vec![FreezeWindow::interval(WINDOW).expect("a window")],
        )]))
        .with_overriders(BTreeMap::from([(production, subjects(&["group:sre"]))]));
    let p = Policed::at_v1(pulp, frozen, IN_FREEZE).await;
    let before = p.pulp_state();

    let plain = p.deploy("carol", "dev", 2, "").await;
    assert_eq!(plain.status, 409, "{}", plain.body);
    assert!(
        plain.body.contains("data-refusal=\"freeze\"") && plain.body.contains("2027-01-04"),
        "a freeze, until when: {}",
        plain.body
    );
    let not_listed = p
        .deploy("carol", "dev", 2, "&override=1&reason=urgent")
        .await;
    assert_eq!(
        not_listed.status, 409,
        "not in override: {}",
        not_listed.body
    );
    let not_asked = p.deploy("sam", "sre", 2, "&reason=urgent").await;
    assert_eq!(
        not_asked.status, 409,
        "no override asked: {}",
        not_asked.body
    );
    assert!(
        not_asked.body.contains("data-refusal=\"freeze\""),
        "{}",
        not_asked.body
    );
    let no_reason = p.deploy("sam", "sre", 2, "&override=1").await;
    assert_eq!(no_reason.status, 422, "{}", no_reason.body);
    assert_eq!(p.pulp_state(), before, "Pulp unchanged");
    assert!(p.console.audit_lines().is_empty(), "nothing audited");

    let through = p
        .deploy(
            "sam",
            "sre",
            2,
            "&override=1&reason=CVE-2026-9999+exploited",
        )
        .await;
    assert_eq!(through.status, 200, "{}", through.body);
    let (outcome, _) = p.deployed("sam", 2);
    assert_eq!(outcome["reason"], "CVE-2026-9999 exploited");
    assert_eq!(outcome["freeze_override"]["window"], WINDOW);
    assert!(
        outcome["freeze_override"]["until"]
            .as_str()
            .is_some_and(|u| u.contains("2027-01-04")),
        "{outcome}"
    );
    assert!(
        outcome["timestamp"]
            .as_str()
            .is_some_and(|t| t.starts_with("2026-12-24T18:00:00")),
        "stamped by the console's clock: {outcome}"
    );
    let lines = p.console.audit_lines();
    assert_eq!(
        lines[0]["freeze_override"], outcome["freeze_override"],
        "the started line marks the override too"
    );

    // After the window, anyone may deploy again, without an override.
    p.clock.advance(chrono::Duration::days(11));
    let form = format!("version=3&env=production&confirm={REPO}&live=2");
    let thawed = p
        .console
        .send_as(
            "POST",
            &format!("/repos/{}/deploy", p.production.id),
            "carol",
            "dev",
            &form,
        )
        .await;
    assert_eq!(thawed.status, 200, "after the freeze: {}", thawed.body);
    assert_eq!(p.pulp_state().version, 3);
    let last = p.console.audit_lines().pop().expect("audit lines");
    assert_eq!(
        (last["outcome"].as_str(), last["operator"].as_str()),
        (Some("deployed"), Some("carol"))
    );
    assert!(last.get("freeze_override").is_none(), "{last}");
    p.timing("freeze refused, override without reason 422, override with reason");
}
