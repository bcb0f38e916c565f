//! End-to-end suite in real headless Chromium, driven through ChromeDriver with fantoccini,
//! against the console served in-process over the in-memory upstream.
//!
//! One test drives every scenario in turn (one browser, one at a time). ChromeDriver is
//! started on a free port and ended by its process group id when the suite ends, passes
//! or fails. After each scenario the browser console must hold no CSP violation and no
//! error but the scenario's own expected failed requests. Screenshots: `target/screenshots/`.

#[path = "../common/acme.rs"]
mod acme;
mod browser;
mod changes;
mod dashboard;
mod deploy;
mod driver;
mod history;
mod look;
mod screens;
mod versions;
mod world;

use std::panic::AssertUnwindSafe;
use std::time::Instant;

use futures::FutureExt;

use browser::Browser;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_suite() {
    let Some(tools) = driver::Tools::find_or_skip() else {
        return;
    };
    let target = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&target).expect("target/");
    let _ = std::fs::remove_dir_all(target.join("screenshots"));
    let driver = driver::ChromeDriver::start(&tools, &target.join("chromedriver.log")).await;
    let app = world::spawn_app().await;
    let browser = Browser::open(&driver, &tools, &app.address).await;
    let outcome = AssertUnwindSafe(run_all(&browser, &app, &driver, &tools))
        .catch_unwind()
        .await;
    if outcome.is_err() {
        browser.screenshot("FAILED").await;
    }
    browser.close().await;
    drop(driver);
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

macro_rules! scenario {
    ($b:expr, $name:literal, $expected:expr, $run:expr) => {{
        let started = Instant::now();
        eprintln!("scenario: {} ...", $name);
        $run.await;
        $b.assert_clean_console($name, $expected).await;
        eprintln!(
            "scenario: {} ok ({:.1}s)",
            $name,
            started.elapsed().as_secs_f64()
        );
    }};
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
        "dashboard",
        &[],
        dashboard::sync_cells_hover_and_theme(b, app)
    );
    scenario!(b, "768 px", &[], look::narrow_screen(b, app));
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
