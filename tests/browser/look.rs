//! Security headers seen by the browser, narrow screens, contrast, a hostile repository
//! name, and a check that the CSP detector itself can fail.

use serde_json::{json, Value};

use super::browser::{is_csp_violation, Browser};
use super::driver::{ChromeDriver, Tools};
use super::world::{self, App, HOSTILE};

const HEADERS: &str = "var done = arguments[arguments.length - 1];
  var post = arguments[1] === 'POST';
  fetch(arguments[0], { method: arguments[1], body: post ? 'version=4&confirm=wrong' : undefined,
    headers: post ? { 'content-type': 'application/x-www-form-urlencoded' } : {} }).then(function (r) {
    done({ status: r.status, csp: r.headers.get('content-security-policy'), nosniff: r.headers.get('x-content-type-options'),
           referrer: r.headers.get('referrer-policy') });
  }, function (e) { done({ error: String(e) }); });";

pub async fn security_headers(b: &Browser, app: &App) {
    b.goto("/").await;
    let css: String = b
        .js(
            "return document.querySelector('link[rel=stylesheet]').getAttribute('href')",
            vec![],
        )
        .await;
    let paths = [
        ("GET", "/".to_owned()),
        ("GET", format!("/repos/{}/versions", app.fixture.baseos)),
        (
            "GET",
            format!("/repos/{}/deploy/confirm?version=4", app.fixture.baseos),
        ),
        ("GET", "/no/such/page".to_owned()),
        ("GET", css),
        ("POST", format!("/repos/{}/deploy", app.fixture.baseos)),
    ];
    for (method, path) in paths {
        let h: Value = b
            .client
            .execute_async(HEADERS, vec![json!(path), json!(method)])
            .await
            .expect("fetch");
        let csp = h["csp"]
            .as_str()
            .unwrap_or_else(|| panic!("no CSP on {method} {path}: {h}"));
        let script_src = csp
            .split(';')
            .map(str::trim)
            .find(|d| d.starts_with("script-src"))
            .unwrap_or_else(|| panic!("no script-src in {csp}"));
        assert!(
            !script_src.contains("unsafe-inline") && !script_src.contains("unsafe-eval"),
            "{script_src}"
        );
        assert!(
            csp.contains("frame-ancestors 'none'"),
            "{method} {path}: {csp}"
        );
        assert_eq!(h["nosniff"], "nosniff", "{method} {path}");
        assert!(
            h["referrer"].as_str().is_some_and(|r| !r.is_empty()),
            "{method} {path}: no Referrer-Policy"
        );
    }
}

/// At 768 px neither page scrolls sideways; screenshots of both.
/// At 390 px (a phone) and at 1280 px the page never scrolls sideways: a wide table scrolls
/// inside its box (whose screen-reader texts stay inside it too), and the dashboard says that
/// its table scrolls, where it does.
pub async fn phone_screen(b: &Browser, app: &App) {
    for width in [390, 1280] {
        b.set_viewport(width, 900).await;
        for (name, path) in [
            ("dashboard", "/".to_owned()),
            (
                "versions",
                format!("/repos/{}/versions", app.fixture.baseos),
            ),
        ] {
            b.goto(&path).await;
            let (scroll, inner): (f64, f64) = b
                .js(
                    "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]",
                    vec![],
                )
                .await;
            assert!(
                scroll <= inner,
                "{name} at {width} px scrolls sideways: scrollWidth {scroll} > {inner}"
            );
            b.screenshot(&format!("{name}-{width}-light")).await;
        }
    }
    b.set_viewport(390, 900).await;
    b.goto("/").await;
    let (table_scrolls, hint_shown): (bool, bool) = b
        .js(
            "var w = document.querySelector('.table-wrap'), h = document.querySelector('[data-scroll-hint]');
             return [w.scrollWidth > w.clientWidth, !!h && h.getBoundingClientRect().height > 0]",
            vec![],
        )
        .await;
    assert!(table_scrolls, "the dashboard's table is wider than a phone");
    assert!(hint_shown, "the dashboard says its table scrolls sideways");
    b.set_viewport(1280, 900).await;
}

