//! A first run of the real binary on the demo, as a newcomer sees it: every page says it is
//! the demo, the demo writes into a fresh directory (said at start), a refused request is one
//! log line, the assets are not logged at info, repositories open by name.

use crate::console_process::ConsoleProcess;
use crate::helpers::*;

fn demo_banner() -> scraper::Selector {
    scraper::Selector::parse("[data-demo]").unwrap()
}

fn start_demo(home: &std::path::Path) -> (ConsoleProcess, WebClient) {
    let console = ConsoleProcess::start(&[], &[], home);
    let client = WebClient {
        address: console.address.clone(),
    };
    (console, client)
}

/// The lines logged once `client`'s requests are answered (the last one is logged after
/// the answer leaves).
async fn lines_after(console: &ConsoleProcess, wanted: &str) -> Vec<String> {
    for _ in 0..50 {
        let lines = console.log_lines();
        if lines.iter().any(|l| l.contains(wanted)) {
            return lines;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!(
        "no line with {wanted:?}:\n{}",
        console.log_lines().join("\n")
    );
}

#[tokio::test]
async fn every_page_of_the_demo_says_it_is_the_demo() {
    let home = tempfile::tempdir().unwrap();
    let (_console, client) = start_demo(home.path());
    let dashboard = client.get("/").await;
    assert_eq!(dashboard.status, 200);
    let versions = client.get("/repos/rhel9-baseos/versions").await;
    assert_eq!(versions.status, 307, "a name redirects: {}", versions.body);
    let location = versions.headers["location"].to_str().unwrap().to_owned();
    for path in [location.as_str(), "/requests", "/no-such-page"] {
        let page = client.get(path).await;
        let banner = page.html().select(&demo_banner()).count();
        assert_eq!(banner, 1, "{path} ({}): {}", page.status, page.body);
    }
    assert_eq!(dashboard.html().select(&demo_banner()).count(), 1);
}

/// What a newcomer finds on a fresh demo, read from its pages: a release of three
/// repositories that may be promoted, production's history with a rollback and its reason, a passed check, a
/// request waiting for the operator's approval, a waiting schedule.
#[tokio::test]
async fn a_fresh_demo_has_something_on_every_page() {
    let home = tempfile::tempdir().unwrap();
    let (_console, client) = start_demo(home.path());
    let release = client.get("/releases/rhel9").await;
    assert_eq!(release.status, 200, "{}", release.body);
    for member in ["rhel9-baseos", "rhel9-appstream", "epel9-appstream"] {
        assert!(release.body.contains(member), "{member}");
    }
    let page = release.html();
    let blocked = crate::web::select(&page, "button[data-promote-env][data-denied]");
    assert!(
        blocked.is_empty(),
        "every member is verified: {}",
        release.body
    );

    let versions = client.get("/repos/rhel9-baseos/versions").await;
    let base = versions.headers["location"]
        .to_str()
        .unwrap()
        .trim_end_matches("/versions")
        .to_owned();
    let history = client.get(&format!("{base}/history")).await.html();
    let entries: Vec<String> = crate::web::select(&history, "[data-history-entry]")
        .iter()
        .map(crate::web::text)
        .collect();
    assert_eq!(entries.len(), 2, "{entries:#?}");
    assert!(
        entries[0].contains("Rollback") && entries[0].contains("bob"),
        "{}",
        entries[0]
    );
    assert!(entries[0].contains("v44 \u{2192} v38") && entries[0].contains("RHEA-2026:0420"));
    assert!(entries[1].contains("Deploy") && entries[1].contains("v38 \u{2192} v44"));
    let page = client.get(&format!("{base}/versions")).await.html();
    let smoke = crate::web::select(&page, "tr[data-version='46'] [data-check=smoke]");
    assert_eq!(crate::web::attr(&smoke[0], "data-check-state"), "passed");
    let requests = client.get("/requests").await.html();
    let pending = crate::web::select(&requests, "[data-request-state=pending]");
    assert_eq!(pending.len(), 1, "alice's request for staging");
    let schedules = client.get("/schedules").await;
    assert_eq!(schedules.status, 200);
    assert!(
        schedules.body.contains("bob") && schedules.body.contains("v46"),
        "{}",
        schedules.body
    );
    assert!(schedules.body.contains("data-schedule-state=\"waiting\""));
}

#[tokio::test]
async fn the_demo_keeps_its_audit_in_a_fresh_directory_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let (first, _) = start_demo(home.path());
    let (second, _) = start_demo(home.path());
    let dir_of = |console: &ConsoleProcess| {
        let lines = console.log_lines();
        let line = lines
            .iter()
            .find(|l| l.contains("kept in a fresh directory"))
            .unwrap_or_else(|| panic!("said at start:\n{}", lines.join("\n")))
            .clone();
        line.split("dir=").nth(1).unwrap().trim().to_owned()
    };
    let (a, b) = (dir_of(&first), dir_of(&second));
    assert_ne!(a, b, "each start has its own");
    assert!(std::path::Path::new(&a).is_dir(), "{a}");
    assert!(!home.path().join("audit.jsonl").exists());
}

#[tokio::test]
async fn a_refused_request_is_one_log_line_and_assets_are_not_logged_at_info() {
    let home = tempfile::tempdir().unwrap();
    let (console, client) = start_demo(home.path());
    let css = repo_console::adapters::web::assets::CSS_PATH;
    assert_eq!(client.get(css).await.status, 200);
    let missing = "/repos/01a202de-e818-7629-a483-000000000000/versions";
    assert_eq!(client.get(missing).await.status, 404);
    let lines = lines_after(&console, "refused").await;
    let about_it: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("/repos/{uuid}/versions"))
        .collect();
    assert_eq!(about_it.len(), 1, "one line: {about_it:#?}");
    assert!(about_it[0].contains("status=404"), "{}", about_it[0]);
    assert!(about_it[0].contains("no RPM repository"), "{}", about_it[0]);
    let assets = lines.iter().filter(|l| l.contains("/assets/")).count();
    assert_eq!(assets, 0, "assets at debug: {lines:#?}");
}

