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

const LEAD_COUNT: &str = r#"repo_console_lead_time_seconds_count{environment="production"}"#;
const LEAD_SUM: &str = r#"repo_console_lead_time_seconds_sum{environment="production"}"#;
/// The bucket of lead times up to 4 hours (15 minutes doubled four times).
const LEAD_UNDER_4H: &str =
    r#"repo_console_lead_time_seconds_bucket{le="14400.0",environment="production"}"#;

/// Issue 50: a deploy's lead time (its version's creation in Pulp to its arrival) is observed
/// once, when the deploy moves the version, by the console that made it; a refused deploy
/// and a view of the insights (which fold the audit) observe nothing.
#[tokio::test]
async fn a_deploy_observes_its_lead_time_once_and_a_view_of_the_insights_none() {
    let app = spawn_app().await;
    let now = crate::test_app::pinned_time();
    let v5 = app.memory.add_version_at(
        &app.fixture.base_os,
        &["kernel-6.1"],
        &[],
        now - chrono::Duration::hours(3),
    );
    assert_eq!(v5.get(), 5);
    let before = app.get("/metrics").await.body;
    assert_eq!(sample(&before, LEAD_COUNT), 0.0, "{before}");

    assert_eq!(
        app.deploy(&app.fixture.base_os, "5", "base-os")
            .await
            .status,
        200
    );
    assert_eq!(
        app.deploy(&app.fixture.tools, "2", "tools").await.status,
        409
    );
    let after = app.get("/metrics").await.body;
    assert!(
        after.contains("# TYPE repo_console_lead_time_seconds histogram"),
        "{after}"
    );
    assert_eq!(sample(&after, LEAD_COUNT), 1.0, "{after}");
    assert_eq!(sample(&after, LEAD_SUM), 3.0 * 3600.0);
    assert_eq!(sample(&after, LEAD_UNDER_4H), 1.0, "{after}");

    assert_eq!(app.get("/api/v1/insights?days=7").await.status, 200);
    assert_eq!(app.get("/insights").await.status, 200);
    let viewed = app.get("/metrics").await.body;
    assert_eq!(
        sample(&viewed, LEAD_COUNT),
        1.0,
        "the fold of the audit observes nothing: {viewed}"
    );
}
