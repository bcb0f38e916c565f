//! Who may deploy where, and synchronize (issue 24, its first part): groups from the trusted
//! proxy, deployers per environment and syncers; a refusal changes nothing and says who may.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{demo, SyncScript};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Allowed, FreezeWindow, Policy, Subject};

use crate::helpers::*;

/// The fixture's console as the policy tests serve it (see [`fixture_app`]).
pub(crate) type Guarded = TestApp;

/// The fixture's console: production's deployers are group:release and user:alice, the
/// syncers group:ops; names and groups from X-Remote-User / X-Remote-Groups.
async fn spawn_guarded() -> Guarded {
    let only = |subjects: &[&str]| {
        Allowed::Only(
            subjects
                .iter()
                .map(|s| Subject::parse(s).unwrap())
                .collect(),
        )
    };
    let policy = Policy::new(
        BTreeMap::from([(
            EnvironmentName::production(),
            only(&["group:release", "user:alice"]),
        )]),
        only(&["group:ops"]),
    );
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
        .with_groups("X-Remote-Groups");
    fixture_app()
        .identity(Arc::new(identity))
        .policy(policy)
        .spawn()
        .await
}

impl TestApp {
    /// A page as the proxy asks for it for `user` of `groups`.
    pub async fn get_as(&self, path: &str, user: &str, groups: &str) -> Reply {
        self.send_as("GET", path, user, groups, "").await
    }

    async fn deploy_as(&self, user: &str, groups: &str) -> Reply {
        let path = format!("/repos/{}/deploy", self.fixture.base_os);
        self.send_as("POST", &path, user, groups, "version=4&confirm=base-os")
            .await
    }

    pub fn writes(&self) -> usize {
        self.memory
            .calls()
            .iter()
            .filter(|c| {
                c.starts_with("create_publication")
                    || c.starts_with("update_distribution")
                    || c.starts_with("sync ")
            })
            .count()
    }
}

#[tokio::test]
async fn someone_outside_the_deployers_is_refused_with_403_naming_who_may() {
    let app = spawn_guarded().await;
    let refused = app.deploy_as("carol", "dev").await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("only group:release, user:alice may deploy to production")
            && refused.body.contains("you are carol (groups dev)"),
        "{}",
        refused.body
    );
    assert_eq!(app.writes(), 0, "nothing changed upstream");
    assert_eq!(app.production_version("base-os-prod"), Some(2));

    let confirm = app
        .get_as(
            &format!("/repos/{}/deploy/confirm?version=4", app.fixture.base_os),
            "carol",
            "dev",
        )
        .await;
    assert_eq!(confirm.status, 403, "{}", confirm.body);

    let page = app
        .get_as(
            &format!("/repos/{}/versions", app.fixture.base_os),
            "carol",
            "dev",
        )
        .await;
    let html = page.html();
    let button = &select(&html, "button[data-deploy-version='4']")[0];
    assert_eq!(attr(button, "data-denied"), "policy");
    assert!(button.value().attr("disabled").is_some());
    assert!(attr(button, "title").contains("group:release"));

    let member = app.deploy_as("bob", "dev, release").await;
    assert_eq!(
        member.status, 200,
        "a member of group:release: {}",
        member.body
    );
    assert_eq!(app.production_version("base-os-prod"), Some(4));
    let page = app
        .get_as(
            &format!("/repos/{}/versions", app.fixture.base_os),
            "alice",
            "",
        )
        .await;
    assert!(
        select(&page.html(), "[data-denied]").is_empty(),
        "alice may"
    );
}

#[tokio::test]
async fn only_syncers_synchronize_and_groups_are_shown_in_the_header_bar() {
    let app = spawn_guarded().await;
    app.memory.add_remote(
        &app.fixture.base_os,
        SyncScript::Succeeds {
            duration: Duration::from_millis(50),
            add: vec!["new-1.0".into()],
            remove: vec![],
        },
    );
    let path = format!("/repos/{}/sync", app.fixture.base_os);
    let refused = app.send_as("POST", &path, "alice", "release", "").await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused.body.contains("only group:ops may synchronize"),
        "{}",
        refused.body
    );
    assert_eq!(app.writes(), 0);
    let started = app.send_as("POST", &path, "erin", "ops", "").await;
    assert_eq!(started.status, 200, "{}", started.body);

    let page = app.send_as("GET", "/", "erin", "ops,sre", "").await;
    let html = page.html();
    let me = &select(&html, "#operator")[0];
    assert_eq!(attr(me, "data-groups"), "ops,sre");
    assert!(attr(me, "title").contains("groups: ops, sre"));
}

