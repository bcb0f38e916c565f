//! Accessibility held by a real checker: axe-core (WCAG 2.0/2.1 A and AA, and axe's best
//! practices), injected through WebDriver into the page the scenario is on, run on every page
//! and dialog state in both themes. A violation of impact serious or critical fails the
//! scenario with its rule, the elements and axe's help; moderate and minor ones are listed on
//! the standard error, each once.
//!
//! axe-core comes from the npm registry: `scripts/test.sh` installs the version pinned in
//! `axe-core.version` into `$RC_TEST_CACHE/axe-core-<version>` (default
//! `~/.cache/repo-console`), and `RC_TEST_AXE_JS` may name another `axe.min.js`. Missing, it
//! fails the browser tests (they need Chromium and axe-core, and run only when asked).
//!
//! Also here: the focus ring of the focused element, as an operator sees it.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use serde::Deserialize;
use serde_json::{json, Value};

use super::browser::Browser;

/// The axe-core version the suite runs (`npm install axe-core@<this>`).
pub fn version() -> &'static str {
    include_str!("axe-core.version").trim()
}

/// Where `axe.min.js` is: `RC_TEST_AXE_JS`, else where `scripts/test.sh` installs it.
fn axe_path() -> PathBuf {
    if let Some(path) = std::env::var_os("RC_TEST_AXE_JS") {
        return PathBuf::from(path);
    }
    let cache = std::env::var_os("RC_TEST_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into()))
                .join(".cache/repo-console")
        });
    cache.join(format!(
        "axe-core-{}/node_modules/axe-core/axe.min.js",
        version()
    ))
}

/// axe's source, read once; fails the test where it is missing.
fn source() -> &'static str {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let path = axe_path();
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            let why = format!(
                "no axe-core at {} ({e}); scripts/test.sh installs it (npm install axe-core@{}), \
                 or set RC_TEST_AXE_JS",
                path.display(),
                version()
            );
            crate::needs::missing("axe-core", &why)
        })
    })
}

/// Fails at once when axe-core is missing, before any browser starts.
pub fn require() {
    let _ = source();
}

/// What axe says about one rule.
#[derive(Debug, Deserialize)]
struct Finding {
    id: String,
    impact: Option<String>,
    help: String,
    #[serde(rename = "helpUrl")]
    help_url: String,
    nodes: Vec<Node>,
}

#[derive(Debug, Deserialize)]
struct Node {
    target: String,
    html: String,
    summary: String,
}

#[derive(Debug, Deserialize)]
struct Results {
    version: String,
    violations: Vec<Finding>,
    error: Option<String>,
}

const RUN: &str = "var done = arguments[arguments.length - 1];
  function slim(v) {
    return { id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
      nodes: v.nodes.map(function (n) {
        return { target: n.target.map(function (t) { return typeof t === 'string' ? t : JSON.stringify(t); }).join(' '),
                 html: n.html.slice(0, 240), summary: n.failureSummary || '' }; }) };
  }
  window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    resultTypes: ['violations']
  }).then(function (r) { done({ version: window.axe.version, violations: r.violations.map(slim), error: null }); },
          function (e) { done({ version: window.axe.version, violations: [], error: String(e) }); });";

/// Moderate and minor findings already listed (rule and element), so each is listed once.
static LISTED: Mutex<BTreeSet<(String, String)>> = Mutex::new(BTreeSet::new());

/// States checked since the last [`summary`].
static CHECKED: AtomicUsize = AtomicUsize::new(0);

/// One line on the standard error: how many states axe checked in this test, how many
/// moderate or minor findings it listed; then starts counting afresh (the tests take turns).
pub fn summary(test: &str) {
    let checked = CHECKED.swap(0, Ordering::SeqCst);
    let listed = std::mem::take(&mut *LISTED.lock().unwrap()).len();
    let _ = writeln!(
        std::io::stderr(),
        "axe-core {}: {test}: {checked} page and dialog states checked, none with a serious or \
         critical violation; {listed} moderate or minor finding(s) listed",
        version()
    );
}

