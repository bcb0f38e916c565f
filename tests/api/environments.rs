//! Issue 23 over the in-memory upstream: a version promoted through testing, staging and
//! production; out of order warned, and refused where production requires staging; drift,
//! history and the dashboard per environment; a versions page that reads every
//! environment's distribution in one call.

use repo_console::adapters::memory::{demo, InMemoryPulp};
use repo_console::domain::environment::{EnvironmentName, EnvironmentPath};
use repo_console::domain::repository::{RepoId, VersionNumber};

use crate::helpers::{enc, verified, Reply};
use crate::test_app::TestApp;
use crate::web::{attr, select};

/// The console of these tests; its fixture is the id of `app`.
type Envs = TestApp<RepoId>;

/// `app` v1..v4, app-testing, app-staging and app-prod serving v1.
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

/// The console over [`app_serving_v1`] on the demo's path (`{repo}-testing`,
/// `{repo}-staging`, `{repo}-prod`), production requiring staging when `strict`.
async fn spawn(strict: bool) -> Envs {
    let path = EnvironmentPath::new(
        demo::environments()
            .iter()
            .cloned()
            .map(|mut e| {
                e.requires_previous = strict && e.name == EnvironmentName::production();
                e
            })
            .collect(),
    )
    .unwrap();
    TestApp::builder()
        .world(app_serving_v1)
        .environments(path)
        .spawn()
        .await
}

impl TestApp<RepoId> {
    async fn deploy_to(&self, version: u64, env: &str, live: u64) -> Reply {
        let body = format!("version={version}&env={env}&confirm=app&live={live}");
        let headers = [
            ("content-type", "application/x-www-form-urlencoded"),
            ("hx-request", "true"),
        ];
        self.client
            .send(
                "POST",
                &format!("/repos/{}/deploy", self.fixture),
                &headers,
                &body,
            )
            .await
    }

    /// What each environment serves on the versions page, in path order.
    async fn strip(&self) -> Vec<(String, String)> {
        let page = self.get(&format!("/repos/{}/versions", self.fixture)).await;
        assert_eq!(page.status, 200, "{}", page.body);
        let html = page.html();
        select(&html, "li[data-env]")
            .iter()
            .map(|e| {
                (
                    attr(e, "data-env").to_owned(),
                    attr(e, "data-env-version").to_owned(),
                )
            })
            .collect()
    }

    fn serving(&self, distribution: &str) -> Option<u64> {
        self.memory.serving_version(distribution).map(|n| n.get())
    }

    async fn confirm(&self, version: u64, env: &str) -> Reply {
        self.get(&format!(
            "/repos/{}/deploy/confirm?version={version}&env={}",
            self.fixture,
            enc(env)
        ))
        .await
    }

