//! The console's navigation in the browser (issue 45, item 2): production needs one
//! approval by group:release, alice (group dev) asked for a deploy, and bob (group release)
//! browses. On every page, at 1280 and at 390 px: the header's navigation is there with the
//! page's section marked, every link inside the screen (it wraps, it does not push the page
//! sideways), the page does not scroll sideways, axe-core finds nothing serious in either
//! theme; a screenshot of each. Requests shows bob the one request waiting for him. By
//! keyboard, Tab reaches the navigation's links in order and Enter follows one.

use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU32;
use std::sync::Arc;

use fantoccini::key::Key;
use repo_console::adapters::memory::MemoryScheduleStore;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::ids::ReleaseName;
use repo_console::domain::policy::{Approvals, Policy, Subject};
use repo_console::domain::release::Releases;
use repo_console::domain::repository::RepoId;

use super::a11y;
use super::browser::Browser;
use super::world::{self, operator};
use crate::test_app::Standing;
use crate::web::WebClient;

/// The console as bob sees it, the standing state behind it, and the repository asked for.
pub struct NavApp {
    pub bob: String,
    pub repo: RepoId,
    /// Alice's request, waiting for bob.
    pub request: String,
    _standing: Standing<RepoId>,
}

/// The suite's world under a policy where production needs bob's approval, with requests,
/// schedules and a release of two repositories; alice's request already made.
pub async fn spawn_app() -> NavApp {
    let approvers = vec![Subject::parse("group:release").expect("a subject")];
    let approvals = Approvals::new(NonZeroU32::new(1).expect("one"), approvers).expect("listed");
    let policy = Policy::default()
        .with_approvals(BTreeMap::from([(EnvironmentName::production(), approvals)]));
    let members = vec!["rhel9-baseos".to_owned(), "epel9-appstream".to_owned()];
    let releases =
        Releases::new([(ReleaseName::parse("el9").expect("a name"), members)]).expect("a release");
    let schedules = Arc::new(MemoryScheduleStore::default());
    let standing = world::suite_app(|memory| world::build(memory).baseos)
        .production(HashMap::new())
        .policy(policy)
        .requests()
        .configure(move |state| {
            state
                .releases(releases)
                .schedules(schedules, chrono::Duration::minutes(10))
        })
        .build();
    let alice = standing
        .serve_variant(|state| state.identity(operator("alice", &["dev"])))
        .await;
    let bob = standing
        .serve_variant(|state| state.identity(operator("bob", &["release"])))
        .await;
    let repo = standing.fixture.clone();
    let asked = WebClient { address: alice }
        .send(
            "POST",
            &format!("/repos/{repo}/deploy"),
            &[
                ("content-type", "application/x-www-form-urlencoded"),
                ("hx-request", "true"),
            ],
            "version=5&confirm=rhel9-baseos&live=3&reason=CVE-2026-1234",
        )
        .await;
    assert_eq!(
        asked.status, 202,
        "alice's deploy is a request: {}",
        asked.body
    );
    let request = asked
        .body
        .split("data-request-id=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the answer names the request")
        .to_owned();
    NavApp {
        bob,
        repo,
        request,
        _standing: standing,
    }
}

/// The pages, each with the section marked on it: (screenshot name, path, section, value).
fn pages(app: &NavApp) -> Vec<(&'static str, String, &'static str, &'static str)> {
    vec![
        ("dashboard", "/".into(), "repositories", "page"),
        (
            "versions",
            format!("/repos/{}/versions", app.repo),
            "repositories",
            "true",
        ),
        (
            "history",
            format!("/repos/{}/history", app.repo),
            "repositories",
            "true",
        ),
        (
            "compare",
            format!("/repos/{}/versions/5/changes?against=3", app.repo),
            "repositories",
            "true",
        ),
        ("releases", "/releases".into(), "releases", "page"),
        ("release", "/releases/el9".into(), "releases", "true"),
        ("requests", "/requests".into(), "requests", "page"),
        (
            "request",
            format!("/requests/{}", app.request),
            "requests",
            "true",
        ),
        ("schedules", "/schedules".into(), "schedules", "page"),
        ("exposure", "/exposure".into(), "exposure", "page"),
        ("api-docs", "/api/docs".into(), "api", "page"),
        ("metrics", "/metrics".into(), "metrics", "page"),
    ]
}