pub async fn narrow_screen(b: &Browser, app: &App) {
    b.set_viewport(768, 1000).await;
    for (name, path) in [
        ("dashboard", "/".to_owned()),
        (
            "versions",
            format!("/repos/{}/versions", app.fixture.baseos),
        ),
    ] {
        b.goto(&path).await;
        let (scroll, inner): (f64, f64) = b
            .js(
                "return [document.documentElement.scrollWidth, window.innerWidth]",
                vec![],
            )
            .await;
        assert!(
            scroll <= inner,
            "{name} at 768 px scrolls sideways: scrollWidth {scroll} > {inner}"
        );
        let cramped: Vec<String> = b
            .js("return Array.from(document.querySelectorAll('.table-wrap')).filter(function (w) { return w.scrollWidth > w.clientWidth; })
                   .map(function (w) { return w.scrollWidth + ' > ' + w.clientWidth; })", vec![])
            .await;
        assert!(
            cramped.is_empty(),
            "{name} at 768 px: a table needs its own sideways scroll: {cramped:?}"
        );
        b.screenshot(&format!("{name}-768-light")).await;
    }
    b.find("[data-deploy-version='4']")
        .await
        .click()
        .await
        .expect("open the modal");
    b.wait_until("modal", "return !!document.getElementById('deploy-modal')")
        .await;
    let fits: bool = b.js("var r = document.getElementById('deploy-modal').getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && document.documentElement.scrollWidth <= innerWidth", vec![]).await;
    assert!(fits, "the modal fits a 768 px screen");
    b.screenshot("modal-768-light").await;
    b.press(fantoccini::key::Key::Escape).await;
    b.set_viewport(1280, 900).await;
}

/// WCAG contrast of text against its (first opaque) background, for the parts an operator reads.
pub const CONTRAST: &str = "
function rgb(c) { var m = c.match(/[\\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 }; }
function lum(c) { return [c.r, c.g, c.b].map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
  .reduce(function (s, v, i) { return s + v * [0.2126, 0.7152, 0.0722][i]; }, 0); }
function bg(el) { for (; el; el = el.parentElement) { var c = rgb(getComputedStyle(el).backgroundColor); if (c.a > 0.5) return c; }
  return rgb(getComputedStyle(document.documentElement).backgroundColor || 'rgb(255,255,255)'); }
var out = [];
document.querySelectorAll(arguments[0]).forEach(function (el) {
  if (el.disabled || !el.textContent.trim() || !el.getClientRects().length) return;
  var a = lum(rgb(getComputedStyle(el).color)), b = lum(bg(el));
  var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) out.push(el.tagName + '.' + el.className + ' \"' + el.textContent.trim().slice(0, 30) + '\" ' + ratio.toFixed(2));
});
return out;";

const READ: &str = "body, h1, h2, th, td, a, .muted, .badge, .notice, button, .live-badge, .sync-cell span, code, dt, dd, .change, .net, label";

pub async fn contrast(b: &Browser, app: &App) {
    for path in [
        "/".to_owned(),
        format!("/repos/{}/versions", app.fixture.baseos),
    ] {
        b.goto(&path).await;
        for theme in ["light", "dark"] {
            b.use_theme(theme).await;
            let low: Vec<String> = b.js(CONTRAST, vec![json!(READ)]).await;
            assert!(
                low.is_empty(),
                "text under 4.5:1 contrast on {path} in {theme}:\n{low:#?}"
            );
        }
    }
    // The modal, with Confirm deploy enabled, in both themes.
    for theme in ["dark", "light"] {
        b.use_theme(theme).await;
        b.find("[data-deploy-version='4']")
            .await
            .click()
            .await
            .expect("open the modal");
        b.wait_until(
            "modal",
            "return !!document.querySelector('#deploy-modal input[name=confirm]')",
        )
        .await;
        b.keys("rhel9-baseos").await;
        let low: Vec<String> = b
            .js(CONTRAST, vec![json!("#deploy-modal, #deploy-modal *")])
            .await;
        assert!(
            low.is_empty(),
            "text under 4.5:1 contrast in the modal in {theme}:\n{low:#?}"
        );
        b.press(fantoccini::key::Key::Escape).await;
        b.wait_until("closed", "return !document.getElementById('deploy-modal')")
            .await;
    }
}

/// A repository whose name is HTML: shown as text everywhere, never run.
pub async fn hostile_name(driver: &ChromeDriver, tools: &Tools) {
    let app = world::suite_app(world::build_hostile).spawn().await;
    let (address, id) = (&app.address, &app.fixture);
    let b = Browser::open(driver, tools, address).await;
    b.goto("/").await;
    let link: String = b
        .js(
            "return document.querySelector('tr[data-repo] th a').textContent",
            vec![],
        )
        .await;
    assert_eq!(link, HOSTILE, "the dashboard shows the name as text");
    b.goto(&format!("/repos/{id}/versions")).await;
    let (title, images, pwned): (String, usize, bool) = b
        .js("return [document.querySelector('h1').textContent, document.querySelectorAll('main img').length, 'pwned' in window || '__pwned' in window]", vec![])
        .await;
    assert_eq!(title, HOSTILE);
    assert_eq!(
        (images, pwned),
        (0, false),
        "the name's markup did not become elements or run"
    );
    b.find("[data-deploy-version='2']")
        .await
        .click()
        .await
        .expect("open the modal");
    b.wait_until("modal focus", "var m = document.getElementById('deploy-modal'); return !!m && document.activeElement === m.querySelector('input[name=confirm]')").await;
    let confirm: String = b
        .js(
            "return document.getElementById('deploy-modal').getAttribute('data-confirm')",
            vec![],
        )
        .await;
    assert_eq!(confirm, HOSTILE, "data-confirm holds the name exactly");
    b.keys(HOSTILE).await;
    let enabled: bool = b
        .js(
            "return !document.querySelector('[data-modal-confirm]').disabled",
            vec![],
        )
        .await;
    assert!(
        enabled,
        "typing the hostile name exactly enables Confirm deploy"
    );
    b.screenshot("hostile-name-light").await;
    b.assert_clean_console("the hostile name", &[]).await;

    // The detector: an inline script injected into the page is refused by the CSP, and
    // the console log shows it, so a violation in a scenario cannot go unnoticed.
    b.js::<()>("var s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.appendChild(s);", vec![]).await;
    let ran: bool = b.js("return window.__inline === 1", vec![]).await;
    assert!(!ran, "the CSP blocks an inline script");
    let deadline = std::time::Instant::now() + super::browser::DEADLINE;
    loop {
        let lines = b.console().await;
        if lines.iter().any(|l| is_csp_violation(l)) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the console log did not report the CSP violation"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    b.close().await;
}

/// Very long and right-to-left names: shown whole, escaped, and the layout holds at
/// 1280 and 768 px (no sideways page scroll, the modal fits).
pub async fn long_names(driver: &ChromeDriver, tools: &Tools) {
    let app = world::suite_app(world::build_long_names).spawn().await;
    let (address, ids) = (&app.address, &app.fixture);
    let names = world::long_names();
    let b = Browser::open(driver, tools, address).await;
    for width in [1280, 768] {
        b.set_viewport(width, 900).await;
        b.goto("/").await;
        assert_no_sideways_scroll(&b, &format!("dashboard at {width} px")).await;
        for (id, name) in ids.iter().zip(&names) {
            b.goto(&format!("/repos/{id}/versions")).await;
            let title: String = b
                .js("return document.querySelector('h1').textContent", vec![])
                .await;
            assert_eq!(&title, name, "the name is shown whole");
            assert_no_sideways_scroll(&b, &format!("versions of a long name at {width} px")).await;
            b.find("[data-deploy-version='2']")
                .await
                .click()
                .await
                .expect("open the modal");
            b.wait_until("modal", "return !!document.getElementById('deploy-modal')")
                .await;
            let fits: bool = b
                .js("var r = document.getElementById('deploy-modal').getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && document.documentElement.scrollWidth <= innerWidth", vec![])
                .await;
            assert!(fits, "the modal fits at {width} px with the name {name:?}");
        }
    }
    b.screenshot("long-name-768-light").await;
    b.assert_clean_console("long names", &[]).await;
    b.close().await;
}

async fn assert_no_sideways_scroll(b: &Browser, what: &str) {
    let (scroll, inner): (f64, f64) = b
        .js(
            "return [document.documentElement.scrollWidth, window.innerWidth]",
            vec![],
        )
        .await;
    assert!(scroll <= inner, "{what}: scrollWidth {scroll} > {inner}");
}