    fn audit_environments(&self) -> Vec<(String, String)> {
        self.audit_lines()
            .into_iter()
            .filter(|l| l["outcome"] == "deployed")
            .map(|l| {
                (
                    l["environment"].as_str().unwrap_or("").to_owned(),
                    l["target_version"].to_string(),
                )
            })
            .collect()
    }
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

#[tokio::test]
async fn a_version_goes_through_testing_staging_and_production_in_order() {
    let app = spawn(true).await;
    assert_eq!(
        app.strip().await,
        pairs(&[("testing", "1"), ("staging", "1"), ("production", "1")])
    );

    let deployed = app.deploy_to(3, "testing", 1).await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(app.serving("app-testing"), Some(3));
    assert_eq!(
        app.strip().await,
        pairs(&[("testing", "3"), ("staging", "1"), ("production", "1")])
    );
    let page = app
        .get(&format!("/repos/{}/versions", app.fixture))
        .await
        .html();
    let row = select(&page, "tr[data-version='3']");
    assert_eq!(attr(&row[0], "data-serving-envs"), "testing");
    let promote = select(&page, "button[data-promote-env='staging']");
    assert_eq!(attr(&promote[0], "data-promote-version"), "3");

    // Production requires staging: v3 skips it.
    let confirm = app.confirm(3, "production").await;
    assert_eq!(confirm.status, 409, "{}", confirm.body);
    assert!(
        confirm.body.contains("Deploy v3 to staging first"),
        "{}",
        confirm.body
    );
    let refused = app.deploy_to(3, "production", 1).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(app.serving("app-prod"), Some(1), "production unchanged");

    assert_eq!(app.deploy_to(3, "staging", 1).await.status, 200);
    let confirm = app.confirm(3, "production").await;
    assert_eq!(confirm.status, 200, "{}", confirm.body);
    assert!(!confirm.body.contains("data-warning=\"out-of-order\""));
    assert_eq!(app.deploy_to(3, "production", 1).await.status, 200);
    assert_eq!(
        app.strip().await,
        pairs(&[("testing", "3"), ("staging", "3"), ("production", "3")])
    );
    assert_eq!(
        app.audit_environments(),
        pairs(&[("testing", "3"), ("staging", "3"), ("production", "3")])
    );
}

#[tokio::test]
async fn out_of_order_is_a_warning_where_production_does_not_require_staging() {
    let app = spawn(false).await;
    let confirm = app.confirm(4, "production").await;
    assert_eq!(confirm.status, 200, "{}", confirm.body);
    let html = confirm.html();
    let warning = select(&html, "[data-warning='out-of-order']");
    assert_eq!(attr(&warning[0], "data-skips"), "staging");
    assert_eq!(app.deploy_to(4, "production", 1).await.status, 200);
    assert_eq!(app.serving("app-prod"), Some(4));
    let testing = app.confirm(4, "testing").await;
    assert!(
        !testing.body.contains("out-of-order"),
        "the first environment takes any version"
    );
}

#[tokio::test]
async fn drift_history_and_the_dashboard_are_per_environment() {
    let app = spawn(false).await;
    assert_eq!(app.deploy_to(2, "staging", 1).await.status, 200);
    // Someone points staging at v3 with Pulp's API.
    let v3 = app.memory.publish(&app.fixture, VersionNumber::new(3));
    app.memory.point_distribution("app-staging", &v3);
    let page = app
        .get(&format!("/repos/{}/versions", app.fixture))
        .await
        .html();
    let drifted: Vec<String> = select(&page, "li[data-env]")
        .iter()
        .filter(|e| {
            e.select(&scraper::Selector::parse("[data-env-drift]").unwrap())
                .next()
                .is_some()
        })
        .map(|e| attr(e, "data-env").to_owned())
        .collect();
    assert_eq!(drifted, ["staging"]);

    let history = app
        .get(&format!("/repos/{}/history?env=staging", app.fixture))
        .await;
    assert_eq!(history.status, 200, "{}", history.body);
    let html = history.html();
    let entries = select(&html, "li[data-history-entry]");
    assert!(!entries.is_empty());
    assert!(entries.iter().all(|e| attr(e, "data-env") == "staging"));
    let production = app.get(&format!("/repos/{}/history", app.fixture)).await;
    assert_eq!(
        select(&production.html(), "li[data-history-entry]").len(),
        0,
        "nothing was deployed to production"
    );
    let unknown = app
        .get(&format!("/repos/{}/history?env=qa", app.fixture))
        .await;
    assert_eq!(unknown.status, 400);
    assert!(unknown.body.contains("testing, staging, production"));

    let board = app.get("/").await.html();
    let cells: Vec<(String, String)> = select(
        &board,
        &format!("tr[data-repo='{}'] td[data-env]", app.fixture),
    )
    .iter()
    .map(|c| {
        (
            attr(c, "data-env").to_owned(),
            attr(c, "data-env-version").to_owned(),
        )
    })
    .collect();
    assert_eq!(
        cells,
        pairs(&[("testing", "1"), ("staging", "3"), ("production", "1")])
    );
}

#[tokio::test]
async fn the_versions_page_reads_every_environment_in_one_call() {
    let app = spawn(false).await;
    // The first load learns the repository's name (the patterns need it).
    app.strip().await;
    let before = app.memory.calls().len();
    app.strip().await;
    let calls = app.memory.calls().split_off(before);
    let kinds: Vec<&str> = calls
        .iter()
        .map(|c| c.split_whitespace().next().unwrap_or_default())
        .filter(|k| k.starts_with("distribution") || *k == "list_distributions")
        .collect();
    assert_eq!(kinds, ["distributions_named"], "{calls:?}");
    assert!(
        calls.contains(&"distributions_named 3".to_owned()),
        "{calls:?}"
    );
}

/// Issue 33, attack 8: a refusal names the environment it concerns (not production's), and
/// the API's outcome says `changed` (`production_changed` kept one release, deprecated).
#[tokio::test]
async fn a_refusal_names_its_environment_and_the_api_says_changed_for_any() {
    let e = spawn(false).await;
    let refused = e.deploy_to(1, "staging", 1).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("Staging was not changed."),
        "{}",
        refused.body
    );
    assert!(!refused.body.contains("Production"), "{}", refused.body);
    let doc = e.get("/api/v1/openapi.json").await;
    let doc: serde_json::Value = serde_json::from_str(&doc.body).unwrap();
    let outcome = &doc["components"]["schemas"]["DeploymentOutcome"]["properties"];
    assert_eq!(
        outcome["production_changed"]["deprecated"], true,
        "{outcome}"
    );
    assert!(outcome["changed"].is_object(), "{outcome}");
}

/// The classes of the deploy buttons of version `n` on the versions page, by environment.
async fn button_classes(app: &Envs, n: u64) -> Vec<(String, String)> {
    let html = app
        .get(&format!("/repos/{}/versions", app.fixture))
        .await
        .html();
    let row = format!("tr[data-version='{n}']");
    let earlier = select(&html, &format!("{row} button[data-deploy-env]"));
    let production = select(&html, &format!("{row} button[data-deploy-version]"));
    earlier
        .iter()
        .map(|b| {
            (
                attr(b, "data-deploy-env").to_owned(),
                attr(b, "class").to_owned(),
            )
        })
        .chain(
            production
                .iter()
                .map(|b| ("production".to_owned(), attr(b, "class").to_owned())),
        )
        .collect()
}

fn strong(classes: &[(String, String)]) -> Vec<&str> {
    classes
        .iter()
        .filter(|(_, class)| class.split(' ').any(|c| c == "primary"))
        .map(|(env, _)| env.as_str())
        .collect()
}

#[tokio::test]
async fn only_the_promotion_to_the_next_environment_is_a_strong_button() {
    let app = spawn(false).await;
    // Every environment serves v1: v4 goes to testing first.
    let v4 = button_classes(&app, 4).await;
    assert_eq!(v4.len(), 3, "{v4:?}");
    assert_eq!(strong(&v4), ["testing"], "{v4:?}");
    let deployed = app.deploy_to(4, "testing", 1).await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(strong(&button_classes(&app, 4).await), ["staging"]);
    let deployed = app.deploy_to(4, "staging", 1).await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(strong(&button_classes(&app, 4).await), ["production"]);
    // v2 and v3 are older than what testing now serves: no strong button (a rollback).
    assert!(strong(&button_classes(&app, 2).await).is_empty());
}