/// A Synchronize button as rendered.
#[derive(Debug)]
struct SyncButton {
    denied: Option<String>,
    disabled: bool,
    title: String,
    posts: bool,
}

/// The Synchronize buttons of a page or a cell.
fn sync_buttons(reply: &Reply) -> Vec<SyncButton> {
    assert_eq!(reply.status, 200, "{}", reply.body);
    select(&reply.html(), "button.sync-button")
        .iter()
        .map(|b| SyncButton {
            denied: b.value().attr("data-denied").map(str::to_owned),
            disabled: b.value().attr("disabled").is_some(),
            title: attr(b, "title").to_owned(),
            posts: b.value().attr("hx-post").is_some(),
        })
        .collect()
}

#[tokio::test]
async fn a_non_syncer_sees_the_synchronize_buttons_disabled_saying_who_may() {
    let app = spawn_guarded().await;
    app.memory.add_remote(
        &app.fixture.base_os,
        SyncScript::Succeeds {
            duration: Duration::from_millis(50),
            add: vec!["new-1.0".into()],
            remove: vec![],
        },
    );
    let refused = sync_buttons(&app.send_as("GET", "/", "alice", "release", "").await);
    assert_eq!(refused.len(), 1, "one repository has a remote: {refused:?}");
    let button = &refused[0];
    assert_eq!(button.denied.as_deref(), Some("policy"));
    assert!(button.disabled && !button.posts, "{button:?}");
    assert!(
        button.title.contains("only group:ops may synchronize")
            && button.title.contains("you are alice"),
        "{button:?}"
    );
    let cell = format!("/repos/{}/sync", app.fixture.base_os);
    let polled = sync_buttons(&app.send_as("GET", &cell, "alice", "release", "").await);
    assert_eq!(
        polled[0].denied.as_deref(),
        Some("policy"),
        "the polled cell too"
    );

    for (user, groups, who) in [
        ("erin", "ops", "a syncer"),
        ("", "", "an unidentified viewer"),
    ] {
        let allowed = sync_buttons(&app.send_as("GET", "/", user, groups, "").await);
        assert_eq!(allowed.len(), 1, "{who}");
        let button = &allowed[0];
        assert!(
            button.denied.is_none() && !button.disabled && button.posts,
            "{who}: {button:?}"
        );
        assert_eq!(button.title, "Synchronize from the remote", "{who}");
    }
    assert_eq!(app.writes(), 0, "looking changes nothing");
}

/// A policy that freezes `environment` over the year's end.
fn year_end_freeze(environment: EnvironmentName) -> Policy {
    let window = FreezeWindow::interval("2026-12-20T00:00:00Z/2027-01-04T00:00:00Z").unwrap();
    Policy::default().with_freezes(BTreeMap::from([(environment, vec![window])]))
}

/// The fixture's console with production frozen over the year's end, at `now`.
async fn spawn_frozen(now: &str) -> Guarded {
    let policy = year_end_freeze(EnvironmentName::production());
    fixture_app().policy(policy).at(now).spawn().await
}

/// The fixture's console on the demo's path (testing, staging, production) with staging
/// frozen over the year's end, at `now`.
async fn spawn_staging_frozen(now: &str) -> Guarded {
    let policy = year_end_freeze(EnvironmentName::parse("staging").unwrap());
    fixture_app()
        .environments(demo::environments())
        .policy(policy)
        .at(now)
        .spawn()
        .await
}

