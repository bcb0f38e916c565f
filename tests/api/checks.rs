//! Issue 39 over the in-memory upstream: checks reported by a `check:` token, kept, listed and
//! shown; required checks refusing a deploy (409 checks_missing) unless overridden with a
//! reason; automatic promotion through the deploy use case, once, never backwards, or a
//! request where approvals are needed; a check only for a version its environment serves or
//! served (409 not_served, nothing kept, nothing promoted). Every refusal as an attack: a `deploy:` token
//! reporting a check, a `check:` token deploying or reporting elsewhere, no token at all.

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroU32;
use std::sync::Arc;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{demo, Fault, InMemoryPulp, Op};
use repo_console::domain::check::CheckName;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::PersonName;
use repo_console::domain::policy::checks::CheckPolicy;
use repo_console::domain::policy::{Allowed, Approvals, Policy, Subject};
use repo_console::domain::repository::{RepoId, VersionNumber};
use serde_json::Value;

use crate::helpers::{verified, Reply};
use crate::test_app::TestApp;
use crate::web::{attr, select};

const CI: &str = "ci-staging-token-0001";
const DEPLOYER: &str = "deployer-token-0002";
const SRE: &str = "sre-token-0003";
const CI_PROD: &str = "ci-production-token-4";

type Checked = TestApp<RepoId>;

/// `app` v1..v4; app-testing, app-staging and app-prod serve v1.
fn app_serving_v1(memory: &InMemoryPulp) -> RepoId {
    let id = memory.add_repo("app", verified());
    memory.add_version(&id, &["hello-1.0"], &[]);
    memory.add_version(&id, &["world-2.0"], &[]);
    memory.add_version(&id, &["hello-1.1"], &["hello-1.0"]);
    memory.add_version(&id, &["extra-0.1"], &[]);
    let v1 = memory.publish(&id, VersionNumber::new(1));
    for name in ["app-testing", "app-staging", "app-prod"] {
        memory.add_distribution(name, Some(&v1));
    }
    id
}

fn env(name: &str) -> EnvironmentName {
    EnvironmentName::parse(name).unwrap()
}

/// Production requires `smoke` on staging; `auto` promotes there by itself as user:promoter;
/// `approvals` it needs; user:sre may override.
fn policy(auto: bool, approvals: u32) -> Policy {
    let production = env("production");
    let required = BTreeMap::from([(production.clone(), vec![CheckName::parse("smoke").unwrap()])]);
    let promoting = if auto {
        BTreeSet::from([production.clone()])
    } else {
        BTreeSet::new()
    };
    let checks = CheckPolicy::new(
        required,
        promoting,
        Some(PersonName::new("promoter").unwrap()),
    );
    let mut policy = Policy::new(BTreeMap::new(), Allowed::Everyone)
        .with_overriders(BTreeMap::from([(
            production.clone(),
            vec![
                Subject::parse("user:sre").unwrap(),
                Subject::parse("token:sre").unwrap(),
            ],
        )]))
        .with_checks(checks);
    if let Some(needed) = NonZeroU32::new(approvals) {
        let approvers = vec![Subject::parse("group:release").unwrap()];
        policy = policy.with_approvals(BTreeMap::from([(
            production,
            Approvals::new(needed, approvers).unwrap(),
        )]));
    }
    policy
}

async fn spawn(policy: Policy) -> Checked {
    let tokens = BearerTokens::new(
        vec![
            crate::tokens::token("ci-staging", CI, &[], &["check:staging"]),
            crate::tokens::token("ci-production", CI_PROD, &[], &["check:production"]),
            crate::tokens::token("deployer", DEPLOYER, &[], &["deploy:*"]),
            crate::tokens::token("sre", SRE, &[], &["deploy:*"]),
        ],
        Some(Arc::new(
            TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
                .with_groups("X-Remote-Groups"),
        )),
        Arc::new(SystemClock),
    );
    TestApp::builder()
        .world(app_serving_v1)
        .environments(demo::environments())
        .tokens(tokens)
        .policy(policy)
        .requests()
        .spawn()
        .await
}

impl Checked {
    async fn call_api(&self, method: &str, path: &str, token: Option<&str>, body: &str) -> Reply {
        let bearer = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![("content-type", "application/json")];
        if let Some(bearer) = &bearer {
            headers.push(("authorization", bearer.as_str()));
        }
        self.client.send(method, path, &headers, body).await
    }

