//! Issue 38, soak time over the in-memory upstream, on a clock the tests move: production
//! takes a version only once staging has served it for 24 hours (by the audit's record of
//! staging); the confirm step refuses early (409, `data-refusal="soak"`, `data-soak-until`)
//! and offers to schedule it for that moment; a redeploy to staging restarts the soak; an
//! override (the freeze's `override` list, with a reason) is recorded; rollbacks are exempt.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::Duration;
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{demo, InMemoryPulp, ManualClock, MemoryScheduleStore};
use repo_console::app::schedules::run::run_due;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Policy, SoakTime, Subject};
use repo_console::domain::repository::{RepoId, VersionNumber};

use crate::test_app::{pinned_time, TestApp};
use crate::web::{attr, enc, select, Reply};

type Soaking = TestApp<RepoId>;

/// `app` v1..v4; app-testing, app-staging and app-prod serve v1.
fn app_serving_v1(memory: &InMemoryPulp) -> RepoId {
    let id = memory.add_repo("app", crate::verified::verified());
    for package in ["a-1", "b-1", "c-1", "d-1"] {
        memory.add_version(&id, &[package], &[]);
    }
    let v1 = memory.publish(&id, VersionNumber::new(1));
    for name in ["app-testing", "app-staging", "app-prod"] {
        memory.add_distribution(name, Some(&v1));
    }
    id
}

/// Production soaks 24 hours behind staging; user:sre may override (with a reason).
async fn spawn(clock: Arc<ManualClock>) -> Soaking {
    let production = EnvironmentName::production();
    let policy = Policy::default()
        .with_soaks(BTreeMap::from([(
            production.clone(),
            SoakTime::parse("24h").unwrap(),
        )]))
        .with_overriders(BTreeMap::from([(
            production,
            vec![Subject::parse("user:sre").unwrap()],
        )]));
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()]);
    TestApp::builder()
        .world(app_serving_v1)
        .clock(clock)
        .identity(Arc::new(identity))
        .environments(demo::environments())
        .policy(policy)
        .configure(|state| {
            state.schedules(
                Arc::new(MemoryScheduleStore::default()),
                Duration::minutes(10),
            )
        })
        .spawn()
        .await
}

impl Soaking {
    async fn deploy_as(&self, user: &str, form: &str) -> Reply {
        let path = format!("/repos/{}/deploy", self.fixture);
        self.send_as("POST", &path, user, "", &format!("confirm=app&{form}"))
            .await
    }

    async fn confirm_as(&self, user: &str, version: u64, env: &str) -> Reply {
        let path = format!(
            "/repos/{}/deploy/confirm?version={version}&env={env}",
            self.fixture
        );
        self.send_as("GET", &path, user, "", "").await
    }
}

fn until_of(reply: &Reply, css: &str) -> String {
    let html = reply.html();
    let tagged = select(&html, css);
    assert_eq!(tagged.len(), 1, "{css} in {}", reply.body);
    attr(&tagged[0], "data-soak-until").to_owned()
}

#[tokio::test]
async fn production_takes_a_version_only_once_staging_served_it_for_the_soak() {
    let clock = Arc::new(ManualClock::new(pinned_time()));
    let app = spawn(clock.clone()).await;
    let staged = app.deploy_as("alice", "version=3&env=staging&live=1").await;
    assert_eq!(staged.status, 200, "{}", staged.body);
    clock.advance(Duration::hours(23));

    let preview = app.confirm_as("alice", 3, "production").await;
    assert_eq!(preview.status, 409, "refused early: {}", preview.body);
    assert_eq!(
        until_of(&preview, "[data-refusal='soak']"),
        "2026-11-23T10:00:00Z"
    );
    let at = select(&preview.html(), "input[name=at][required]")
        .first()
        .map(|e| attr(e, "value").to_owned());
    assert_eq!(
        at.as_deref(),
        Some("2026-11-23T10:00:00Z"),
        "offers to schedule it then"
    );
    let page = app.get(&format!("/repos/{}/versions", app.fixture)).await;
    assert_eq!(
        until_of(&page, "li[data-env='production'] [data-soak-until]"),
        "2026-11-23T10:00:00Z"
    );

    let refused = app
        .deploy_as("alice", "version=3&env=production&live=1")
        .await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(
        until_of(&refused, "[data-refusal='soak']"),
        "2026-11-23T10:00:00Z"
    );
    assert_eq!(app.production_version("app-prod"), Some(1));

    clock.advance(Duration::hours(1));
    let deployed = app
        .deploy_as("alice", "version=3&env=production&live=1")
        .await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(app.production_version("app-prod"), Some(3));
}

