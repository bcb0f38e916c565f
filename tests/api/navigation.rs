//! Issue 45, item 2: the console's navigation and what it leads to, over HTTP against the
//! in-memory upstream. Every page has the header's navigation with the current section
//! marked; Requests counts the requests the viewer may approve (not their own, not those of
//! an environment they may not approve, not one they approved); `/releases` lists the
//! releases with each environment's set; `/api/docs` renders every operation of the OpenAPI
//! document with nothing from outside; `/metrics` is a page for a browser and stays the
//! exposition text for Prometheus.

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::Arc;

use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Approvals, Policy, Subject};

use crate::helpers::*;

/// Every link of the navigation, in order: (`data-nav-link`, href).
const LINKS: [(&str, &str); 9] = [
    ("repositories", "/"),
    ("releases", "/releases"),
    ("requests", "/requests"),
    ("schedules", "/schedules"),
    ("exposure", "/exposure"),
    ("edges", "/edges"),
    ("insights", "/insights"),
    ("api", "/api/docs"),
    ("metrics", "/metrics"),
];

const BROWSER: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/// A GET as a browser sends it (no htmx), as `user` of `groups` behind the proxy.
async fn browse(app: &TestApp, path: &str, user: &str, groups: &str) -> Reply {
    let headers = [
        ("accept", BROWSER),
        ("x-remote-user", user),
        ("x-remote-groups", groups),
    ];
    app.client.send("GET", path, &headers, "").await
}

/// Links as (`data-nav-link`, an attribute's value).
type Links = Vec<(String, String)>;

/// The navigation's links of a page with their href, and the one marked current with its value.
fn nav_of(reply: &Reply) -> (Links, Links) {
    let html = reply.html();
    assert_eq!(
        select(&html, "nav#site-nav[aria-label]").len(),
        1,
        "{}",
        reply.body
    );
    let links = select(&html, "nav#site-nav a[data-nav-link]");
    let all = links
        .iter()
        .map(|a| {
            (
                attr(a, "data-nav-link").to_owned(),
                attr(a, "href").to_owned(),
            )
        })
        .collect();
    let current = links
        .iter()
        .filter_map(|a| {
            let value = a.value().attr("aria-current")?;
            Some((attr(a, "data-nav-link").to_owned(), value.to_owned()))
        })
        .collect();
    (all, current)
}

/// The count beside Requests, if shown.
fn waiting(reply: &Reply) -> Option<String> {
    let html = reply.html();
    let count = select(&html, "a[data-nav-link=requests] [data-waiting]");
    count.first().map(|c| attr(c, "data-waiting").to_owned())
}

#[tokio::test]
async fn every_page_has_the_navigation_with_its_section_marked() {
    let schedules = Arc::new(repo_console::adapters::memory::MemoryScheduleStore::default());
    let app = fixture_app()
        .requests()
        .configure(move |state| state.schedules(schedules, chrono::Duration::minutes(10)))
        .spawn()
        .await;
    let base = app.fixture.base_os.as_str();
    let pages = [
        ("/".to_owned(), Some(("repositories", "page"))),
        (
            format!("/repos/{base}/versions"),
            Some(("repositories", "true")),
        ),
        (
            format!("/repos/{base}/history"),
            Some(("repositories", "true")),
        ),
        (
            format!("/repos/{base}/versions/3/changes?against=2"),
            Some(("repositories", "true")),
        ),
        ("/releases".to_owned(), Some(("releases", "page"))),
        ("/requests".to_owned(), Some(("requests", "page"))),
        ("/schedules".to_owned(), Some(("schedules", "page"))),
        ("/exposure".to_owned(), Some(("exposure", "page"))),
        ("/edges".to_owned(), Some(("edges", "page"))),
        ("/insights".to_owned(), Some(("insights", "page"))),
        ("/api/docs".to_owned(), Some(("api", "page"))),
        ("/metrics".to_owned(), Some(("metrics", "page"))),
        ("/no-such-page".to_owned(), None),
    ];
    for (path, marked) in pages {
        let reply = browse(&app, &path, "", "").await;
        let expected = if marked.is_some() { 200 } else { 404 };
        assert_eq!(reply.status, expected, "{path}: {}", reply.body);
        assert!(
            reply.header("content-type").starts_with("text/html"),
            "{path}"
        );
        let (links, current) = nav_of(&reply);
        let want: Vec<(String, String)> = LINKS
            .iter()
            .map(|(k, h)| (k.to_string(), h.to_string()))
            .collect();
        assert_eq!(links, want, "{path}");
        let want: Vec<(String, String)> = marked
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        assert_eq!(current, want, "{path}: the section marked");
    }
}

