//! GET /metrics over HTTP: the documented metrics, moved by the requests and deploys served.
//! (The registry is the process's: other tests run meanwhile, so counts are compared with
//! "at least".)

use crate::helpers::*;

/// The value of the sample line that starts with `series ` (0 when absent).
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |value| value.parse().expect("a number"))
}

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
    assert!(
        moved(r#"repo_console_http_requests_total{route="/repos/{uuid}/versions",status="200"}"#)
            >= 1.0
    );
    assert!(moved(r#"repo_console_http_requests_total{route="(none)",status="404"}"#) >= 1.0);
    assert!(
        moved(r#"repo_console_deploys_total{outcome="deployed",environment="production"}"#) >= 1.0
    );
    assert!(
        moved(r#"repo_console_deploys_total{outcome="refused",environment="production"}"#) >= 1.0
    );
    assert!(moved("repo_console_deploy_duration_seconds_count") >= 1.0);
    assert!(after.contains("# TYPE repo_console_deploy_duration_seconds histogram"));
    let build = format!(
        r#"repo_console_build_info{{version="{}"}} 1"#,
        env!("CARGO_PKG_VERSION")
    );
    assert!(after.lines().any(|l| l == build), "{after}");
}
