//! The exposure page (issue 37) in Chromium: the question typed into the plain form (no
//! script needed), the matrix with each cell's state, the affected-only filter, and "fixed
//! in" opening that version's confirm step; axe-core on the empty form, the answer and the
//! filtered answer, in both themes.

use std::sync::Arc;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::memory::demo;

use super::a11y;
use super::browser::Browser;
use super::test_app::TestApp;

#[path = "../common/exposure_world.rs"]
mod exposure_world;

pub type App = TestApp<exposure_world::ExposureWorld>;

/// The exposure world on the demo's path (testing, staging, production).
pub async fn spawn_app() -> App {
    TestApp::builder()
        .world(exposure_world::exposure_world)
        .environments(demo::environments())
        .clock(Arc::new(SystemClock))
        .recording_audit()
        .spawn()
        .await
}

/// `[data-state]` cells as `repository/environment=state`.
const CELLS: &str = "return Array.from(document.querySelectorAll('td[data-state]'))
    .map(function (c) { return c.getAttribute('data-exposure-repo') + '/' + c.getAttribute('data-env') + '=' + c.getAttribute('data-state'); })";

pub async fn ask_a_cve_and_open_the_fix(b: &Browser, app: &App) {
    b.goto("/exposure").await;
    a11y::check_themes(b, "the empty exposure form").await;
    b.find("input[name=cve]")
        .await
        .click()
        .await
        .expect("focus the CVE field");
    b.keys("CVE-2026-1111").await;
    b.find("form.exposure-form button[type=submit]")
        .await
        .click()
        .await
        .expect("ask");
    b.wait_until(
        "the answer is drawn",
        "return document.querySelectorAll('td[data-state]').length === 6",
    )
    .await;
    let cells: Vec<String> = b.js(CELLS, vec![]).await;
    assert_eq!(
        cells,
        [
            "db/testing=absent",
            "db/staging=absent",
            "db/production=absent",
            "web/testing=fixed",
            "web/staging=affected",
            "web/production=affected"
        ]
    );
    let url: String = b.js("return location.search", vec![]).await;
    assert!(url.contains("cve=CVE-2026-1111"), "a GET form: {url}");
    b.screenshot("exposure-cve").await;
    a11y::check_themes(b, "the exposure answer").await;

    b.find("[data-exposure-filter=affected]")
        .await
        .click()
        .await
        .expect("filter");
    b.wait_until(
        "only affected cells",
        "return location.search.indexOf('affected=1') >= 0 && document.querySelectorAll('td[data-state]').length === 2",
    )
    .await;
    a11y::check(b, "the affected cells").await;

    b.find("td[data-env=production] a[data-fixed-in='2']")
        .await
        .click()
        .await
        .expect("fixed in v2");
    b.wait_until(
        "the confirm step of v2 for production opens",
        "var m = document.getElementById('deploy-modal'); return !!m && m.textContent.indexOf('v2') >= 0",
    )
    .await;
    let title: String = b
        .js(
            "return document.getElementById('deploy-title').textContent",
            vec![],
        )
        .await;
    assert!(title.contains("production"), "{title}");
    a11y::check(b, "the confirm step from the exposure page").await;
    let _ = &app.fixture.web;
}
