//! Issue 50, item 2: a rollback pins, over the in-memory upstream. A rollback pins the
//! environment to the version it restored; an automatic promotion (a passing check) and a
//! due schedule are refused `pinned` (409) and move nothing, each as an attack; a person's
//! deploy goes on and lifts the pin (its confirm step says so); unpin with a reason by those
//! who may deploy there, refused to anyone else, without a reason, or where nothing is pinned.
//! The pin is shown on the versions page (`data-pin`), told in the repository's JSON answer,
//! kept in `pins.jsonl` beside the audit, and told as `pin.set` and `pin.lifted`; a release's
//! rollback pins each member; a damaged pin record holds automation back (not started) and
//! the page says so.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use chrono::Duration;
use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{demo, InMemoryPulp, ManualClock, MemoryScheduleStore};
use repo_console::domain::check::CheckName;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::event::EventData;
use repo_console::domain::identity::PersonName;
use repo_console::domain::policy::checks::CheckPolicy;
use repo_console::domain::policy::{Allowed, Policy};
use repo_console::domain::repository::{RepoId, VersionNumber};
use serde_json::{json, Value};

use crate::helpers::{pinned_time, verified, Reply};
use crate::schedules::{json_of, spawn_with_tokens};
use crate::test_app::TestApp;
use crate::web::{attr, select};

const CI: &str = "ci-staging-token-0001";
const DEPLOYER: &str = "deployer-token-0002";
const STAGER: &str = "stager-token-0003";

/// The console over `app`, with this file's own calls (its type is other files' too).
struct Pinned(TestApp<RepoId>);

