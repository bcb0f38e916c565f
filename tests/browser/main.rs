//! End-to-end suite in real headless Chromium, driven through ChromeDriver with fantoccini,
//! against the console served in-process over the in-memory upstream. Each test needs
//! Chromium, ChromeDriver and axe-core, so carries `#[ignore = "needs Chromium"]`:
//! `scripts/test.sh` installs them and runs it (`-- --include-ignored`).
//!
//! One test drives every scenario in turn (one browser, one at a time); `environments_promotion`
//! drives a console configured with three environments; `approvals` one whose production
//! needs an approval, served twice (for the requester and for the approver); `freeze` one
//! whose production is frozen on a fixed clock; `schedules` one that keeps scheduled deploys;
//! `required_checks` one whose production requires a check passed on staging; `release_promotion`
//! one with a release of three repositories; `exposure_page` the exposure page over its own
//! world; `insights_page` the insights over a generated audit; `navigation` the header's navigation on every page at 1280 and 390 px, for an
//! approver a request waits for. They never run at once. axe-core checks
//! every page and dialog state in both themes (`a11y.rs`). Each starts ChromeDriver on a free port and ends it by its process group id when
//! it ends, passes or fails. After each scenario the browser console must hold no CSP
//! violation and no error but the scenario's own expected failed requests. Screenshots:
//! `target/screenshots/`.

mod a11y;
#[path = "../common/acme.rs"]
mod acme;
mod approvals;
mod browser;
mod changes;
mod checks;
mod dashboard;
mod deploy;
mod driver;
mod environments;
mod exposure;
mod freeze;
mod history;
mod insights;
#[path = "../common/insights_world.rs"]
mod insights_world;
mod look;
mod navigation;
#[path = "../common/needs.rs"]
mod needs;
#[path = "../common/oidc_provider.rs"]
mod oidc_provider;
mod releases;
mod schedules;
mod screens;
mod sign_in;
#[path = "../common/test_app/mod.rs"]
mod test_app;
#[path = "../common/verified.rs"]
mod verified;
mod versions;
#[path = "../common/web.rs"]
mod web;
mod world;

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::Once;
use std::time::Instant;

use futures::FutureExt;

use browser::Browser;

/// Runs a scenario, checks the browser console after it, and answers what it answered.
macro_rules! scenario {
    ($b:expr, $name:literal, $expected:expr, $run:expr) => {{
        let started = Instant::now();
        eprintln!("scenario: {} ...", $name);
        let answer = $run.await;
        $b.assert_clean_console($name, $expected).await;
        eprintln!(
            "scenario: {} ok ({:.1}s)",
            $name,
            started.elapsed().as_secs_f64()
        );
        answer
    }};
}

/// One Chromium at a time on the machine: the tests of this binary take turns.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// `target/`, with `target/screenshots/` emptied by the first test of the run.
fn target_dir() -> PathBuf {
    static FRESH: Once = Once::new();
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&target).expect("target/");
    FRESH.call_once(|| {
        let _ = std::fs::remove_dir_all(target.join("screenshots"));
    });
    target
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn browser_suite() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let tools = driver::Tools::required();
    a11y::require();
    let target = target_dir();
    let driver = driver::ChromeDriver::start(&tools, &target.join("chromedriver.log")).await;
    let app = world::spawn_app().await;
    let browser = Browser::open(&driver, &tools, &app.address).await;
    let outcome = AssertUnwindSafe(run_all(&browser, &app, &driver, &tools))
        .catch_unwind()
        .await;
    finish(browser, driver, outcome, "browser_suite", "FAILED").await;
}

/// One test's Chromium: the machine's turn (one Chromium at a time), its ChromeDriver (its
/// log `target/chromedriver-<test>.log`) and a browser on the console at `address`.
struct Session {
    _turn: tokio::sync::MutexGuard<'static, ()>,
    test: &'static str,
    driver: driver::ChromeDriver,
    browser: Browser,
}

impl Session {
    async fn open(test: &'static str, address: &str) -> Self {
        let turn = ONE_AT_A_TIME.lock().await;
        let tools = driver::Tools::required();
        a11y::require();
        let log = target_dir().join(format!("chromedriver-{test}.log"));
        let driver = driver::ChromeDriver::start(&tools, &log).await;
        let browser = Browser::open(&driver, &tools, address).await;
        Self {
            _turn: turn,
            test,
            driver,
            browser,
        }
    }

    /// Ends the browser and its driver after the scenarios ended so ([`finish`]).
    async fn end(self, outcome: Outcome) {
        let failed = format!("FAILED-{}", self.test);
        finish(self.browser, self.driver, outcome, self.test, &failed).await;
    }
}

/// How a test's scenarios ended: passed, or the panic to pass on once the browser is closed.
type Outcome = Result<(), Box<dyn std::any::Any + Send>>;

