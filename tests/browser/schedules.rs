//! Scheduled deploys in the browser: carol schedules v4 of rhel9-baseos for production from
//! the confirm step (the Run at field), the dialog says it was scheduled, `/schedules` and
//! the versions page list it waiting, and she cancels it from the list. Nothing is deployed.
//! Each state is checked by axe-core in both themes.

use std::collections::HashMap;
use std::sync::Arc;

use repo_console::adapters::memory::{InMemoryPulp, MemoryScheduleStore};
use repo_console::domain::repository::RepoId;
use serde_json::json;

use super::a11y;
use super::browser::Browser;
use super::versions::open_modal;
use super::world::{self, operator};
use crate::test_app::Standing;

const REPO: &str = "rhel9-baseos";

pub struct SchedulingApp {
    /// The console as carol sees it.
    pub carol: String,
    pub memory: Arc<InMemoryPulp>,
    /// `rhel9-baseos`: production serves v3.
    pub repo: RepoId,
    _standing: Standing<RepoId>,
}

pub async fn spawn_app() -> SchedulingApp {
    let standing = world::suite_app(|memory| world::build(memory).baseos)
        .production(HashMap::new())
        .configure(|state| {
            state.schedules(
                Arc::new(MemoryScheduleStore::default()),
                chrono::Duration::minutes(10),
            )
        })
        .build();
    let carol = standing
        .serve_variant(|state| state.identity(operator("carol", &["release"])))
        .await;
    SchedulingApp {
        carol,
        memory: standing.memory.clone(),
        repo: standing.fixture.clone(),
        _standing: standing,
    }
}

/// A schedule made from the dialog, listed, then cancelled from the list.
pub async fn schedule_then_cancel(b: &Browser, app: &SchedulingApp) {
    b.goto_at(&app.carol, &format!("/repos/{}/versions", app.repo))
        .await;
    open_modal(b, 4).await;
    let at = (chrono::Utc::now() + chrono::Duration::days(2))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    b.js::<bool>(
        "document.getElementById('at-input').value = arguments[0]; return true",
        vec![json!(at)],
    )
    .await;
    b.keys(REPO).await;
    a11y::check_themes(b, "the dialog with a time to run at").await;
    b.find("[data-modal-confirm]")
        .await
        .click()
        .await
        .expect("click Confirm deploy");
    b.wait_until(
        "the dialog says it was scheduled",
        "var m = document.getElementById('deploy-modal');
         return !!m && !!m.querySelector(\"[data-schedule-state='waiting']\")",
    )
    .await;
    a11y::check_themes(b, "the dialog of a scheduled deploy").await;
    b.screenshot("schedule-made").await;

    b.goto_at(&app.carol, &format!("/repos/{}/versions", app.repo))
        .await;
    let listed: bool = b
        .js(
            "return !!document.querySelector(\"#schedules tr[data-schedule-state='waiting']\")",
            vec![],
        )
        .await;
    assert!(listed, "the versions page lists the waiting schedule");
    a11y::check_themes(b, "the versions page with a scheduled deploy").await;

    b.goto_at(&app.carol, "/schedules").await;
    a11y::check_themes(b, "the schedules page").await;
    b.screenshot("schedules").await;
    b.find("tr[data-schedule-state='waiting'] form button")
        .await
        .click()
        .await
        .expect("click Cancel");
    b.wait_until(
        "the list shows it cancelled",
        "return !!document.querySelector(\"tr[data-schedule-state='cancelled']\")",
    )
    .await;
    a11y::check_themes(b, "the schedules page with a cancelled schedule").await;
    assert_eq!(
        app.memory
            .serving_version("rhel9-baseos-prod")
            .map(|v| v.get()),
        Some(3),
        "nothing was deployed"
    );
}
