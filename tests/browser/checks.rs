//! Checks in the browser (issue 39): production requires `smoke` passed on staging. The
//! versions page shows each version's check badges (v3 passed, v4 failed, linked to their
//! runs); the confirm step of v3 to production lists the required check as passed; v4's is
//! refused in the dialog (`data-refusal="checks_missing"`), naming the failed check. Each state
//! is checked by axe-core in both themes.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use repo_console::adapters::memory::{InMemoryPulp, MemoryCheckStore};
use repo_console::domain::check::{CheckKey, CheckName, CheckReport, RunUrl};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::checks::CheckPolicy;
use repo_console::domain::policy::{Allowed, Policy};
use repo_console::domain::repository::{RepoId, VersionNumber};
use repo_console::ports::CheckStore;

use super::a11y;
use super::browser::Browser;
use super::versions::wait_modal_focused;
use super::world::{self, verified};
use crate::test_app::TestApp;

const REPO: &str = "rhel9-baseos";

/// `rhel9-baseos`, verified, v0..v6: testing serves v4, staging v3, production v2.
fn build(pulp: &InMemoryPulp) -> RepoId {
    let id = pulp.add_repo(REPO, verified());
    for n in 1..=6 {
        pulp.add_version(&id, &[&format!("pkg{n}-1.0-1.el9.x86_64")], &[]);
    }
    for (env, n) in [("prod", 2), ("staging", 3), ("testing", 4)] {
        let publication = pulp.publish(&id, VersionNumber::new(n));
        pulp.add_distribution(&format!("{REPO}-{env}"), Some(&publication));
    }
    id
}

fn policy() -> Policy {
    let required = BTreeMap::from([(
        EnvironmentName::production(),
        vec![CheckName::parse("smoke").expect("a name")],
    )]);
    Policy::new(BTreeMap::new(), Allowed::Everyone).with_checks(CheckPolicy::new(
        required,
        BTreeSet::new(),
        None,
    ))
}

async fn reported(id: &RepoId, version: u64, passed: bool) -> CheckReport {
    CheckReport {
        key: CheckKey {
            repository_uuid: id.as_str().to_owned(),
            environment: EnvironmentName::parse("staging").expect("a name"),
            version,
            name: CheckName::parse("smoke").expect("a name"),
        },
        repository_name: REPO.into(),
        passed,
        url: Some(RunUrl::parse(&format!("https://ci.example.com/runs/{version}")).expect("a url")),
        reporter: "ci-staging".into(),
        at: chrono::Utc::now(),
    }
}

pub struct CheckedApp {
    pub app: TestApp<RepoId>,
}

pub async fn spawn_app() -> CheckedApp {
    let store = Arc::new(MemoryCheckStore::default());
    let kept = store.clone();
    let app = world::suite_app(build)
        .environments(repo_console::adapters::memory::demo::environments())
        .policy(policy())
        .configure(move |state| state.checks(kept))
        .spawn()
        .await;
    for (version, passed) in [(3, true), (4, false)] {
        store
            .record(&reported(&app.fixture, version, passed).await)
            .await
            .expect("kept");
    }
    CheckedApp { app }
}

async fn badge_state(b: &Browser, version: u64) -> String {
    b.js(
        "var e = document.querySelector(\"tr[data-version='\" + arguments[0] + \"'] [data-check='smoke'][data-check-env='staging']\");
         return e ? e.dataset.checkState : '';",
        vec![serde_json::json!(version.to_string())],
    )
    .await
}

async fn close_dialog(b: &Browser) {
    b.find("[data-modal-cancel]")
        .await
        .click()
        .await
        .expect("click Cancel");
    b.wait_until(
        "the dialog closed",
        "return !document.getElementById('deploy-modal')",
    )
    .await;
}

/// The badges, the required check listed at the confirm step, the refusal in the dialog.
pub async fn required_checks(b: &Browser, checked: &CheckedApp) {
    let app = &checked.app;
    b.goto(&format!("/repos/{}/versions", app.fixture)).await;
    assert_eq!(badge_state(b, 3).await, "passed");
    assert_eq!(badge_state(b, 4).await, "failed");
    assert_eq!(badge_state(b, 5).await, "", "no check reported on v5");
    a11y::check_themes(b, "the versions page with check badges").await;
    b.screenshot("checks-versions").await;

    b.find("button[data-deploy-version='3']")
        .await
        .click()
        .await
        .expect("click To production of v3");
    wait_modal_focused(b).await;
    let listed: String = b
        .js(
            "var e = document.querySelector(\"#deploy-modal [data-required-checks] [data-check='smoke']\");
             return e ? e.dataset.checkState : '';",
            vec![],
        )
        .await;
    assert_eq!(
        listed, "passed",
        "the confirm step lists the required check"
    );
    a11y::check_themes(b, "the confirm step listing the required checks").await;
    b.screenshot("checks-confirm").await;
    close_dialog(b).await;

    b.find("button[data-deploy-version='4']")
        .await
        .click()
        .await
        .expect("click To production of v4");
    b.wait_until(
        "the refusal is shown in the dialog",
        "var m = document.getElementById('deploy-modal');
         return !!m && !!m.querySelector(\"[data-refusal='checks_missing'] [data-check='smoke'][data-check-state='failed']\")",
    )
    .await;
    a11y::check_themes(b, "a deploy refused for its required checks").await;
    b.screenshot("checks-refused").await;
    close_dialog(b).await;
    assert_eq!(
        app.memory
            .serving_version("rhel9-baseos-prod")
            .map(|v| v.get()),
        Some(2),
        "nothing was deployed"
    );
}