#[tokio::test]
async fn a_frozen_environment_refuses_deploys_with_409_until_the_window_ends() {
    let app = spawn_frozen("2026-12-24T18:00:00Z").await;
    let (client, memory, fixture) = (&app.client, &app.memory, &app.fixture);
    let page = client
        .send(
            "GET",
            &format!("/repos/{}/versions", fixture.base_os),
            &[],
            "",
        )
        .await;
    let html = page.html();
    let banner = select(&html, "[data-freeze]");
    assert_eq!(banner.len(), 1, "{}", page.body);
    assert_eq!(attr(&banner[0], "data-env"), "production");
    assert!(text(&banner[0]).contains("until 2027-01-04T00:00:00Z"));
    let button = &select(&html, "button[data-deploy-version='4']")[0];
    assert_eq!(attr(button, "data-denied"), "freeze");
    assert!(button.value().attr("disabled").is_some());
    assert!(attr(button, "title").contains("until 2027-01-04T00:00:00Z"));

    let confirm = client
        .send(
            "GET",
            &format!("/repos/{}/deploy/confirm?version=4", fixture.base_os),
            &[],
            "",
        )
        .await;
    assert_eq!(confirm.status, 409, "{}", confirm.body);
    assert_eq!(select(&confirm.html(), "[data-refusal='freeze']").len(), 1);
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("hx-request", "true"),
    ];
    let refused = client
        .send(
            "POST",
            &format!("/repos/{}/deploy", fixture.base_os),
            &headers,
            "version=4&confirm=base-os",
        )
        .await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused
        .body
        .contains("production is frozen until 2027-01-04T00:00:00Z"));
    assert_eq!(select(&refused.html(), "[data-refusal='freeze']").len(), 1);
    assert_eq!(
        memory.serving_version("base-os-prod").map(|n| n.get()),
        Some(2)
    );

    let app = spawn_frozen("2027-01-04T00:00:00Z").await;
    let (client, memory, fixture) = (&app.client, &app.memory, &app.fixture);
    let after = client
        .send(
            "POST",
            &format!("/repos/{}/deploy", fixture.base_os),
            &headers,
            "version=4&confirm=base-os",
        )
        .await;
    assert_eq!(
        after.status, 200,
        "the window's end is not frozen: {}",
        after.body
    );
    assert_eq!(
        memory.serving_version("base-os-prod").map(|n| n.get()),
        Some(4)
    );
}

#[tokio::test]
async fn history_and_dashboard_show_a_banner_for_the_frozen_environment_only_while_frozen() {
    let banners = |reply: &Reply| -> Vec<(String, String)> {
        assert_eq!(reply.status, 200, "{}", reply.body);
        select(&reply.html(), "[data-freeze]")
            .iter()
            .map(|b| (attr(b, "data-env").to_owned(), text(b)))
            .collect()
    };
    let app = spawn_staging_frozen("2026-12-24T18:00:00Z").await;
    let (client, fixture) = (&app.client, &app.fixture);
    let get = |path: String| {
        let client = &client;
        async move { client.send("GET", &path, &[], "").await }
    };
    let history = |env: &str| format!("/repos/{}/history?env={env}", fixture.base_os);

    let dashboard = banners(&get("/".to_owned()).await);
    assert_eq!(dashboard.len(), 1, "one banner, staging's: {dashboard:?}");
    assert_eq!(dashboard[0].0, "staging");
    assert!(
        dashboard[0].1.contains("staging takes no deploy")
            && dashboard[0].1.contains("until 2027-01-04T00:00:00Z"),
        "{dashboard:?}"
    );
    assert_eq!(banners(&get(history("staging")).await), dashboard);
    for other in ["testing", "production"] {
        assert!(banners(&get(history(other)).await).is_empty(), "{other}");
    }
    let production_by_default = format!("/repos/{}/history", fixture.base_os);
    assert!(banners(&get(production_by_default).await).is_empty());

    let app = spawn_staging_frozen("2027-01-04T00:00:00Z").await;
    let (client, fixture) = (&app.client, &app.fixture);
    let after = |path: String| {
        let client = &client;
        async move { client.send("GET", &path, &[], "").await }
    };
    assert!(
        banners(&after("/".to_owned()).await).is_empty(),
        "the window's end is not frozen"
    );
    let staging = format!("/repos/{}/history?env=staging", fixture.base_os);
    assert!(banners(&after(staging).await).is_empty());
}
