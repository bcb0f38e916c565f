//! Issue 50, delivery insights over the in-memory upstream and a JSON Lines audit file: a
//! generated audit of 10,000 deploys over two years gives the figures computed directly
//! from it (`insights_world.rs`), each duration within a second; a new line is folded on
//! the next view without Pulp being asked again for what it told; the JSON's shape, the
//! CSV, the page with its charts and tables, and every filter refused as an attack.

use std::io::Write;
use std::sync::Arc;

use repo_console::adapters::memory::{demo, MemoryRequestStore};
use repo_console::ports::RequestStore;

use crate::insights_world::{self, assert_figures_equal, World};
use crate::test_app::TestApp;
use crate::web::{enc, select};

type Generated = TestApp<World>;

/// The generated world, its audit written to the console's file, its approvals in the
/// request store.
async fn generated() -> Generated {
    let store = Arc::new(MemoryRequestStore::default());
    let requests = store.clone();
    let app = TestApp::builder()
        .world(|memory| insights_world::generate(memory, "ins-"))
        .clock(crate::test_app::clock_at("2026-11-28T00:00:00Z"))
        .environments(demo::environments())
        .configure(move |state| state.requests(requests, chrono::Duration::hours(24)))
        .spawn()
        .await;
    write_lines(&app.audit_path, &app.fixture.lines);
    for approval in &app.fixture.approvals {
        store.create(&approval.request).await.unwrap();
        store
            .append(&approval.request.id, 0, &approval.approved)
            .await
            .unwrap();
    }
    app
}

fn write_lines(path: &std::path::Path, lines: &[repo_console::domain::deploy::DeployRecord]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    let mut text = String::new();
    for line in lines {
        text.push_str(&serde_json::to_string(line).unwrap());
        text.push('\n');
    }
    file.write_all(text.as_bytes()).unwrap();
}

async fn json(app: &Generated, query: &str) -> (u16, serde_json::Value) {
    let reply = app.client.get(&format!("/api/v1/insights?{query}")).await;
    let body = serde_json::from_str(&reply.body).unwrap_or(serde_json::Value::Null);
    (reply.status, body)
}

fn version_reads(app: &Generated) -> usize {
    app.memory
        .calls()
        .iter()
        .filter(|c| c.contains("versions"))
        .count()
}

#[tokio::test]
async fn ten_thousand_generated_deploys_give_the_figures_computed_directly() {
    let app = generated().await;
    assert_eq!(
        app.fixture
            .lines
            .iter()
            .filter(|l| l.kind == repo_console::domain::deploy::DeployKind::Deploy)
            .count(),
        10_000
    );
    let (status, body) = json(&app, "days=730").await;
    assert_eq!(status, 200, "{body}");
    assert_figures_equal(&body, &app.fixture.expected);

    // One repository by name, then by UUID: its own deploys only.
    let (id, name) = &app.fixture.first_repository;
    for asked in [name.clone(), id.to_string()] {
        let (status, body) = json(&app, &format!("days=730&repository={}", enc(&asked))).await;
        assert_eq!(status, 200);
        let deploys: Vec<u64> = body["environments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["deploys"].as_u64().unwrap())
            .collect();
        let (staging, production) = app.fixture.first_repository_deploys;
        assert_eq!(deploys, vec![staging, production]);
    }
}

#[tokio::test]
async fn a_warm_view_asks_pulp_nothing_and_a_new_line_is_folded_once() {
    let app = generated().await;
    let (_, first) = json(&app, "days=730&environment=production").await;
    let reads_after_first = version_reads(&app);
    assert!(
        reads_after_first > 0,
        "the first view asked Pulp the creation times"
    );
    // The fold reads the audit 2,000 lines at a time: at most one read per repository in
    // each slice, whatever the number of versions (5,000 here).
    let slices = app.fixture.lines.len().div_ceil(2_000);
    assert!(
        reads_after_first <= insights_world::REPOSITORIES * slices,
        "one read per repository and slice, not per version: {reads_after_first}"
    );
    let (_, again) = json(&app, "days=730&environment=production").await;
    assert_eq!(first, again);
    assert_eq!(
        version_reads(&app),
        reads_after_first,
        "a warm view asks Pulp nothing"
    );

    // One more production deploy of a version already known: folded, and Pulp not asked.
    let mut more = app
        .fixture
        .lines
        .iter()
        .rev()
        .find(|l| {
            l.environment.as_str() == "production"
                && l.kind == repo_console::domain::deploy::DeployKind::Deploy
        })
        .unwrap()
        .clone();
    more.timestamp = insights_world::now() - chrono::Duration::hours(1);
    more.deploy_id = repo_console::domain::deploy::DeployId::new("one-more");
    write_lines(&app.audit_path, &[more]);
    let (_, after) = json(&app, "days=730&environment=production").await;
    assert_eq!(
        after["environments"][0]["deploys"].as_u64().unwrap(),
        first["environments"][0]["deploys"].as_u64().unwrap() + 1
    );
    assert_eq!(version_reads(&app), reads_after_first);
}

#[tokio::test]
async fn the_json_has_the_issues_shape_and_the_csv_a_row_per_environment() {
    let app = generated().await;
    let (status, body) = json(&app, "days=90").await;
    assert_eq!(status, 200);
    let keys: Vec<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["environments"]);
    let production = &body["environments"][1];
    for key in [
        "environment",
        "deploys",
        "lead_time_seconds",
        "change_failure_rate",
        "time_to_restore_seconds",
        "approval_wait_seconds",
        "check_pass_rate",
        "weeks",
    ] {
        assert!(production.get(key).is_some(), "{key} in {production}");
    }
    for spread in [
        "lead_time_seconds",
        "time_to_restore_seconds",
        "approval_wait_seconds",
    ] {
        assert!(
            production[spread].get("median").is_some() && production[spread].get("p90").is_some()
        );
    }
    let weeks = production["weeks"].as_array().unwrap();
    assert!(
        (13..=15).contains(&weeks.len()),
        "90 days are 13 to 15 weeks: {}",
        weeks.len()
    );
    assert!(weeks[0]["week"].as_str().unwrap().len() == 10);

    for (query, headers) in [
        ("days=90&format=csv", vec![]),
        ("days=90", vec![("Accept", "text/csv")]),
    ] {
        let reply = app
            .client
            .send("GET", &format!("/api/v1/insights?{query}"), &headers, "")
            .await;
        assert_eq!(reply.status, 200);
        assert!(reply.header("content-type").starts_with("text/csv"));
        let rows: Vec<&str> = reply.body.lines().collect();
        assert!(rows[0].starts_with("environment,deploys,rollbacks,failed_deploys,change_failure_rate,lead_time_median_seconds"));
        assert_eq!(rows.len(), 3, "{}", reply.body);
        assert!(rows[1].starts_with("staging,"));
        let deploys: u64 = rows[2].split(',').nth(1).unwrap().parse().unwrap();
        assert_eq!(deploys, production["deploys"].as_u64().unwrap());
    }
}

