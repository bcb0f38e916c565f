//! GET /metrics over HTTP: the documented metrics, moved by the requests and deploys served,
//! from the pages, the JSON API and approvals alike. Each console has its own registry (the
//! state's), so the counts moved are exact.

use std::collections::BTreeMap;
use std::num::NonZeroU32;

use serde_json::json;

use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Allowed, Approvals, Policy, Subject};

use crate::helpers::*;
use crate::json_api::{call, deployments, json_of, spawn, CI, LEAD};

/// The value of the sample line that starts with `series ` (0 when absent).
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |value| value.parse().expect("a number"))
}

const DEPLOYED: &str =
    r#"repo_console_deploys_total{outcome="deployed",asked="deploy",environment="production"}"#;
const REFUSED: &str =
    r#"repo_console_deploys_total{outcome="refused",asked="deploy",environment="production"}"#;
const REFUSED_ROLLBACK: &str =
    r#"repo_console_deploys_total{outcome="refused",asked="rollback",environment="production"}"#;
/// The deploy a request's completing approval runs.
const APPROVED: &str =
    r#"repo_console_deploys_total{outcome="deployed",asked="approval",environment="production"}"#;
const REQUESTED: &str =
    r#"repo_console_deploys_total{outcome="requested",asked="deploy",environment="production"}"#;

#[tokio::test]
async fn metrics_count_requests_and_deploys_by_route_status_and_outcome() {
    let app = spawn_app().await;
    let before = app.get("/metrics").await.body;
    let versions = format!("/repos/{}/versions", app.fixture.base_os);
    assert_eq!(app.get(&versions).await.status, 200);
    assert_eq!(app.get("/no/such/page").await.status, 404);
    let reply = app.deploy(&app.fixture.base_os, "4", "base-os").await;
    assert_eq!(reply.status, 200);
    let reply = app.deploy(&app.fixture.tools, "2", "tools").await;
    assert_eq!(reply.status, 409, "refused: not verified");

    let scrape = app.get("/metrics").await;
    assert_eq!(scrape.status, 200);
    assert!(scrape
        .header("content-type")
        .starts_with("application/openmetrics-text"));
    let after = scrape.body;
    let moved = |series: &str| sample(&after, series) - sample(&before, series);
    assert_eq!(
        moved(r#"repo_console_http_requests_total{route="/repos/{uuid}/versions",status="200"}"#),
        1.0
    );
    assert_eq!(
        moved(r#"repo_console_http_requests_total{route="(none)",status="404"}"#),
        1.0
    );
    assert_eq!(moved(DEPLOYED), 1.0);
    assert_eq!(moved(REFUSED), 1.0);
    assert_eq!(moved("repo_console_deploy_duration_seconds_count"), 1.0);
    assert!(after.contains("# TYPE repo_console_deploy_duration_seconds histogram"));
    let build = format!(
        r#"repo_console_build_info{{version="{}"}} 1"#,
        env!("CARGO_PKG_VERSION")
    );
    assert!(after.lines().any(|l| l == build), "{after}");
}

#[tokio::test]
async fn a_deploy_through_the_api_is_counted_and_so_is_its_refusal() {
    let app = spawn(Policy::default()).await;
    let scrape = || async { call(&app, "GET", "/metrics", None, "").await.body };
    let before = scrape().await;
    let deploy = json!({"version": 4, "expected_current": 2}).to_string();
    let deployed = call(&app, "POST", &deployments(&app), Some(CI), &deploy).await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    // A rollback without its reason: refused before anything is read.
    let rollback = json!({"version": 2, "expected_current": 4, "rollback": true}).to_string();
    let refused = call(&app, "POST", &deployments(&app), Some(CI), &rollback).await;
    assert_eq!(refused.status, 422, "{}", refused.body);

    let after = scrape().await;
    let moved = |series: &str| sample(&after, series) - sample(&before, series);
    assert_eq!(moved(DEPLOYED), 1.0, "{after}");
    assert_eq!(moved(REFUSED_ROLLBACK), 1.0, "{after}");
    assert_eq!(moved("repo_console_deploy_duration_seconds_count"), 1.0);
}

#[tokio::test]
async fn the_deploy_an_approval_runs_is_counted_after_its_request() {
    let production = EnvironmentName::production();
    let release = vec![Subject::parse("group:release").unwrap()];
    let policy =
        Policy::new(BTreeMap::new(), Allowed::Everyone).with_approvals(BTreeMap::from([(
            production,
            Approvals::new(NonZeroU32::new(1).unwrap(), release).unwrap(),
        )]));
    let app = spawn(policy).await;
    let scrape = || async { call(&app, "GET", "/metrics", None, "").await.body };
    let before = scrape().await;
    let body = json!({"version": 4, "expected_current": 2}).to_string();
    let asked = call(&app, "POST", &deployments(&app), Some(CI), &body).await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let asked_only = scrape().await;
    let id = json_of(&asked)["request"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let approve = format!("/api/v1/requests/{id}/approve");
    let approved = call(&app, "POST", &approve, Some(LEAD), "").await;
    assert_eq!(approved.status, 200, "{}", approved.body);
    assert_eq!(json_of(&approved)["outcome"], "deployed");

    let after = scrape().await;
    let moved = |from: &str, series: &str| sample(&after, series) - sample(from, series);
    assert_eq!(moved(&before, REQUESTED), 1.0, "{after}");
    assert_eq!(sample(&asked_only, APPROVED), sample(&before, APPROVED));
    assert_eq!(moved(&asked_only, APPROVED), 1.0, "{after}");
    assert_eq!(
        moved(&asked_only, "repo_console_deploy_duration_seconds_count"),
        1.0
    );
}
