//! The insights page (issue 50) in Chromium, over a generated audit (`insights_world.rs`: 20
//! repositories, 10,000 deploys over two years): at 1280 and 390 px, in the light and the dark
//! theme, axe finds nothing serious, nothing scrolls sideways, no chart is wider than its
//! screen, and each chart has its table. Screenshots `target/screenshots/insights-*.png`,
//! looked at (see docs/src/developer/tests.md).

use std::sync::Arc;

use repo_console::adapters::memory::{demo, MemoryRequestStore};
use repo_console::ports::RequestStore;

use super::a11y;
use super::browser::Browser;
use super::insights_world::{self, World};
use super::test_app::TestApp;

pub type App = TestApp<World>;

/// The generated world on a clock at its end, its audit written to the console's file and
/// its approvals in the request store.
pub async fn spawn_app() -> App {
    let store = Arc::new(MemoryRequestStore::default());
    let requests = store.clone();
    let app = TestApp::builder()
        .world(|memory| insights_world::generate(memory, "ins-"))
        .clock(super::test_app::clock_at("2026-11-28T00:00:00Z"))
        .environments(demo::environments())
        .configure(move |state| state.requests(requests, chrono::Duration::hours(24)))
        .spawn()
        .await;
    let mut text = String::new();
    for line in &app.fixture.lines {
        text.push_str(&serde_json::to_string(line).unwrap());
        text.push('\n');
    }
    std::fs::create_dir_all(app.audit_path.parent().unwrap()).unwrap();
    std::fs::write(&app.audit_path, text).unwrap();
    for approval in &app.fixture.approvals {
        store.create(&approval.request).await.unwrap();
        store
            .append(&approval.request.id, 0, &approval.approved)
            .await
            .unwrap();
    }
    app
}

/// What the page must hold whatever the screen: nothing scrolls sideways, every chart fits
/// the screen and is followed by its table.
const LAYOUT: &str = "var width = document.documentElement.clientWidth;
    var charts = Array.from(document.querySelectorAll('svg[role=img]'));
    var wide = charts.filter(function (s) { var r = s.getBoundingClientRect(); return r.left < 0 || r.right > width + 0.5; })
        .map(function (s) { return (s.id || s.getAttribute('aria-labelledby') || '?') + ' ' + Math.round(s.getBoundingClientRect().width); });
    var tables = document.querySelectorAll('table[data-insights-weeks], table[data-insights-lead-bins]').length;
    return [document.documentElement.scrollWidth, width, charts.length, tables, wide]";

pub async fn generated_history_in_both_themes_at_two_widths(b: &Browser, app: &App) {
    let _ = &app.fixture.expected;
    for width in [1280, 390] {
        b.set_viewport(width, 900).await;
        b.goto("/insights?days=90").await;
        let (scroll, inner, charts, tables, wide): (f64, f64, usize, usize, Vec<String>) =
            b.js(LAYOUT, vec![]).await;
        assert!(
            scroll <= inner,
            "the insights at {width} px scroll sideways: scrollWidth {scroll} > {inner}"
        );
        assert_eq!(charts, 6, "three charts for each of staging and production");
        assert_eq!(
            tables, 4,
            "the weekly table and the distribution's of each environment (the line's numbers are the weekly table's)"
        );
        assert!(wide.is_empty(), "charts wider than {width} px: {wide:?}");
        for theme in ["light", "dark"] {
            b.use_theme(theme).await;
            let height: f64 = b
                .js("return document.documentElement.scrollHeight", vec![])
                .await;
            let screens = (height / 900.0).ceil() as usize;
            for screen in 0..screens.min(6) {
                b.js::<()>(
                    "window.scrollTo(0, arguments[0])",
                    vec![serde_json::json!(screen * 900)],
                )
                .await;
                b.screenshot(&format!("insights-{width}-{theme}-{screen}"))
                    .await;
            }
            b.js::<()>("window.scrollTo(0, 0)", vec![]).await;
            a11y::check(b, &format!("the insights at {width} px ({theme})")).await;
        }
        b.use_theme("light").await;
    }
    b.set_viewport(1280, 900).await;
}