impl std::ops::Deref for Pinned {
    type Target = TestApp<RepoId>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

/// `app` v1..v6; app-testing, app-staging and app-prod serve v1.
fn app_serving_v1(memory: &InMemoryPulp) -> RepoId {
    let id = memory.add_repo("app", verified());
    for n in 1..=6 {
        memory.add_version(&id, &[&format!("app-1.{n}")], &[]);
    }
    let v1 = memory.publish(&id, VersionNumber::new(1));
    for name in ["app-testing", "app-staging", "app-prod"] {
        memory.add_distribution(name, Some(&v1));
    }
    id
}

/// Production promotes by itself when `smoke` passes on staging, as user:promoter; everyone
/// may deploy everywhere (a token within its scopes).
fn auto_promoting() -> Policy {
    let production = EnvironmentName::production();
    let checks = CheckPolicy::new(
        BTreeMap::from([(production.clone(), vec![CheckName::parse("smoke").unwrap()])]),
        BTreeSet::from([production]),
        Some(PersonName::new("promoter").unwrap()),
    );
    Policy::new(BTreeMap::new(), Allowed::Everyone).with_checks(checks)
}

async fn spawn() -> Pinned {
    let tokens = BearerTokens::new(
        vec![
            crate::tokens::token("ci-staging", CI, &[], &["check:staging"]),
            crate::tokens::token("deployer", DEPLOYER, &[], &["deploy:*"]),
            crate::tokens::token("stager", STAGER, &[], &["deploy:staging"]),
        ],
        Some(Arc::new(
            TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
                .with_groups("X-Remote-Groups"),
        )),
        Arc::new(SystemClock),
    );
    Pinned(
        TestApp::builder()
            .world(app_serving_v1)
            .environments(demo::environments())
            .tokens(tokens)
            .policy(auto_promoting())
            .spawn()
            .await,
    )
}

fn json(reply: &Reply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

impl Pinned {
    async fn call(&self, method: &str, path: &str, token: &str, body: &Value) -> Reply {
        let bearer = format!("Bearer {token}");
        let headers = [
            ("content-type", "application/json"),
            ("authorization", bearer.as_str()),
        ];
        self.client
            .send(method, path, &headers, &body.to_string())
            .await
    }

    /// Staging serves `n` (behind the console's back), and `smoke` passes there for it.
    async fn passes_on_staging(&self, n: u64) -> Value {
        let publication = self.memory.publish(&self.fixture, VersionNumber::new(n));
        self.memory.point_distribution("app-staging", &publication);
        let body = json!({"repository": "app", "environment": "staging", "version": n,
            "name": "smoke", "passed": true, "url": format!("https://ci.example.com/runs/{n}")});
        let reply = self.call("POST", "/api/v1/checks", CI, &body).await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        json(&reply)["promotion"].clone()
    }

    async fn deploy(&self, token: &str, body: Value) -> Reply {
        let path = format!("/api/v1/repositories/{}/deployments", self.fixture);
        self.call("POST", &path, token, &body).await
    }

    async fn unpin(&self, token: &str, environment: &str, body: Value) -> Reply {
        let path = format!(
            "/api/v1/repositories/{}/environments/{environment}/unpin",
            self.fixture
        );
        self.call("POST", &path, token, &body).await
    }

    fn production_serves(&self) -> Option<u64> {
        self.memory.serving_version("app-prod").map(|n| n.get())
    }

    /// Production's entry in the repository's JSON answer.
    async fn production(&self) -> Value {
        let reply = self
            .client
            .get(&format!("/api/v1/repositories/{}", self.fixture))
            .await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let environments = json(&reply)["environments"].as_array().unwrap().clone();
        environments
            .into_iter()
            .find(|e| e["name"] == "production")
            .unwrap()
    }

    fn pin_lines(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.audit_path.with_file_name("pins.jsonl"))
            .unwrap_or_default();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// v2 then v3 promoted by passing checks, then production rolled back to v2 by hand.
    async fn rolled_back_to_v2(&self) {
        for n in [2, 3] {
            let promotion = self.passes_on_staging(n).await;
            assert_eq!(promotion["outcome"], "deployed", "{promotion}");
        }
        let rollback = self
            .deploy(
                DEPLOYER,
                json!({"version": 2, "expected_current": 3, "rollback": true,
                    "reason": "v3 breaks logins"}),
            )
            .await;
        assert_eq!(rollback.status, 200, "{}", rollback.body);
        assert_eq!(self.production_serves(), Some(2));
    }
}

/// The attack of issue 50: once production is rolled back, the next passing check must not
/// promote the bad (or any) version again by itself.
#[tokio::test]
async fn after_a_rollback_a_passing_check_promotes_nothing_and_is_refused_pinned() {
    let app = spawn().await;
    app.rolled_back_to_v2().await;
    let pin = app.production().await["pin"].clone();
    assert_eq!(pin["version"], 2, "{pin}");
    assert_eq!(pin["set_by"], "deployer");
    assert_eq!(pin["reason"], "v3 breaks logins");

    // The claim of a refused promotion is given back: every later report is refused too.
    for n in [4, 4] {
        let promotion = app.passes_on_staging(n).await;
        assert_eq!(promotion["outcome"], "refused", "{promotion}");
        assert_eq!(promotion["code"], "pinned", "{promotion}");
        let message = promotion["message"].as_str().unwrap();
        assert!(message.contains("production is pinned to v2"), "{message}");
        assert!(message.contains("deployer"), "{message}");
        assert_eq!(app.production_serves(), Some(2), "nothing moved");
    }
    let records: Vec<String> = app
        .pin_lines()
        .iter()
        .map(|l| l["record"]["record"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        records,
        ["set", "held", "held"],
        "each move held back is kept"
    );
    let deployed: Vec<Value> = app
        .audit_lines()
        .into_iter()
        .filter(|l| l["outcome"] == "deployed")
        .collect();
    assert_eq!(deployed.len(), 3, "v2, v3, the rollback: nothing after");
}

/// A person's deploy goes on through the pin and lifts it; automation moves again after.
#[tokio::test]
async fn a_person_s_deploy_lifts_the_pin_and_automation_moves_again_after() {
    let app = spawn().await;
    app.rolled_back_to_v2().await;
    assert_eq!(app.passes_on_staging(4).await["code"], "pinned");

    // The confirm step says the deploy lifts the pin.
    let modal = app
        .client
        .get(&format!(
            "/repos/{}/deploy/confirm?version=4&env=production",
            app.fixture
        ))
        .await;
    assert_eq!(modal.status, 200, "{}", modal.body);
    let html = modal.html();
    let notice = select(&html, "[data-pin-notice]");
    assert_eq!(notice.len(), 1, "{}", modal.body);
    assert_eq!(attr(&notice[0], "data-pin-notice"), "lift");
    assert_eq!(attr(&notice[0], "data-pin"), "production");

    let deployed = app
        .deploy(DEPLOYER, json!({"version": 4, "expected_current": 2}))
        .await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(app.production_serves(), Some(4));
    assert_eq!(app.production().await.get("pin"), None, "lifted");
    let last = app.pin_lines().last().cloned().unwrap();
    assert_eq!(last["record"]["record"], "lifted");
    assert_eq!(last["record"]["how"]["by"], "deploy");
    assert_eq!(last["record"]["how"]["to_version"], 4);
    assert_eq!(last["record"]["by"], "deployer");

    let promotion = app.passes_on_staging(5).await;
    assert_eq!(promotion["outcome"], "deployed", "{promotion}");
    assert_eq!(app.production_serves(), Some(5));
}

/// Unpin: refused to a caller who may not deploy to production, without a reason, and where
/// nothing is pinned; then done by a deployer, with its reason, and automation moves again.
#[tokio::test]
async fn unpin_is_refused_to_anyone_who_may_not_deploy_there_and_lifts_with_a_reason() {
    let app = spawn().await;
    let nothing = app
        .unpin(DEPLOYER, "production", json!({"reason": "tidy"}))
        .await;
    assert_eq!(nothing.status, 409, "{}", nothing.body);
    assert_eq!(json(&nothing)["error"]["code"], "not_pinned");
    app.rolled_back_to_v2().await;

    let stager = app
        .unpin(STAGER, "production", json!({"reason": "I want v4"}))
        .await;
    assert_eq!(stager.status, 403, "{}", stager.body);
    let ci = app
        .unpin(CI, "production", json!({"reason": "ship it"}))
        .await;
    assert_eq!(ci.status, 403, "a check token may not unpin: {}", ci.body);
    let anonymous = app
        .client
        .send(
            "POST",
            &format!(
                "/api/v1/repositories/{}/environments/production/unpin",
                app.fixture
            ),
            &[("content-type", "application/json")],
            r#"{"reason": "nobody"}"#,
        )
        .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
    let blank = app
        .unpin(DEPLOYER, "production", json!({"reason": "  "}))
        .await;
    assert_eq!(blank.status, 422, "{}", blank.body);
    let moon = app.unpin(DEPLOYER, "moon", json!({"reason": "x"})).await;
    assert_eq!(moon.status, 404, "{}", moon.body);
    assert_eq!(
        app.production().await["pin"]["version"],
        2,
        "every refusal left the pin"
    );
    assert_eq!(app.passes_on_staging(4).await["code"], "pinned");

    let unpinned = app
        .unpin(DEPLOYER, "production", json!({"reason": "v4 fixes logins"}))
        .await;
    assert_eq!(unpinned.status, 200, "{}", unpinned.body);
    let lift = json(&unpinned);
    assert_eq!(lift["version"], 2);
    assert_eq!(lift["by"], "deployer");
    assert_eq!(lift["reason"], "v4 fixes logins");
    assert_eq!(lift["how"], "unpin");
    assert_eq!(app.production().await.get("pin"), None);
    let promotion = app.passes_on_staging(5).await;
    assert_eq!(promotion["outcome"], "deployed", "{promotion}");
}

/// The versions page shows the pin (who, why, since when, moves held back) and its unpin
/// form; the form lifts it.
#[tokio::test]
async fn the_versions_page_shows_the_pin_and_its_form_unpins() {
    let app = spawn().await;
    app.rolled_back_to_v2().await;
    app.passes_on_staging(4).await;
    let page = app
        .client
        .get(&format!("/repos/{}/versions", app.fixture))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let html = page.html();
    let pins = select(&html, "[data-pin]");
    assert_eq!(pins.len(), 1, "{}", page.body);
    assert_eq!(attr(&pins[0], "data-pin"), "production");
    assert_eq!(attr(&pins[0], "data-pin-version"), "2");
    assert_eq!(attr(&pins[0], "data-pin-by"), "deployer");
    assert_eq!(attr(&pins[0], "data-pin-held"), "1");
    assert_eq!(
        crate::web::text(&select(&html, "[data-pin-reason]")[0]),
        "v3 breaks logins"
    );
    assert_eq!(select(&html, "form[data-unpin=production]").len(), 1);

    let path = format!("/repos/{}/environments/production/unpin", app.fixture);
    let blank = app.send_as("POST", &path, "operator", "", "reason=").await;
    assert_eq!(blank.status, 422, "{}", blank.body);
    let form = app
        .send_as("POST", &path, "operator", "", "reason=v4+fixes+logins")
        .await;
    assert_eq!(form.status, 303, "{}", form.body);
    assert_eq!(app.production().await.get("pin"), None);
    let page = app
        .client
        .get(&format!("/repos/{}/versions", app.fixture))
        .await;
    assert!(select(&page.html(), "[data-pin]").is_empty());
}

/// The attack of issue 50 on schedules: a deploy scheduled before the rollback is refused
/// `pinned` at its time, the schedule ended as refused with `schedule.refused`; `pin.set` was
/// told when the rollback pinned.
#[tokio::test]
async fn a_due_schedule_made_before_the_rollback_is_refused_pinned() {
    let alice = "alice-token-0123456789";
    let tokens = BearerTokens::new(
        vec![
            crate::tokens::token("alice", alice, &["release"], &["deploy:*"])
                .owned_by(PersonName::new("alice").unwrap()),
        ],
        None,
        Arc::new(SystemClock),
    );
    let clock = Arc::new(ManualClock::new(pinned_time()));
    let s = spawn_with_tokens(
        Policy::new(BTreeMap::new(), Allowed::Everyone),
        Arc::new(MemoryScheduleStore::default()),
        tokens,
        clock,
    )
    .await;
    let made = s.schedule(alice, "2026-11-22T11:00:00Z").await;
    assert_eq!(made.status, 202, "{}", made.body);
    let path = format!("/api/v1/repositories/{}/deployments", s.app.fixture.base_os);
    let forward = s
        .call(
            "POST",
            &path,
            alice,
            &json!({"version": 3, "expected_current": 2}),
        )
        .await;
    assert_eq!(forward.status, 200, "{}", forward.body);
    let back = json!({"version": 2, "expected_current": 3, "rollback": true,
        "reason": "v3 corrupts the cache"});
    let rollback = s.call("POST", &path, alice, &back).await;
    assert_eq!(rollback.status, 200, "{}", rollback.body);
    assert_eq!(s.serving(), Some(2));

    s.clock.advance(Duration::hours(1));
    assert_eq!(s.run().await.ran, 1);
    assert_eq!(s.serving(), Some(2), "nothing moved");
    let listed = &s.schedules().await[0];
    assert_eq!(listed["state"], "refused", "{listed}");
    let why = listed["message"].as_str().unwrap();
    assert!(why.contains("pinned to v2"), "{why}");

    let events = s.outbox.events();
    let set: Vec<_> = events
        .iter()
        .filter_map(|e| match &e.data {
            EventData::PinSet(pin) => Some(pin),
            _ => None,
        })
        .collect();
    assert_eq!(set.len(), 1, "{events:?}");
    assert_eq!(set[0].version.get(), 2);
    assert_eq!(set[0].reason, "v3 corrupts the cache");
    assert!(events
        .iter()
        .any(|e| matches!(e.data, EventData::ScheduleRefused(_))));

    // A person's deploy lifts it: pin.lifted told.
    let lifted = s
        .call(
            "POST",
            &path,
            alice,
            &json!({"version": 4, "expected_current": 2}),
        )
        .await;
    assert_eq!(lifted.status, 200, "{}", lifted.body);
    assert!(s
        .outbox
        .events()
        .iter()
        .any(|e| matches!(&e.data, EventData::PinLifted(l) if l.by == "alice")));
    let _ = json_of(&lifted);
}

/// A release's rollback pins each member it moved, to the version it restored.
#[tokio::test]
async fn a_release_rollback_pins_each_member() {
    use crate::releases::{app, MEMBERS};
    let app = app(&MEMBERS).spawn().await;
    let post = |body: String| {
        let client = &app.client;
        async move {
            let headers = [
                ("content-type", "application/x-www-form-urlencoded"),
                ("hx-request", "true"),
            ];
            client
                .send("POST", "/releases/el9/promote", &headers, &body)
                .await
        }
    };
    let mut forward = "env=production&confirm=el9".to_owned();
    let mut back = "env=production&confirm=el9&rollback=1&reason=broke+yum".to_owned();
    for m in MEMBERS {
        forward.push_str(&format!("&version.{m}=2&current.{m}=1"));
        back.push_str(&format!("&version.{m}=1&current.{m}=2"));
    }
    assert_eq!(post(forward).await.status, 200);
    let pins = app.audit_path.with_file_name("pins.jsonl");
    assert!(!pins.exists(), "a forward promotion pins nothing");
    let rolled = post(back).await;
    assert_eq!(rolled.status, 200, "{}", rolled.body);
    let text = std::fs::read_to_string(pins).unwrap();
    let set: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["record"].clone())
        .collect();
    assert_eq!(set.len(), MEMBERS.len(), "{text}");
    for (record, member) in set.iter().zip(MEMBERS) {
        assert_eq!(record["record"], "set");
        assert_eq!(record["environment"], "production");
        assert_eq!(record["version"], 1);
        assert_eq!(record["reason"], "broke yum");
        assert!(
            record["repository_name"].as_str().unwrap().contains(member),
            "{record}"
        );
    }
}

/// The attack on the store: a pin record damaged on disk must not free the environment. A
/// passing check is then not started (nothing moves), the versions page says the pins cannot
/// be read, and a person's deploy still goes on.
#[tokio::test]
async fn a_damaged_pin_record_holds_automation_back_and_says_so() {
    let app = spawn().await;
    app.rolled_back_to_v2().await;
    let path = app.audit_path.with_file_name("pins.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    // A lift of the pin, torn after its key: it must not read as lifted.
    let key = format!("{}/production", app.fixture);
    text.push_str(&format!(
        "{{\"pin\":\"{key}\",\"record\":{{\"record\":\"lifted\",\"by\":\n"
    ));
    std::fs::write(&path, text).unwrap();

    let promotion = app.passes_on_staging(4).await;
    assert_eq!(promotion["outcome"], "not_started", "{promotion}");
    let message = promotion["message"].as_str().unwrap();
    assert!(message.contains("pin"), "{message}");
    assert_eq!(app.production_serves(), Some(2), "nothing moved");

    let page = app
        .client
        .get(&format!("/repos/{}/versions", app.fixture))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(select(&page.html(), "#pins-unreadable").len(), 1);
    let api = app
        .client
        .get(&format!("/api/v1/repositories/{}", app.fixture))
        .await;
    let unreadable = json(&api)["pins_unreadable"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(!unreadable.is_empty(), "the API says so too: {}", api.body);

    let by_hand = app
        .deploy(DEPLOYER, json!({"version": 4, "expected_current": 2}))
        .await;
    assert_eq!(
        by_hand.status, 200,
        "a person's deploy goes on: {}",
        by_hand.body
    );
    assert_eq!(app.production_serves(), Some(4));
}