#[tokio::test]
async fn filters_that_are_not_ones_are_refused_and_nothing_is_read() {
    let app = TestApp::builder()
        .world(|memory| insights_world::generate(memory, "ins-"))
        .environments(demo::environments())
        .spawn()
        .await;
    let cases = [
        ("days=0", 400, "bad_filter"),
        ("days=-3", 400, "bad_filter"),
        ("days=abc", 400, "bad_filter"),
        ("days=3651", 400, "bad_filter"),
        ("days=99999999999999999999", 400, "bad_filter"),
        ("from=2026-11-20&to=2026-11-01", 400, "bad_filter"),
        ("from=2026-11-20&to=2026-11-20T00:00:00Z", 400, "bad_filter"),
        ("from=2026-11-20", 400, "bad_filter"),
        ("from=yesterday&to=2026-11-20", 400, "bad_filter"),
        ("days=7&from=2026-11-01&to=2026-11-20", 400, "bad_filter"),
        ("from=2000-01-01&to=2026-11-20", 400, "bad_filter"),
        ("environment=prod%3Cscript%3E", 400, "bad_filter"),
        ("release=nope", 400, "bad_filter"),
        ("format=xml", 400, "bad_filter"),
        ("repository=no-such-repository", 404, "not_found"),
        (
            "repository=01a202de-e818-7629-a483-70ecc3240361",
            404,
            "not_found",
        ),
    ];
    for (query, status, code) in cases {
        let (got, body) = json(&app, query).await;
        assert_eq!(got, status, "{query}: {body}");
        assert_eq!(body["error"]["code"], code, "{query}: {body}");
        if query.starts_with("format=") {
            continue; // the page has one format
        }
        let page = app.client.get(&format!("/insights?{query}")).await;
        assert_eq!(page.status, status, "the page: {query}");
        assert!(!page.body.contains("<script>"), "{query}");
    }
}

#[tokio::test]
async fn the_page_draws_each_chart_with_its_numbers_and_is_in_the_navigation() {
    let app = generated().await;
    let reply = app.client.get("/insights?days=90").await;
    assert_eq!(reply.status, 200);
    let html = reply.html();
    assert_eq!(select(&html, "[data-nav-link=insights]").len(), 1);
    assert_eq!(select(&html, "[data-insights-summary] tbody tr").len(), 2);
    for env in ["staging", "production"] {
        let charts = select(
            &html,
            &format!("[data-insights-environment={env}] svg[role=img]"),
        );
        assert_eq!(charts.len(), 3, "{env}: bars, distribution, line");
        for chart in charts {
            let labelled = chart.value().attr("aria-labelledby").unwrap();
            assert_eq!(select(&html, &format!("svg title#{labelled}")).len(), 1);
        }
        assert!(!select(&html, &format!("table[data-insights-weeks={env}] tbody tr")).is_empty());
        assert_eq!(
            select(
                &html,
                &format!("table[data-insights-lead-bins={env}] tbody tr")
            )
            .len(),
            8
        );
    }
    assert!(select(&html, "svg rect.chart-bar").len() > 20);
    assert!(!select(&html, "svg polyline.chart-line").is_empty());

    // The versions page has its section, filled from the section's route.
    let (id, _) = &app.fixture.first_repository;
    let versions = app.client.get(&format!("/repos/{id}/versions")).await;
    assert_eq!(select(&versions.html(), "[data-insights-section]").len(), 1);
    let section = app
        .client
        .get(&format!("/insights/section?repository={id}"))
        .await;
    assert_eq!(section.status, 200);
    assert!(
        section.body.contains("data-insights-row"),
        "{}",
        section.body
    );
}
