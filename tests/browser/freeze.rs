//! A freeze in the browser: production is frozen over the year's end on a fixed clock
//! (2026-12-24). Carol (group sre, listed in the freeze's override) sees the freeze banners,
//! opens the dialog that offers the override, confirms without ticking it and is refused in
//! the dialog; dave (no group) sees the Deploy buttons disabled. Each state is checked by
//! axe-core in both themes.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use repo_console::adapters::memory::InMemoryPulp;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{FreezeWindow, Policy, Subject};
use repo_console::domain::repository::RepoId;

use super::a11y;
use super::browser::Browser;
use super::versions::wait_modal_focused;
use super::world::{self, operator};
use crate::test_app::Standing;

const REPO: &str = "rhel9-baseos";

pub struct FrozenApp {
    /// The console as carol (group sre: may override the freeze) sees it.
    pub carol: String,
    /// The same console as dave (no group) sees it.
    pub dave: String,
    pub memory: Arc<InMemoryPulp>,
    /// `rhel9-baseos`: v0..v5, production serves v3.
    pub repo: RepoId,
    _standing: Standing<RepoId>,
}

/// Production frozen from 2026-12-20 to 2027-01-04; group:sre may override.
fn policy() -> Policy {
    let production = EnvironmentName::production();
    let window = FreezeWindow::interval("2026-12-20T00:00:00Z/2027-01-04T00:00:00Z")
        .expect("a freeze window");
    let sre = vec![Subject::parse("group:sre").expect("a subject")];
    Policy::default()
        .with_freezes(BTreeMap::from([(production.clone(), vec![window])]))
        .with_overriders(BTreeMap::from([(production, sre)]))
}

pub async fn spawn_app() -> FrozenApp {
    let standing = world::suite_app(|memory| world::build(memory).baseos)
        .production(HashMap::new())
        .policy(policy())
        .at("2026-12-24T18:00:00Z")
        .build();
    let carol = standing
        .serve_variant(|state| state.identity(operator("carol", &["sre"])))
        .await;
    let dave = standing
        .serve_variant(|state| state.identity(operator("dave", &[])))
        .await;
    FrozenApp {
        carol,
        dave,
        memory: standing.memory.clone(),
        repo: standing.fixture.clone(),
        _standing: standing,
    }
}

/// The banners, the override offered in the dialog, the refusal in the dialog, the disabled
/// buttons of someone who may not override: each checked by axe in both themes.
pub async fn frozen_production(b: &Browser, app: &FrozenApp) {
    b.goto_at(&app.carol, "/").await;
    let banner: String = b
        .js(
            "var f = document.querySelector('[data-freeze]'); return f ? f.textContent : ''",
            vec![],
        )
        .await;
    assert!(
        banner.contains("production takes no deploy") && banner.contains("2027-01-04"),
        "the dashboard names the freeze: {banner:?}"
    );
    a11y::check_themes(b, "the dashboard with a freeze banner").await;

    b.goto_at(&app.carol, &format!("/repos/{}/history", app.repo))
        .await;
    a11y::check_themes(b, "the history page with a freeze banner").await;

    b.goto_at(&app.carol, &format!("/repos/{}/versions", app.repo))
        .await;
    let enabled: bool = b
        .js(
            "return !document.querySelector(\"button[data-deploy-version='4']\").disabled",
            vec![],
        )
        .await;
    assert!(enabled, "carol may deploy through the freeze");
    a11y::check_themes(b, "the versions page with a freeze banner").await;
    b.screenshot("freeze-versions").await;

    b.find("button[data-deploy-version='4']")
        .await
        .click()
        .await
        .expect("click Deploy of v4");
    wait_modal_focused(b).await;
    let offered: bool = b
        .js(
            "return !!document.querySelector('#deploy-modal input[name=override]')",
            vec![],
        )
        .await;
    assert!(offered, "the dialog offers carol the override");
    b.keys(REPO).await;
    a11y::check_themes(b, "the dialog offering the freeze override").await;
    b.screenshot("freeze-override-modal").await;

    // Confirmed without ticking the override: refused, in the dialog.
    b.find("[data-modal-confirm]")
        .await
        .click()
        .await
        .expect("click Confirm deploy");
    b.wait_until(
        "the refusal is shown in the dialog",
        "var m = document.getElementById('deploy-modal');
         return !!m && !!m.querySelector(\"[data-refusal='freeze']\")",
    )
    .await;
    let focus_inside: bool = b
        .js(
            "return document.getElementById('deploy-modal').contains(document.activeElement)",
            vec![],
        )
        .await;
    assert!(focus_inside, "the focus is in the dialog that refuses");
    a11y::check_themes(b, "a refusal in the dialog").await;
    b.screenshot("freeze-refused").await;
    b.find("[data-modal-cancel]")
        .await
        .click()
        .await
        .expect("click Close");
    b.wait_until(
        "the dialog closed",
        "return !document.getElementById('deploy-modal')",
    )
    .await;
    assert_eq!(
        app.memory
            .serving_version("rhel9-baseos-prod")
            .map(|v| v.get()),
        Some(3),
        "nothing was deployed"
    );

    b.goto_at(&app.dave, &format!("/repos/{}/versions", app.repo))
        .await;
    let disabled: bool = b
        .js(
            "return Array.from(document.querySelectorAll('button[data-deploy-version]')).every(function (e) { return e.disabled; })",
            vec![],
        )
        .await;
    assert!(disabled, "dave may not deploy during the freeze");
    a11y::check_themes(
        b,
        "the versions page frozen for someone who may not override",
    )
    .await;
}