/// Production needs one approval by group:release.
fn one_approval() -> Policy {
    let approvals = Approvals::new(
        NonZeroU32::new(1).unwrap(),
        vec![Subject::parse("group:release").unwrap()],
    )
    .unwrap();
    Policy::default().with_approvals(BTreeMap::from([(EnvironmentName::production(), approvals)]))
}

#[tokio::test]
async fn requests_counts_those_the_viewer_may_approve_and_no_other() {
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
        .with_groups("X-Remote-Groups");
    let app = fixture_app()
        .identity(Arc::new(identity))
        .policy(one_approval())
        .requests()
        .spawn()
        .await;
    assert_eq!(waiting(&browse(&app, "/", "bob", "release").await), None);

    let deploy = format!("/repos/{}/deploy", app.fixture.base_os);
    let body = "version=4&confirm=base-os&live=2&reason=CVE-2026-1234";
    let asked = app.send_as("POST", &deploy, "alice", "release", body).await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let id = attr(
        &select(&asked.html(), "[data-request-id]")[0],
        "data-request-id",
    )
    .to_owned();

    // An approver other than the requester is waited for, on every page.
    for path in ["/", "/releases", "/requests", "/api/docs"] {
        assert_eq!(
            waiting(&browse(&app, path, "bob", "release").await).as_deref(),
            Some("1"),
            "{path}"
        );
    }
    let page = browse(&app, "/", "bob", "release").await;
    assert!(
        page.body.contains("1 waiting for you"),
        "read aloud with its meaning"
    );
    // Attacks: the requester is not waited for (she may not approve her own request), nor is
    // someone who may not approve production, nor a sender the console cannot identify.
    assert_eq!(waiting(&browse(&app, "/", "alice", "release").await), None);
    assert_eq!(waiting(&browse(&app, "/", "carol", "dev").await), None);
    let anonymous = app
        .client
        .send("GET", "/", &[("accept", BROWSER)], "")
        .await;
    assert_eq!(waiting(&anonymous), None);
    // An htmx fragment does not pay for the count.
    let fragment = app.send_as("GET", "/requests", "bob", "release", "").await;
    assert_eq!(waiting(&fragment), None);

    let approved = app
        .send_as(
            "POST",
            &format!("/requests/{id}/approve"),
            "bob",
            "release",
            "confirm=base-os",
        )
        .await;
    assert!(approved.status < 400, "{}", approved.body);
    assert_eq!(
        waiting(&browse(&app, "/", "bob", "release").await),
        None,
        "nothing waits once it ran"
    );
    assert_eq!(waiting(&browse(&app, "/", "dave", "release").await), None);
}