/// Runs axe on the page as it is now, `what` naming the state (page, dialog, theme).
pub async fn check(b: &Browser, what: &str) {
    let source = source();
    let loaded: bool = b
        .js(
            "return !!window.axe && window.axe.version === arguments[0]",
            vec![json!(version())],
        )
        .await;
    if !loaded {
        b.client
            .execute(source, vec![])
            .await
            .unwrap_or_else(|e| panic!("injecting axe-core into {what}: {e}"));
    }
    let answer: Value = b
        .client
        .execute_async(RUN, vec![])
        .await
        .unwrap_or_else(|e| panic!("axe.run on {what}: {e}"));
    let results: Results = serde_json::from_value(answer.clone())
        .unwrap_or_else(|e| panic!("axe answered {answer} on {what}, which does not fit: {e}"));
    assert!(
        results.error.is_none(),
        "axe.run failed on {what}: {results:?}"
    );
    assert_eq!(results.version, version(), "the pinned axe-core runs");
    CHECKED.fetch_add(1, Ordering::SeqCst);
    let (blocking, other): (Vec<&Finding>, Vec<&Finding>) = results
        .violations
        .iter()
        .partition(|f| matches!(f.impact.as_deref(), Some("serious" | "critical")));
    for finding in other {
        for node in &finding.nodes {
            let new = LISTED
                .lock()
                .unwrap()
                .insert((finding.id.clone(), node.target.clone()));
            if new {
                let _ = writeln!(
                    std::io::stderr(),
                    "axe {} ({}) on {what}: {} — {} at `{}`: {}",
                    finding.impact.as_deref().unwrap_or("?"),
                    finding.id,
                    finding.help,
                    finding.help_url,
                    node.target,
                    node.html
                );
            }
        }
    }
    if !blocking.is_empty() {
        b.screenshot(&format!("FAILED-axe-{}", slug(what))).await;
        let report: Vec<String> = blocking.iter().map(|f| describe(f)).collect();
        panic!(
            "axe-core {} found {} serious or critical violation(s) on {what}:\n{}",
            results.version,
            blocking.len(),
            report.join("\n")
        );
    }
}

/// Runs [`check`] in the light and in the dark theme (set as the toggle sets it, which also
/// works while a dialog's backdrop covers the toggle), then puts the theme back.
pub async fn check_themes(b: &Browser, what: &str) {
    let before: Option<String> = b
        .js(
            "return document.documentElement.getAttribute('data-theme')",
            vec![],
        )
        .await;
    for theme in ["light", "dark"] {
        b.js::<()>(
            "document.documentElement.setAttribute('data-theme', arguments[0])",
            vec![json!(theme)],
        )
        .await;
        check(b, &format!("{what} ({theme})")).await;
    }
    b.js::<()>(
        "if (arguments[0] === null) document.documentElement.removeAttribute('data-theme');
         else document.documentElement.setAttribute('data-theme', arguments[0]);",
        vec![json!(before)],
    )
    .await;
}

fn describe(f: &Finding) -> String {
    let nodes: Vec<String> = f
        .nodes
        .iter()
        .map(|n| {
            format!(
                "    at `{}`: {}\n      {}",
                n.target,
                n.html,
                n.summary.replace('\n', "\n      ")
            )
        })
        .collect();
    format!(
        "  [{}] {}: {} ({})\n{}",
        f.impact.as_deref().unwrap_or("?"),
        f.id,
        f.help,
        f.help_url,
        nodes.join("\n")
    )
}

fn slug(what: &str) -> String {
    what.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The focused element shows a focus ring: it matches `:focus-visible`, its outline is drawn
/// (style, at least 2 px), and the outline's colour stands 3:1 against what is around it
/// (WCAG 1.4.11). Answers a description of the element, for messages.
pub async fn assert_focus_ring(b: &Browser, when: &str) -> String {
    let (who, visible, style, width, ratio): (String, bool, String, f64, f64) =
        b.js(FOCUS_RING, vec![]).await;
    assert!(
        visible && style != "none" && width >= 2.0 && ratio >= 3.0,
        "{when}: no visible focus ring on {who} (:focus-visible {visible}, outline {style} {width}px, \
         contrast {ratio:.2}:1)"
    );
    who
}

const FOCUS_RING: &str = "
function rgb(c) { var m = c.match(/[\\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 }; }
function lum(c) { return [c.r, c.g, c.b].map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
  .reduce(function (s, v, i) { return s + v * [0.2126, 0.7152, 0.0722][i]; }, 0); }
function bg(el) { for (; el; el = el.parentElement) { var c = rgb(getComputedStyle(el).backgroundColor); if (c.a > 0.5) return c; }
  return rgb(getComputedStyle(document.body).backgroundColor); }
var a = document.activeElement;
if (!a || a === document.body) return ['nothing focused', false, 'none', 0, 0];
var s = getComputedStyle(a);
var ring = lum(rgb(s.outlineColor)), around = lum(bg(a.parentElement || a));
var ratio = (Math.max(ring, around) + 0.05) / (Math.min(ring, around) + 0.05);
var who = a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + (a.className ? '.' + String(a.className).split(' ').join('.') : '')
  + ' \"' + (a.getAttribute('aria-label') || a.textContent || a.value || '').trim().slice(0, 40) + '\"';
return [who, a.matches(':focus-visible'), s.outlineStyle, parseFloat(s.outlineWidth) || 0, ratio];";