/// Runs `scenarios`, catching their panic.
async fn caught(scenarios: impl std::future::Future<Output = ()>) -> Outcome {
    AssertUnwindSafe(scenarios).catch_unwind().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn environments_promotion() {
    let app = environments::spawn_app().await;
    let session = Session::open("environments_promotion", &app.address).await;
    let b = &session.browser;
    let scenarios = async {
        scenario!(
            b,
            "deploy to testing, promote to staging and production",
            &[],
            environments::deploy_then_promote(b, &app)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium and oidc-provider-mock"]
async fn oidc_sign_in() {
    let app = sign_in::spawn_app().await;
    let session = Session::open("oidc_sign_in", &app.address).await;
    let b = &session.browser;
    let scenarios = async {
        // The provider's pages ask for a style sheet from a CDN the tests cannot reach, and
        // for a /favicon.ico it does not have.
        scenario!(
            b,
            "sign in, deploy by a group claim, refused without it, sign out, expire",
            &[
                "cdn.jsdelivr.net",
                "/favicon.ico - Failed to load resource: the server responded with a status of 404"
            ],
            sign_in::sign_in_deploy_sign_out_and_expire(b, &app)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn exposure_page() {
    let app = exposure::spawn_app().await;
    let session = Session::open("exposure_page", &app.address).await;
    let b = &session.browser;
    let scenarios = async {
        scenario!(
            b,
            "exposure: a CVE across repositories and environments",
            &[],
            exposure::ask_a_cve_and_open_the_fix(b, &app)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn insights_page() {
    let app = insights::spawn_app().await;
    let session = Session::open("insights_page", &app.address).await;
    let b = &session.browser;
    let scenarios = async {
        scenario!(
            b,
            "insights: a generated history at 1280 and 390 px in both themes",
            &[],
            insights::generated_history_in_both_themes_at_two_widths(b, &app)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn approvals() {
    let app = approvals::spawn_app().await;
    let session = Session::open("approvals", &app.alice).await;
    let b = &session.browser;
    let scenarios = async {
        let id = scenario!(
            b,
            "a deploy to production is a request",
            &[],
            approvals::alice_requests(b, &app)
        );
        scenario!(
            b,
            "the requester may not approve",
            &[],
            approvals::alice_may_not_approve(b, &app, &id)
        );
        scenario!(
            b,
            "someone else approves, the deploy runs",
            &[],
            approvals::bob_approves(b, &app, &id)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn freeze() {
    let app = freeze::spawn_app().await;
    let session = Session::open("freeze", &app.carol).await;
    let b = &session.browser;
    let scenarios = async {
        scenario!(
            b,
            "production frozen: banners, the override, a refusal",
            &["409 (Conflict)", "Error Code 409"],
            freeze::frozen_production(b, &app)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn release_promotion() {
    let app = releases::spawn_app().await;
    let session = Session::open("release_promotion", &app.address).await;
    let b = &session.browser;
    let scenarios = async {
        scenario!(
            b,
            "a release's set promoted from staging to production",
            &[],
            releases::promote_the_set(b)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn schedules() {
    let app = schedules::spawn_app().await;
    let session = Session::open("schedules", &app.carol).await;
    let b = &session.browser;
    let scenarios = async {
        scenario!(
            b,
            "a deploy scheduled from the dialog, listed, cancelled",
            &[],
            schedules::schedule_then_cancel(b, &app)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn required_checks() {
    let app = checks::spawn_app().await;
    let session = Session::open("required_checks", &app.app.address).await;
    let b = &session.browser;
    let scenarios = async {
        scenario!(
            b,
            "required checks: badges, the confirm step, a refusal",
            &["409 (Conflict)", "Error Code 409"],
            checks::required_checks(b, &app)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium"]
async fn navigation() {
    let app = navigation::spawn_app().await;
    let session = Session::open("navigation", &app.bob).await;
    let b = &session.browser;
    let scenarios = async {
        scenario!(
            b,
            "the navigation on every page at 1280 and 390 px, and by keyboard",
            &[],
            navigation::every_page_at_both_widths(b, &app)
        );
    };
    let outcome = caught(scenarios).await;
    session.end(outcome).await;
}

/// Ends the browser and its driver, then passes the scenarios' panic on (after a
/// screenshot named `failed`); when `test` passed, says what axe-core checked in it.
async fn finish(
    browser: Browser,
    driver: driver::ChromeDriver,
    outcome: Outcome,
    test: &str,
    failed: &str,
) {
    if outcome.is_err() {
        browser.screenshot(failed).await;
    } else {
        a11y::summary(test);
    }
    browser.close().await;
    drop(driver);
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

async fn run_all(
    b: &Browser,
    app: &world::App,
    driver: &driver::ChromeDriver,
    tools: &driver::Tools,
) {
    scenario!(
        b,
        "security headers",
        &["404 (Not Found)", "422 (Unprocessable"],
        look::security_headers(b, app)
    );
    scenario!(
        b,
        "versions page",
        &[],
        versions::page_rows_badges_and_buttons(b, app)
    );
    scenario!(b, "confirm modal", &[], versions::confirm_modal(b, app));
    scenario!(b, "contrast", &[], look::contrast(b, app));
    scenario!(
        b,
        "deploy with the keyboard",
        &[],
        deploy::deploy_with_keyboard(b, app)
    );
    scenario!(
        b,
        "rollback from the history page",
        &[],
        history::rollback_from_history(b, app)
    );
    scenario!(
        b,
        "failure paths",
        &["502 (Bad Gateway)", "Error Code 502", "404 (Not Found)"],
        deploy::failed_deploy(b, app)
    );
    scenario!(
        b,
        "the dialog shows the deploy's steps",
        &[],
        deploy::steps_while_deploying(b, app)
    );
    scenario!(
        b,
        "dashboard",
        &[],
        dashboard::sync_cells_hover_and_theme(b, app)
    );
    scenario!(b, "768 px", &[], look::narrow_screen(b, app));
    scenario!(b, "390 px", &[], look::phone_screen(b, app));
    scenario!(
        b,
        "hostile name and the CSP detector",
        &[],
        look::hostile_name(driver, tools)
    );
    scenario!(
        b,
        "500-character and right-to-left names",
        &[],
        look::long_names(driver, tools)
    );
    // Last: these add repositories to the shared world (the dashboard counts them).
    scenario!(
        b,
        "confirm step with a diff",
        &[],
        changes::confirm_step_with_a_diff(b, app)
    );
    scenario!(
        b,
        "production on another screen",
        &[],
        screens::production_on_another_screen(b, app)
    );
}
