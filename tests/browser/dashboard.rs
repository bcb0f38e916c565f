//! The dashboard: fixed-size sync cells, ghost-button hover, the theme toggle, a sync.

use std::time::{Duration, Instant};

use serde_json::json;

use super::a11y;
use super::browser::Browser;
use super::world::App;

/// (state, width, height, text, title) of a repository's sync cell.
type Cell = (String, f64, f64, String, String);

const CELL: &str =
    "var c = document.querySelector(\"tr[data-repo='\" + arguments[0] + \"'] .sync-cell\");
  var r = c.getBoundingClientRect(); var t = c.querySelector('[title]');
  return [c.dataset.syncState, r.width, r.height, c.textContent.trim(), t ? t.title : ''];";

async fn cell(b: &Browser, repo: &str) -> Cell {
    b.js(CELL, vec![json!(repo)]).await
}

fn assert_box(cell: &Cell) {
    assert_eq!(
        (cell.1, cell.2),
        (172.0, 36.0),
        "the sync cell is 172×36 in state {}: {cell:?}",
        cell.0
    );
}

pub async fn sync_cells_hover_and_theme(b: &Browser, app: &App) {
    b.goto("/").await;
    let repos: Vec<String> = b.js("return Array.from(document.querySelectorAll('tr[data-repo]')).map(function (r) { return r.dataset.repo; })", vec![]).await;
    assert_eq!(repos.len(), 4, "four repositories");
    for repo in &repos {
        assert_box(&cell(b, repo).await);
    }
    ghost_buttons_hover(b).await;
    theme_toggle(b).await;

    // A sync that succeeds: progress, then done, the cell never changing size.
    let baseos = app.fixture.baseos.to_string();
    b.find(&format!("tr[data-repo='{baseos}'] .sync-cell button"))
        .await
        .click()
        .await
        .expect("click Synchronize");
    let mut progress = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(15);
    let done = loop {
        let now = cell(b, &baseos).await;
        assert_box(&now);
        if now.0 == "running" {
            if !now.3.contains("\u{b7}0%")
                && !progress.iter().any(|p: &String| !p.contains("\u{b7}0%"))
            {
                b.screenshot("dashboard-syncing-light").await;
            }
            progress.push(now.3.clone());
        }
        if now.0 == "done" {
            break now;
        }
        assert!(
            Instant::now() < deadline,
            "the sync did not end: {now:?}, seen {progress:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(!progress.is_empty(), "the cell showed the sync in progress");
    let shaped = progress
        .iter()
        .any(|p| p.contains("/24\u{b7}") && p.ends_with('%'));
    assert!(shaped, "progress reads done/total·percent%: {progress:?}");
    assert!(
        done.3.contains("v6"),
        "done shows the new version: {done:?}"
    );
    b.wait_until_with(
        "the Latest column follows the finished sync",
        "return document.getElementById('latest-' + arguments[0]).textContent.trim() === 'v6'",
        vec![json!(baseos)],
    )
    .await;

    // A sync that fails: a short text, the reason in the title.
    let tools = app.fixture.tools.to_string();
    b.find(&format!("tr[data-repo='{tools}'] .sync-cell button"))
        .await
        .click()
        .await
        .expect("click Synchronize");
    b.wait_until_with("the failing sync ends failed",
        "return document.querySelector(\"tr[data-repo='\" + arguments[0] + \"'] .sync-cell\").dataset.syncState === 'failed'",
        vec![json!(tools)]).await;
    let failed = cell(b, &tools).await;
    assert_box(&failed);
    // Pulp's words (they name the remote's host) stay in the log: the title says where to
    // look, with the task.
    assert!(
        failed
            .4
            .contains("failed in Pulp (task /pulp/api/v3/tasks/")
            && !failed.4.contains("Name or service not known"),
        "the reason in the console's words in the title: {failed:?}"
    );
    assert!(
        failed.3.chars().count() < failed.4.chars().count(),
        "the cell text is shortened: {failed:?}"
    );

    for theme in ["light", "dark"] {
        b.use_theme(theme).await;
        b.screenshot(&format!("dashboard-{theme}")).await;
        a11y::check(b, &format!("the dashboard ({theme})")).await;
    }
    b.use_theme("light").await;
}

async fn background(b: &Browser, css: &str) -> String {
    b.js(
        "return getComputedStyle(document.querySelector(arguments[0])).backgroundColor",
        vec![json!(css)],
    )
    .await
}

/// Refresh, the theme toggle and a sync button are ghost buttons: hovering changes their colour.
async fn ghost_buttons_hover(b: &Browser) {
    for css in ["#refresh", "#theme-toggle", ".sync-cell button.ghost"] {
        b.unhover().await;
        let before = background(b, css).await;
        b.hover(css).await;
        b.wait_until_with(&format!("{css} changes colour on hover (was {before})"),
            "return getComputedStyle(document.querySelector(arguments[0])).backgroundColor !== arguments[1]",
            vec![json!(css), json!(before)]).await;
    }
    b.unhover().await;
}

async fn theme_toggle(b: &Browser) {
    let theme_and_bg = "return [document.documentElement.getAttribute('data-theme') || '', getComputedStyle(document.body).backgroundColor, document.getElementById('theme-toggle').textContent]";
    let (before, bg_before, _): (String, String, String) = b.js(theme_and_bg, vec![]).await;
    b.find("#theme-toggle")
        .await
        .click()
        .await
        .expect("click the theme toggle");
    let (after, bg_after, label): (String, String, String) = b.js(theme_and_bg, vec![]).await;
    assert_ne!(before, after, "the toggle switches the theme");
    assert!(after == "dark" || after == "light", "{after}");
    assert_ne!(
        bg_before, bg_after,
        "the page background changes with the theme"
    );
    b.client.refresh().await.expect("reload");
    b.wait_until(
        "reloaded",
        "return document.readyState === 'complete' && !!window.htmx",
    )
    .await;
    let (kept, bg_kept, label_kept): (String, String, String) = b.js(theme_and_bg, vec![]).await;
    assert_eq!(
        (kept.as_str(), bg_kept.as_str()),
        (after.as_str(), bg_after.as_str()),
        "the theme survives a reload"
    );
    assert_eq!(
        label, label_kept,
        "the toggle's label agrees after a reload"
    );
    b.use_theme("light").await;
}