#[tokio::test]
async fn releases_lists_each_release_with_each_environments_set() {
    let app = crate::releases::app(&crate::releases::MEMBERS)
        .spawn()
        .await;
    let reply = app.get("/releases").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = reply.html();
    let items = select(&html, "[data-release-item]");
    assert_eq!(items.len(), 1, "{}", reply.body);
    assert_eq!(attr(&items[0], "data-release-item"), "el9");
    assert_eq!(
        select(&html, "[data-release-item=el9] h2 a[href='/releases/el9']").len(),
        1
    );
    let cells: Vec<(String, String)> = select(&html, "[data-release-item=el9] td[data-env]")
        .iter()
        .map(|td| {
            (
                attr(td, "data-env").to_owned(),
                td.value().attr("data-env-version").unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert_eq!(cells.len(), 6, "each member in each environment: {cells:?}");
    assert!(cells.contains(&("staging".into(), "2".into())), "{cells:?}");
    assert!(
        cells.contains(&("production".into(), "1".into())),
        "{cells:?}"
    );

    let none = spawn_app().await;
    let reply = none.get("/releases").await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        select(&reply.html(), "#releases-empty").len(),
        1,
        "how to declare one"
    );
}

#[tokio::test]
async fn the_api_reference_renders_every_operation_from_the_document_and_nothing_from_outside() {
    let app = spawn_app().await;
    let doc: serde_json::Value =
        serde_json::from_str(&app.get("/api/v1/openapi.json").await.body).unwrap();
    let reply = app.get("/api/docs").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = reply.html();
    let mut ids = Vec::new();
    for operations in doc["paths"].as_object().unwrap().values() {
        for operation in operations.as_object().unwrap().values() {
            ids.push(operation["operationId"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(ids.len(), 24);
    for id in &ids {
        let section = select(&html, &format!("section[data-operation='{id}']#{id}"));
        assert_eq!(section.len(), 1, "{id} is on the page");
        assert_eq!(
            select(&html, &format!(".api-contents a[href='#{id}']")).len(),
            1,
            "{id} in the contents"
        );
    }
    for name in doc["components"]["schemas"].as_object().unwrap().keys() {
        assert_eq!(
            select(&html, &format!("[data-schema='{name}']#schema-{name}")).len(),
            1,
            "{name}"
        );
    }
    // Every link to a schema leads to one on the page.
    for link in select(&html, "a[href^='#schema-']") {
        let target = attr(&link, "href").trim_start_matches('#').to_owned();
        assert_eq!(
            select(&html, &format!("[id='{target}']")).len(),
            1,
            "{target}"
        );
    }
    let page = select(
        &html,
        "[data-operation=listVersions] tr[data-parameter=page]",
    );
    assert_eq!(attr(&page[0], "data-in"), "query");
    assert_eq!(
        select(&html, "a[data-openapi-link][href='/api/v1/openapi.json']").len(),
        1
    );
    for outside in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
        assert!(
            !reply.body.contains(outside),
            "nothing from outside: {outside}"
        );
    }
}

/// The `# TYPE` lines of an exposition.
fn types(exposition: &str) -> Vec<&str> {
    exposition
        .lines()
        .filter(|l| l.starts_with("# TYPE "))
        .collect()
}

#[tokio::test]
async fn metrics_is_a_page_for_a_browser_and_the_exposition_for_prometheus() {
    let app = spawn_app().await;
    // Once answered, a request is counted: the second scrape has every metric.
    app.get("/metrics").await;
    let plain = app.get("/metrics").await;
    assert_eq!(plain.status, 200);
    assert!(
        plain
            .header("content-type")
            .starts_with("application/openmetrics-text"),
        "no Accept: {}",
        plain.header("content-type")
    );
    assert!(plain
        .body
        .contains("# TYPE repo_console_deploy_duration_seconds histogram"));
    assert!(plain.body.trim_end().ends_with("# EOF"));
    let prometheus =
        "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.4,*/*;q=0.1";
    for accept in [prometheus, "text/plain", "*/*"] {
        let scraped = app
            .client
            .send("GET", "/metrics", &[("accept", accept)], "")
            .await;
        // The same exposition (the request counter moves between two scrapes).
        assert_eq!(
            scraped.header("content-type"),
            plain.header("content-type"),
            "{accept}"
        );
        assert_eq!(types(&scraped.body), types(&plain.body), "{accept}");
        assert!(scraped.body.trim_end().ends_with("# EOF"), "{accept}");
        assert_eq!(scraped.header("vary"), "Accept");
    }

    let page = app
        .client
        .send("GET", "/metrics", &[("accept", BROWSER)], "")
        .await;
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type").starts_with("text/html"),
        "{}",
        page.header("content-type")
    );
    assert_eq!(page.header("vary"), "Accept");
    let html = page.html();
    // Every metric of the exposition is on the page, each sample's value with it.
    let families: Vec<&str> = plain
        .body
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert!(families.len() > 3, "{families:?}");
    for family in families {
        assert_eq!(
            select(&html, &format!("[data-metric='{family}']")).len(),
            1,
            "{family}"
        );
    }
    let samples = plain
        .body
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .count();
    assert_eq!(select(&html, "tr[data-sample]").len(), samples);
}