#[tokio::test]
async fn a_version_staging_does_not_serve_has_no_moment_and_a_redeploy_restarts_the_soak() {
    let clock = Arc::new(ManualClock::new(pinned_time()));
    let app = spawn(clock.clone()).await;
    let refused = app
        .deploy_as("alice", "version=2&env=production&live=1")
        .await;
    assert_eq!(refused.status, 409, "staging serves v1: {}", refused.body);
    assert!(
        refused.body.contains("deploy v2 to staging first"),
        "{}",
        refused.body
    );

    assert_eq!(
        app.deploy_as("alice", "version=3&env=staging&live=1")
            .await
            .status,
        200
    );
    clock.advance(Duration::hours(2));
    assert_eq!(
        app.deploy_as("alice", "version=4&env=staging&live=3")
            .await
            .status,
        200
    );
    clock.advance(Duration::hours(2));
    assert_eq!(
        app.deploy_as("alice", "version=3&env=staging&live=4")
            .await
            .status,
        200
    );
    clock.advance(Duration::hours(21));
    // 25 hours after v3 first reached staging, 21 after it came back.
    let refused = app
        .deploy_as("alice", "version=3&env=production&live=1")
        .await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(
        until_of(&refused, "[data-refusal='soak']"),
        "2026-11-23T14:00:00Z"
    );
}

#[tokio::test]
async fn an_override_goes_through_with_a_reason_and_is_recorded_and_a_rollback_is_exempt() {
    let clock = Arc::new(ManualClock::new(pinned_time()));
    let app = spawn(clock.clone()).await;
    assert_eq!(
        app.deploy_as("alice", "version=3&env=staging&live=1")
            .await
            .status,
        200
    );
    let preview = app.confirm_as("sre", 3, "production").await;
    assert_eq!(preview.status, 200, "theirs to override: {}", preview.body);
    assert_eq!(until_of(&preview, "[data-soak]"), "2026-11-23T10:00:00Z");

    let attacker = app
        .deploy_as(
            "mallory",
            "version=3&env=production&live=1&override=1&reason=trust%20me",
        )
        .await;
    assert_eq!(
        attacker.status, 409,
        "not listed in override: {}",
        attacker.body
    );
    let unexplained = app
        .deploy_as("sre", "version=3&env=production&live=1&override=1")
        .await;
    assert_eq!(unexplained.status, 422, "{}", unexplained.body);
    assert_eq!(app.production_version("app-prod"), Some(1));

    let form = format!(
        "version=3&env=production&live=1&override=1&reason={}",
        enc("CVE fix, tested by hand")
    );
    let through = app.deploy_as("sre", &form).await;
    assert_eq!(through.status, 200, "{}", through.body);
    let line = app.audit_lines().into_iter().last().unwrap();
    assert_eq!(line["environment"], "production");
    assert_eq!(line["soak_override"]["previous"], "staging");
    assert_eq!(line["soak_override"]["until"], "2026-11-23T10:00:00Z");
    assert_eq!(line["reason"], "CVE fix, tested by hand");

    let back = app
        .deploy_as(
            "alice",
            "version=1&env=production&live=3&rollback=1&reason=broke",
        )
        .await;
    assert_eq!(back.status, 200, "a rollback does not soak: {}", back.body);
    assert_eq!(app.production_version("app-prod"), Some(1));
}

#[tokio::test]
async fn a_deploy_may_be_scheduled_for_the_moment_it_will_have_soaked_and_not_before() {
    let clock = Arc::new(ManualClock::new(pinned_time()));
    let app = spawn(clock.clone()).await;
    assert_eq!(
        app.deploy_as("alice", "version=3&env=staging&live=1")
            .await
            .status,
        200
    );
    let early = app
        .deploy_as(
            "alice",
            &format!(
                "version=3&env=production&live=1&at={}",
                enc("2026-11-23T09:59:59Z")
            ),
        )
        .await;
    assert_eq!(early.status, 409, "{}", early.body);
    let made = app
        .deploy_as(
            "alice",
            &format!(
                "version=3&env=production&live=1&at={}",
                enc("2026-11-23T11:00:00+01:00")
            ),
        )
        .await;
    assert_eq!(made.status, 202, "{}", made.body);
    clock.advance(Duration::hours(24));
    assert_eq!(run_due(&app.state).await.unwrap().ran, 1);
    assert_eq!(
        app.production_version("app-prod"),
        Some(3),
        "soaked at its time"
    );
}
