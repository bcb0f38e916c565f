//! A WebDriver session on headless Chromium with the few helpers the scenarios need:
//! JavaScript with typed answers, polling with a deadline, the console log, screenshots.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::Method;
use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::key::Key;
use fantoccini::wd::{Capabilities, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder, Locator};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use super::driver::{ChromeDriver, Tools};

/// How long a condition may take to become true before the scenario fails.
pub const DEADLINE: Duration = Duration::from_secs(10);

pub struct Browser {
    pub client: Client,
    pub base: String,
    /// Every browser console line seen so far (the log endpoint drains on each read).
    console: Mutex<Vec<String>>,
    _profile: tempfile::TempDir,
}

impl Browser {
    pub async fn open(driver: &ChromeDriver, tools: &Tools, base: &str) -> Browser {
        let profile = tempfile::tempdir().expect("a fresh Chromium profile directory");
        let args = [
            "--headless=new".to_owned(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--hide-scrollbars".into(),
            "--force-color-profile=srgb".into(),
            "--window-size=1280,900".into(),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        let caps: Capabilities = serde_json::from_value(json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": tools.chromium, "args": args },
            "goog:loggingPrefs": { "browser": "ALL" },
        }))
        .expect("capabilities are a JSON object");
        // ChromeDriver listens on 127.0.0.1 over plain HTTP: no TLS stack in the client.
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&driver.url)
            .await
            .unwrap_or_else(|e| {
                panic!("cannot open a Chromium session through {}: {e}", driver.url)
            });
        let browser = Browser {
            client,
            base: base.to_owned(),
            console: Mutex::default(),
            _profile: profile,
        };
        browser.set_viewport(1280, 900).await;
        browser
    }

    pub async fn close(self) {
        let _ = self.client.close().await;
    }

    /// Opens a page of the console and waits until htmx and the console's script are running.
    pub async fn goto(&self, path: &str) {
        self.goto_at(&self.base, path).await
    }

    /// As [`Browser::goto`], on the console served at `base` (another origin than the
    /// session's own, e.g. the same state served for another operator).
    pub async fn goto_at(&self, base: &str, path: &str) {
        self.client
            .goto(&format!("{base}{path}"))
            .await
            .expect("navigate");
        self.wait_until(
            &format!("{base}{path} loaded with htmx"),
            "return document.readyState === 'complete' && !!window.htmx",
        )
        .await;
    }

    /// Runs `script` (a function body; `arguments[i]` are `args`) and reads its answer.
    pub async fn js<T: DeserializeOwned>(&self, script: &str, args: Vec<Value>) -> T {
        let value = self
            .client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"));
        serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("script answered {value} which does not fit: {e}\n{script}"))
    }

    /// Polls `script` (answering a boolean) until it holds, or fails the scenario.
    pub async fn wait_until(&self, what: &str, script: &str) {
        self.wait_until_with(what, script, vec![]).await
    }

    pub async fn wait_until_with(&self, what: &str, script: &str, args: Vec<Value>) {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let ok = self
                .client
                .execute(script, args.clone())
                .await
                .map(|v| v == Value::Bool(true));
            if matches!(ok, Ok(true)) {
                return;
            }
            if Instant::now() > deadline {
                self.screenshot("FAILED-wait").await;
                panic!("waited {DEADLINE:?} for: {what} (last answer: {ok:?})");
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    pub async fn find(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
    }

    /// Presses keys on whatever has the focus, as a keyboard does (`Key` codes or text).
    /// Modifiers are held from their press to the end of `keys`.
    pub async fn keys(&self, keys: &str) {
        let mut actions = KeyActions::new("keyboard".into());
        let mut held = Vec::new();
        for c in keys.chars() {
            actions = actions.then(KeyAction::Down { value: c });
            if [Key::Shift, Key::Control, Key::Alt, Key::Meta]
                .iter()
                .any(|m| char::from(*m) == c)
            {
                held.push(c);
            } else {
                actions = actions.then(KeyAction::Up { value: c });
            }
        }
        for c in held {
            actions = actions.then(KeyAction::Up { value: c });
        }
        self.client
            .perform_actions(actions)
            .await
            .expect("keyboard input");
    }

    pub async fn press(&self, key: Key) {
        self.keys(&key.to_string()).await
    }

    /// Empties the focused text field with the keyboard (select all, delete).
    pub async fn clear_focused_field(&self) {
        self.keys(&format!("{}a", Key::Control)).await;
        self.press(Key::Backspace).await;
    }

    /// Moves the mouse over the element (its centre).
    pub async fn hover(&self, css: &str) {
        let element = self.find(css).await;
        let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        self.client
            .perform_actions(mouse)
            .await
            .expect("mouse move");
    }

    /// Moves the mouse to the page's top-left corner (hovering nothing of interest).
    pub async fn unhover(&self) {
        let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
            duration: None,
            x: 1.0,
            y: 1.0,
        });
        self.client
            .perform_actions(mouse)
            .await
            .expect("mouse move");
    }

    /// The element that has the focus, described by its hooks (for assertions and messages).
    pub async fn focused(&self) -> String {
        self.js(
            "var a = document.activeElement; if (!a) return 'none';
             var hooks = ['data-deploy-version','data-modal-cancel','data-modal-confirm']
               .filter(function (h) { return a.hasAttribute(h); })
               .map(function (h) { return '[' + h + '=' + a.getAttribute(h) + ']'; }).join('');
             return a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + (a.name ? '[name=' + a.name + ']' : '') + hooks;",
            vec![],
        )
        .await
    }

    /// Sets the size of the page's viewport (not of the window) to exactly `width` × `height`.
    pub async fn set_viewport(&self, width: u32, height: u32) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("resize");
        // The window's frame is not the viewport: correct by what is measured, a few times
        // (a loaded machine may answer with the size before the last resize settled).
        let mut inner: (u32, u32) = (0, 0);
        for _ in 0..5 {
            inner = self
                .js("return [window.innerWidth, window.innerHeight]", vec![])
                .await;
            if inner == (width, height) {
                break;
            }
            let (outer_w, outer_h): (u32, u32) = self
                .js("return [window.outerWidth, window.outerHeight]", vec![])
                .await;
            self.client
                .set_window_size(outer_w + width - inner.0, outer_h + height - inner.1)
                .await
                .expect("resize");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(inner, (width, height), "the viewport could not be sized");
    }

    /// Makes the page use `theme` by clicking the toggle, as an operator would.
    pub async fn use_theme(&self, theme: &str) {
        let current: String = self.js(THEME_NOW, vec![]).await;
        if current != theme {
            self.find("#theme-toggle")
                .await
                .click()
                .await
                .expect("click the theme toggle");
        }
        self.wait_until_with(
            &format!("theme {theme}"),
            &format!("{THEME_NOW_FN} return now() === arguments[0]"),
            vec![json!(theme)],
        )
        .await;
    }

    /// Writes a screenshot of the viewport to `target/screenshots/<name>.png`.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
        std::fs::create_dir_all(&dir).expect("create target/screenshots");
        let path = dir.join(format!("{name}.png"));
        match self.client.screenshot().await {
            Ok(png) => std::fs::write(&path, png).expect("write screenshot"),
            Err(e) => eprintln!("screenshot {name} failed: {e}"),
        }
        path
    }

    /// Reads (and keeps) the browser console lines logged since the last read.
    pub async fn console(&self) -> Vec<String> {
        let answer = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .expect("read the browser log");
        let lines: Vec<String> = answer
            .as_array()
            .map(|entries| {
                entries
                    .iter()
                    .map(|e| {
                        format!(
                            "{} {}",
                            e["level"].as_str().unwrap_or("?"),
                            e["message"].as_str().unwrap_or("")
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.console.lock().unwrap().extend(lines.iter().cloned());
        lines
    }

    /// Fails when the console reported a Content-Security-Policy violation, or an error
    /// other than the failed requests listed in `expected` (a scenario's own 4xx/5xx).
    pub async fn assert_clean_console(&self, during: &str, expected: &[&str]) {
        let lines = self.console().await;
        let csp: Vec<&String> = lines.iter().filter(|l| is_csp_violation(l)).collect();
        assert!(csp.is_empty(), "CSP violation during {during}:\n{csp:#?}");
        let severe: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("SEVERE") && !expected.iter().any(|e| l.contains(e)))
            .collect();
        assert!(
            severe.is_empty(),
            "console errors during {during}:\n{severe:#?}"
        );
    }
}

pub fn is_csp_violation(line: &str) -> bool {
    line.contains("Content Security Policy") || line.contains("Content-Security-Policy")
}

const THEME_NOW_FN: &str =
    "function now() { var t = document.documentElement.getAttribute('data-theme');
  return t || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'); }";
const THEME_NOW: &str = "var t = document.documentElement.getAttribute('data-theme');
  return t || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');";

/// ChromeDriver's log endpoint (not in the W3C standard, so not in fantoccini's API).
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (Method, Option<String>) {
        (Method::POST, Some(r#"{"type":"browser"}"#.to_owned()))
    }
}