/// Every page at 1280 and 390 px, then the keyboard.
pub async fn every_page_at_both_widths(b: &Browser, app: &NavApp) {
    for width in [1280, 390] {
        b.set_viewport(width, 900).await;
        for (name, path, section, value) in pages(app) {
            b.goto_at(&app.bob, &path).await;
            let what = format!("{name} at {width} px");
            let marked: Vec<(String, String)> = b
                .js(
                    "return Array.from(document.querySelectorAll('#site-nav a[aria-current]'))
                       .map(function (a) { return [a.dataset.navLink, a.getAttribute('aria-current')]; })",
                    vec![],
                )
                .await;
            assert_eq!(
                marked,
                vec![(section.to_owned(), value.to_owned())],
                "{what}"
            );
            let (scroll, inner): (f64, f64) = b
                .js(
                    "return [document.documentElement.scrollWidth, window.innerWidth]",
                    vec![],
                )
                .await;
            assert!(
                scroll <= inner,
                "{what} scrolls sideways: {scroll} > {inner}"
            );
            let header: (f64, f64) = b
                .js(
                    "var n = document.getElementById('site-nav'); return [n.scrollWidth, n.getBoundingClientRect().right]",
                    vec![],
                )
                .await;
            assert!(
                header.0 <= inner && header.1 <= inner,
                "{what}: the navigation is wider than the screen: {header:?}"
            );
            let outside: Vec<String> = b
                .js(
                    "return Array.from(document.querySelectorAll('#site-nav a')).filter(function (a) {
                       var r = a.getBoundingClientRect(); return r.width === 0 || r.left < 0 || r.right > innerWidth; })
                       .map(function (a) { return a.dataset.navLink; })",
                    vec![],
                )
                .await;
            assert!(
                outside.is_empty(),
                "{what}: links not on the screen: {outside:?}"
            );
            let waiting: String = b
                .js(
                    "var c = document.querySelector('#site-nav a[data-nav-link=requests] [data-waiting]');
                     return c && c.getBoundingClientRect().width > 0 ? c.textContent : ''",
                    vec![],
                )
                .await;
            assert_eq!(waiting, "1", "{what}: alice's request waits for bob");
            a11y::check_themes(b, &what).await;
            b.screenshot(&format!("nav-{name}-{width}")).await;
        }
    }
    b.set_viewport(1280, 900).await;
    keyboard(b, app).await;
}

/// From the top of the dashboard, Tab reaches each link of the navigation in order, and
/// Enter on Releases opens the releases.
async fn keyboard(b: &Browser, app: &NavApp) {
    b.goto_at(&app.bob, "/").await;
    b.js::<()>(
        "document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);",
        vec![],
    )
    .await;
    let mut reached = Vec::new();
    for _ in 0..14 {
        b.press(Key::Tab).await;
        let link: Option<String> = b
            .js("var a = document.activeElement; return a && a.dataset ? a.dataset.navLink || null : null", vec![])
            .await;
        if let Some(link) = link {
            reached.push(link);
        }
        if reached.len() == 9 {
            break;
        }
    }
    assert_eq!(
        reached,
        [
            "repositories",
            "releases",
            "requests",
            "schedules",
            "exposure",
            "edges",
            "insights",
            "api",
            "metrics"
        ],
        "Tab goes through the navigation in order"
    );
    a11y::assert_focus_ring(b, "the navigation's metrics link").await;
    // Back to Releases with Shift+Tab (one press per link between), then Enter.
    let back = reached.len() - 1 - reached.iter().position(|l| l == "releases").unwrap();
    for _ in 0..back {
        b.keys(&format!("{}{}", Key::Shift, Key::Tab)).await;
    }
    let focused: String = b
        .js(
            "return document.activeElement.dataset.navLink || ''",
            vec![],
        )
        .await;
    assert_eq!(focused, "releases", "Shift+Tab goes back");
    b.press(Key::Enter).await;
    b.wait_until(
        "the releases page",
        "return location.pathname === '/releases' && document.readyState === 'complete'",
    )
    .await;
}