    async fn report_check(&self, token: &str, env: &str, version: u64, passed: bool) -> Reply {
        let body = format!(
            r#"{{"repository": "app", "environment": "{env}", "version": {version}, "name": "smoke", "passed": {passed}, "url": "https://ci.example.com/runs/{version}"}}"#
        );
        self.call_api("POST", "/api/v1/checks", Some(token), &body)
            .await
    }

    async fn deploy_api(&self, token: &str, version: u64, expected: u64, extra: &str) -> Reply {
        let body = format!(
            r#"{{"version": {version}, "environment": "production", "expected_current": {expected}{extra}}}"#
        );
        let path = format!("/api/v1/repositories/{}/deployments", self.fixture);
        self.call_api("POST", &path, Some(token), &body).await
    }

    /// Points `distribution` at version `n` in Pulp, behind the console's back (as an
    /// operator with pulp-cli would), so that its environment serves `n`.
    fn serve(&self, distribution: &str, n: u64) {
        let publication = self.memory.publish(&self.fixture, VersionNumber::new(n));
        self.memory.point_distribution(distribution, &publication);
    }

    /// Staging serves version `n`: a check on staging may be reported for it.
    fn stage(&self, n: u64) {
        self.serve("app-staging", n);
    }

    fn production_serves(&self) -> Option<u64> {
        self.memory.serving_version("app-prod").map(|n| n.get())
    }

    fn deployed_lines(&self) -> Vec<Value> {
        self.audit_lines()
            .into_iter()
            .filter(|l| l["outcome"] == "deployed")
            .collect()
    }

    fn check_file(&self) -> String {
        let path = self.audit_path.with_file_name("checks.jsonl");
        std::fs::read_to_string(path).unwrap_or_default()
    }
}