#[tokio::test]
async fn an_unknown_repository_name_is_a_clear_404() {
    let home = tempfile::tempdir().unwrap();
    let (_console, client) = start_demo(home.path());
    let reply = client.get("/repos/no-such-repo/versions").await;
    assert_eq!(reply.status, 404);
    assert!(
        reply.body.contains("Pulp has no RPM repository named"),
        "{}",
        reply.body
    );
    let query = client
        .get("/repos/rhel9-baseos/history?environment=staging")
        .await;
    assert_eq!(query.status, 307);
    let location = query.headers["location"].to_str().unwrap();
    assert!(
        location.ends_with("/history?environment=staging"),
        "{location}"
    );
    assert!(!location.contains("rhel9-baseos"), "{location}");
}

#[tokio::test]
async fn listening_beyond_loopback_without_identity_is_warned_about_at_start() {
    let home = tempfile::tempdir().unwrap();
    let console = ConsoleProcess::start(&["--set", "server.listen=0.0.0.0:0"], &[], home.path());
    let lines = console.log_lines();
    let warned = lines
        .iter()
        .any(|l| l.contains("WARN") && l.contains("deploys as \"operator\""));
    assert!(warned, "{}", lines.join("\n"));
}

/// The demo has edges: `/edges` shows one serving production and one that does not answer,
/// and the versions page says how many serve it.
#[tokio::test]
async fn the_demo_has_an_edge_serving_production_and_one_that_does_not_answer() {
    let home = tempfile::tempdir().unwrap();
    let (_console, client) = start_demo(home.path());
    let state = |body: &str, edge: &str| {
        let page = scraper::Html::parse_document(body);
        crate::web::select(
            &page,
            &format!("tr[data-edge='{edge}'][data-distribution='rhel9-baseos-prod']"),
        )
        .first()
        .map(|cell| crate::web::attr(cell, "data-edge-state").to_owned())
    };
    let mut edges = client.get("/edges").await;
    for _ in 0..600 {
        if state(&edges.body, "edge-fra").as_deref() == Some("serving") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        edges = client.get("/edges").await;
    }
    assert_eq!(edges.status, 200);
    assert_eq!(
        state(&edges.body, "edge-fra").as_deref(),
        Some("serving"),
        "{}",
        edges.body
    );
    assert_eq!(
        state(&edges.body, "edge-nyc").as_deref(),
        Some("unreachable"),
        "{}",
        edges.body
    );
    let versions = client.get("/repos/rhel9-baseos/versions").await;
    let base = versions.headers["location"].to_str().unwrap().to_owned();
    let page = client.get(&base).await;
    assert!(
        page.body.contains("edges: 1 of 2 serve it"),
        "{}",
        page.body
    );
    // Production serves nothing of epel9-appstream: nothing for the edges to copy, no line.
    let versions = client.get("/repos/epel9-appstream/versions").await;
    let epel = client
        .get(versions.headers["location"].to_str().unwrap())
        .await;
    assert!(
        epel.body.contains("Production serves no version"),
        "{}",
        epel.body
    );
    assert!(!epel.body.contains("serve it"), "{}", epel.body);
}