fn json(reply: &Reply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

fn code(reply: &Reply) -> String {
    json(reply)["error"]["code"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

#[tokio::test]
async fn a_check_is_recorded_listed_replaced_by_a_later_report_and_shown_on_the_versions_page() {
    let app = spawn(policy(false, 0)).await;
    app.stage(3);
    let failed = app.report_check(CI, "staging", 3, false).await;
    assert_eq!(failed.status, 201, "{}", failed.body);
    let body = json(&failed);
    assert_eq!(body["check"]["state"], "failed");
    assert_eq!(body["check"]["repository_uuid"], app.fixture.as_str());
    assert_eq!(body["check"]["reporter"], "ci-staging");
    assert_eq!(
        body["promotion"],
        Value::Null,
        "production does not promote by itself"
    );
    let passed = app.report_check(CI, "staging", 3, true).await;
    assert_eq!(passed.status, 201, "{}", passed.body);
    let listed = app
        .call_api(
            "GET",
            &format!("/api/v1/checks?repository={}&version=3", app.fixture),
            None,
            "",
        )
        .await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    let items = json(&listed)["items"].as_array().unwrap().clone();
    assert_eq!(
        items.len(),
        1,
        "the later report replaced the earlier: {items:?}"
    );
    assert_eq!(items[0]["state"], "passed");
    assert_eq!(items[0]["url"], "https://ci.example.com/runs/3");
    let by_name = app
        .call_api("GET", "/api/v1/checks?repository=app", None, "")
        .await;
    assert_eq!(json(&by_name)["items"].as_array().unwrap().len(), 1);
    assert_eq!(
        app.check_file().lines().count(),
        2,
        "every report is kept (audit)"
    );
    assert!(app.check_file().contains("\"reporter\":\"ci-staging\""));

    let page = app.get(&format!("/repos/{}/versions", app.fixture)).await;
    let html = page.html();
    let badges = select(&html, "tr[data-version=\"3\"] [data-check=\"smoke\"]");
    assert_eq!(badges.len(), 1, "{}", page.body);
    assert_eq!(attr(&badges[0], "data-check-state"), "passed");
    assert_eq!(attr(&badges[0], "data-check-env"), "staging");
    assert_eq!(attr(&badges[0], "href"), "https://ci.example.com/runs/3");
    assert!(select(&html, "tr[data-version=\"2\"] [data-check]").is_empty());
}

#[tokio::test]
async fn a_report_out_of_its_tokens_reach_is_refused_and_keeps_nothing() {
    let app = spawn(policy(false, 0)).await;
    let as_deployer = app.report_check(DEPLOYER, "staging", 3, true).await;
    assert_eq!(as_deployer.status, 403, "a deploy: token reports no check");
    assert!(
        as_deployer.body.contains("check:staging"),
        "{}",
        as_deployer.body
    );
    let elsewhere = app.report_check(CI, "production", 3, true).await;
    assert_eq!(
        elsewhere.status, 403,
        "check:staging reports nothing in production"
    );
    let anonymous = app
        .call_api("POST", "/api/v1/checks", None, r#"{"repository": "app", "environment": "staging", "version": 3, "name": "smoke", "passed": true}"#)
        .await;
    assert_eq!(anonymous.status, 401);
    let as_person = app
        .client
        .send(
            "POST",
            "/api/v1/checks",
            &[
                ("content-type", "application/json"),
                ("x-remote-user", "alice"),
                ("x-remote-groups", "release"),
            ],
            r#"{"repository": "app", "environment": "staging", "version": 3, "name": "smoke", "passed": true}"#,
        )
        .await;
    assert_eq!(
        as_person.status, 403,
        "a person is not a pipeline's token: {}",
        as_person.body
    );
    assert!(
        as_person.body.contains("alice is not a token"),
        "{}",
        as_person.body
    );
    assert_eq!(app.check_file(), "", "nothing kept");

    let cases = [
        (
            r#"{"repository": "app", "environment": "moon", "version": 3, "name": "smoke", "passed": true}"#,
            404,
        ),
        (
            r#"{"repository": "nope", "environment": "staging", "version": 3, "name": "smoke", "passed": true}"#,
            404,
        ),
        (
            r#"{"repository": "app", "environment": "staging", "version": 99, "name": "smoke", "passed": true}"#,
            404,
        ),
        (
            r#"{"repository": "app", "environment": "staging", "version": 3, "name": "Smoke Test", "passed": true}"#,
            422,
        ),
        (
            r#"{"repository": "app", "environment": "staging", "version": 3, "name": "smoke", "passed": true, "url": "javascript:alert(1)"}"#,
            422,
        ),
        (
            r#"{"repository": "app", "environment": "staging", "version": 3, "name": "smoke"}"#,
            422,
        ),
    ];
    for (body, status) in cases {
        let reply = app.call_api("POST", "/api/v1/checks", Some(CI), body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
    }
    assert_eq!(app.check_file(), "", "nothing kept");
}

const CI_TESTING: &str = "ci-testing-token-0005";

/// Staging requires `smoke` passed on testing and takes a version by itself when it has.
fn staging_promotes_from_testing() -> Policy {
    let staging = env("staging");
    let checks = CheckPolicy::new(
        BTreeMap::from([(staging.clone(), vec![CheckName::parse("smoke").unwrap()])]),
        BTreeSet::from([staging]),
        Some(PersonName::new("promoter").unwrap()),
    );
    Policy::new(BTreeMap::new(), Allowed::Everyone).with_checks(checks)
}

async fn spawn_testing_checks() -> Checked {
    let tokens = BearerTokens::new(
        vec![
            crate::tokens::token("ci-testing", CI_TESTING, &[], &["check:testing"]),
            crate::tokens::token("deployer", DEPLOYER, &[], &["deploy:*"]),
        ],
        None,
        Arc::new(SystemClock),
    );
    TestApp::builder()
        .world(app_serving_v1)
        .environments(demo::environments())
        .tokens(tokens)
        .policy(staging_promotes_from_testing())
        .requests()
        .spawn()
        .await
}

#[tokio::test]
async fn a_check_for_a_version_its_environment_never_served_is_refused_and_promotes_nothing() {
    let app = spawn_testing_checks().await;
    let staging = || app.memory.serving_version("app-staging").map(|n| n.get());
    // Testing serves v1 and never served v3: a pipeline cannot vouch for it.
    let forged = app.report_check(CI_TESTING, "testing", 3, true).await;
    assert_eq!(forged.status, 409, "{}", forged.body);
    assert_eq!(code(&forged), "not_served");
    let message = json(&forged)["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.contains("testing never served version 3 of app"),
        "{message}"
    );
    assert_eq!(app.check_file(), "", "nothing kept");
    assert_eq!(staging(), Some(1), "nothing promoted");
    assert!(app.audit_lines().is_empty(), "no deploy was tried");
    let listed = app
        .call_api("GET", "/api/v1/checks?repository=app", None, "")
        .await;
    assert_eq!(json(&listed)["items"], serde_json::json!([]));

    // Testing deployed v2 through the console, then moved on to v4: v2 was served there
    // (the audit says so), v3 still never was.
    let deploy = format!("/api/v1/repositories/{}/deployments", app.fixture);
    for (version, current) in [(2, 1), (4, 2)] {
        let body = format!(
            r#"{{"version": {version}, "environment": "testing", "expected_current": {current}}}"#
        );
        let deployed = app.call_api("POST", &deploy, Some(DEPLOYER), &body).await;
        assert_eq!(deployed.status, 200, "{}", deployed.body);
    }
    let again = app.report_check(CI_TESTING, "testing", 3, true).await;
    assert_eq!(code(&again), "not_served", "{}", again.body);
    let earlier = app.report_check(CI_TESTING, "testing", 2, true).await;
    assert_eq!(earlier.status, 201, "served before: {}", earlier.body);
    assert_eq!(json(&earlier)["promotion"]["outcome"], "deployed");
    assert_eq!(staging(), Some(2), "a served version promotes");

    // Served now, behind the console's back: accepted, and promoted.
    app.serve("app-testing", 3);
    let served = app.report_check(CI_TESTING, "testing", 3, true).await;
    assert_eq!(served.status, 201, "{}", served.body);
    assert_eq!(staging(), Some(3));
}

#[tokio::test]
async fn when_what_the_environment_served_cannot_be_read_a_check_is_not_recorded() {
    let tokens = BearerTokens::new(
        vec![crate::tokens::token(
            "ci-testing",
            CI_TESTING,
            &[],
            &["check:testing"],
        )],
        None,
        Arc::new(SystemClock),
    );
    let app = TestApp::builder()
        .world(app_serving_v1)
        .environments(demo::environments())
        .tokens(tokens)
        .policy(staging_promotes_from_testing())
        .requests()
        .configure(|state| {
            state.audit(Arc::new(
                repo_console::adapters::audit_stdout::StdoutAuditSink::default(),
            ))
        })
        .spawn()
        .await;
    app.pulp.set(Op::DistributionChanges, Fault::Http(500));
    let unproven = app.report_check(CI_TESTING, "testing", 3, true).await;
    assert_eq!(unproven.status, 503, "{}", unproven.body);
    assert!(
        unproven
            .body
            .contains("what testing served could not be read"),
        "{}",
        unproven.body
    );
    assert_eq!(app.check_file(), "", "nothing kept");
    assert_eq!(
        app.memory.serving_version("app-staging").map(|n| n.get()),
        Some(1)
    );
    let served_now = app.report_check(CI_TESTING, "testing", 1, true).await;
    assert_eq!(
        served_now.status, 201,
        "what testing serves now needs no history: {}",
        served_now.body
    );
}

#[tokio::test]
async fn a_check_token_cannot_deploy() {
    let app = spawn(policy(false, 0)).await;
    app.stage(3);
    app.report_check(CI, "staging", 3, true).await;
    let deploy = app.deploy_api(CI, 3, 1, "").await;
    assert_eq!(deploy.status, 403, "{}", deploy.body);
    assert!(deploy.body.contains("deploy:production"), "{}", deploy.body);
    assert_eq!(app.production_serves(), Some(1));
}

#[tokio::test]
async fn a_deploy_without_its_required_checks_passed_is_refused_naming_them() {
    let app = spawn(policy(false, 0)).await;
    let missing = app.deploy_api(DEPLOYER, 3, 1, "").await;
    assert_eq!(missing.status, 409, "{}", missing.body);
    assert_eq!(code(&missing), "checks_missing");
    assert!(missing.body.contains("smoke missing"), "{}", missing.body);
    app.stage(3);
    app.report_check(CI, "staging", 3, false).await;
    let failed = app.deploy_api(DEPLOYER, 3, 1, "").await;
    assert_eq!(code(&failed), "checks_missing");
    assert!(failed.body.contains("smoke failed"), "{}", failed.body);
    assert_eq!(app.production_serves(), Some(1));
    assert!(
        app.audit_lines().is_empty(),
        "refused before anything: nothing audited"
    );

    let confirm = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=3&env=production",
            app.fixture
        ))
        .await;
    assert_eq!(confirm.status, 409, "{}", confirm.body);
    let html = confirm.html();
    let refusal = select(&html, "[data-refusal=\"checks_missing\"]");
    assert_eq!(refusal.len(), 1, "{}", confirm.body);
    let item = select(
        &html,
        "[data-refusal=\"checks_missing\"] [data-check=\"smoke\"]",
    );
    assert_eq!(attr(&item[0], "data-check-state"), "failed");

    let passed_elsewhere = app.report_check(CI_PROD, "production", 3, true).await;
    assert_eq!(
        passed_elsewhere.status, 409,
        "production never served v3: {}",
        passed_elsewhere.body
    );
    assert_eq!(code(&passed_elsewhere), "not_served");
    assert_eq!(
        code(&app.deploy_api(DEPLOYER, 3, 1, "").await),
        "checks_missing",
        "on staging, not production"
    );

    app.report_check(CI, "staging", 3, true).await;
    let confirm = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=3&env=production",
            app.fixture
        ))
        .await;
    assert_eq!(confirm.status, 200, "{}", confirm.body);
    let html = confirm.html();
    let listed = select(&html, "[data-required-checks] [data-check=\"smoke\"]");
    assert_eq!(
        attr(&listed[0], "data-check-state"),
        "passed",
        "the confirm step shows it"
    );
    let deployed = app.deploy_api(DEPLOYER, 3, 1, "").await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(app.production_serves(), Some(3));
    let rollback = app
        .deploy_api(
            DEPLOYER,
            1,
            3,
            r#", "rollback": true, "reason": "v3 broke dnf""#,
        )
        .await;
    assert_eq!(
        rollback.status, 200,
        "a rollback is not gated: {}",
        rollback.body
    );
}

#[tokio::test]
async fn an_override_of_the_required_checks_needs_the_list_and_a_reason_and_is_recorded() {
    let app = spawn(policy(false, 0)).await;
    let not_listed = app
        .deploy_api(DEPLOYER, 3, 1, r#", "override": true, "reason": "hotfix""#)
        .await;
    assert_eq!(
        code(&not_listed),
        "checks_missing",
        "only those listed in override"
    );
    let no_reason = app.deploy_api(SRE, 3, 1, r#", "override": true"#).await;
    assert_eq!(no_reason.status, 422, "{}", no_reason.body);
    assert_eq!(code(&no_reason), "reason_missing");
    let overridden = app
        .deploy_api(
            SRE,
            3,
            1,
            r#", "override": true, "reason": "CVE hotfix, smoke is down""#,
        )
        .await;
    assert_eq!(overridden.status, 200, "{}", overridden.body);
    let line = app.deployed_lines().pop().unwrap();
    assert_eq!(line["operator"], "sre");
    assert_eq!(line["checks_override"]["unmet"], "smoke missing");
    assert_eq!(line["checks_override"]["checked_in"], "staging");
    assert_eq!(line["reason"], "CVE hotfix, smoke is down");
    assert!(line.get("automation").is_none());
}

#[tokio::test]
async fn a_passing_check_promotes_the_version_by_itself_once_and_never_backwards() {
    let app = spawn(policy(true, 0)).await;
    app.stage(3);
    let failed = app.report_check(CI, "staging", 3, false).await;
    assert_eq!(
        json(&failed)["promotion"],
        Value::Null,
        "a failed check promotes nothing"
    );
    let passed = app.report_check(CI, "staging", 3, true).await;
    assert_eq!(passed.status, 201, "{}", passed.body);
    let promotion = json(&passed)["promotion"].clone();
    assert_eq!(promotion["environment"], "production");
    assert_eq!(promotion["outcome"], "deployed", "{promotion}");
    assert_eq!(app.production_serves(), Some(3));
    let lines = app.deployed_lines();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["operator"], "promoter");
    assert_eq!(lines[0]["automation"], true);
    assert_eq!(lines[0]["triggered_by"]["check"], "smoke");
    assert_eq!(lines[0]["triggered_by"]["environment"], "staging");
    assert_eq!(lines[0]["triggered_by"]["version"], 3);
    assert_eq!(lines[0]["triggered_by"]["reporter"], "ci-staging");
    let deploy_id = promotion["deploy_id"].as_str().unwrap();
    let read_back = app
        .call_api("GET", &format!("/api/v1/deployments/{deploy_id}"), None, "")
        .await;
    assert_eq!(
        json(&read_back)["triggered_by"]["check"],
        "smoke",
        "{}",
        read_back.body
    );
    assert_eq!(json(&read_back)["operator"], "promoter");
    let started: Vec<Value> = app
        .audit_lines()
        .into_iter()
        .filter(|l| l["outcome"] == "started")
        .collect();
    assert_eq!(
        started[0]["automation"], true,
        "every line of the deploy says so"
    );

    let again = app.report_check(CI, "staging", 3, true).await;
    assert_eq!(
        json(&again)["promotion"]["outcome"],
        "not_due",
        "{}",
        again.body
    );
    app.stage(2);
    let older = app.report_check(CI, "staging", 2, true).await;
    let older = json(&older)["promotion"].clone();
    assert_eq!(older["outcome"], "not_due");
    assert!(
        older["message"]
            .as_str()
            .unwrap()
            .contains("never moves an environment backwards"),
        "{older}"
    );
    assert_eq!(app.production_serves(), Some(3));
    assert_eq!(app.deployed_lines().len(), 1, "one promotion");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_same_report_twice_at_once_promotes_once() {
    let app = spawn(policy(true, 0)).await;
    app.stage(4);
    let (a, b) = futures::join!(
        app.report_check(CI, "staging", 4, true),
        app.report_check(CI, "staging", 4, true)
    );
    let outcomes: Vec<String> = [&a, &b]
        .iter()
        .map(|r| {
            json(r)["promotion"]["outcome"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    assert_eq!(
        outcomes.iter().filter(|o| *o == "deployed").count(),
        1,
        "{outcomes:?}"
    );
    assert_eq!(app.deployed_lines().len(), 1);
    assert_eq!(app.production_serves(), Some(4));
}

#[tokio::test]
async fn where_approvals_are_needed_the_promotion_opens_a_request() {
    let app = spawn(policy(true, 1)).await;
    app.stage(3);
    let passed = app.report_check(CI, "staging", 3, true).await;
    let promotion = json(&passed)["promotion"].clone();
    assert_eq!(promotion["outcome"], "requested", "{promotion}");
    assert!(promotion["request_id"].is_string());
    assert_eq!(
        app.production_serves(),
        Some(1),
        "nothing deployed before the approval"
    );
    let requests = app.call_api("GET", "/api/v1/requests", None, "").await;
    let items = json(&requests)["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["requester"], "promoter");
    assert_eq!(items[0]["target_version"], 3);
}

#[tokio::test]
async fn a_refused_promotion_is_given_back_for_a_later_report() {
    // Production frozen now: the promotion is refused before anything changes, and a report
    // after the freeze may try again.
    let window = repo_console::domain::policy::FreezeWindow::interval(
        "2026-11-22T00:00:00Z/2026-11-23T00:00:00Z",
    )
    .unwrap();
    let frozen = policy(true, 0).with_freezes(BTreeMap::from([(env("production"), vec![window])]));
    let app = spawn(frozen).await;
    app.stage(3);
    let passed = app.report_check(CI, "staging", 3, true).await;
    let promotion = json(&passed)["promotion"].clone();
    assert_eq!(promotion["outcome"], "refused", "{promotion}");
    assert_eq!(promotion["code"], "frozen");
    assert_eq!(app.production_serves(), Some(1));
    assert!(
        app.check_file().contains("\"line\":\"released\""),
        "{}",
        app.check_file()
    );
}

#[tokio::test]
async fn the_confirm_step_offers_the_override_to_those_listed_and_the_page_records_it() {
    let listed = policy(false, 0).with_overriders(BTreeMap::from([(
        env("production"),
        vec![Subject::parse("user:operator").unwrap()],
    )]));
    let app = spawn(listed).await;
    app.stage(3);
    app.report_check(CI, "staging", 3, false).await;
    let confirm = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=3&env=production",
            app.fixture
        ))
        .await;
    assert_eq!(
        confirm.status, 200,
        "offered, not refused: {}",
        confirm.body
    );
    let html = confirm.html();
    let listed = select(&html, "[data-required-checks] [data-check=\"smoke\"]");
    assert_eq!(attr(&listed[0], "data-check-state"), "failed");
    assert_eq!(
        select(&html, "#deploy-modal input[name=\"override\"]").len(),
        1
    );
    assert_eq!(
        select(&html, "#deploy-modal input[name=\"reason\"]").len(),
        1
    );

    let form = "version=3&env=production&confirm=app&live=1&override=1&reason=smoke+is+flaky+today";
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("hx-request", "true"),
    ];
    let path = format!("/repos/{}/deploy", app.fixture);
    let deployed = app.client.send("POST", &path, &headers, form).await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(app.production_serves(), Some(3));
    let line = app.deployed_lines().pop().unwrap();
    assert_eq!(line["operator"], "operator");
    assert_eq!(line["checks_override"]["unmet"], "smoke failed");
    assert_eq!(line["reason"], "smoke is flaky today");
}
