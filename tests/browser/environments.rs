//! Environments on the versions page: a version deployed to testing from its row, then
//! promoted to staging and to production with the strip's buttons; and the out-of-order
//! warning for production while staging never served the version.

use repo_console::adapters::memory::InMemoryPulp;
use repo_console::domain::deploy::AuditOutcome;
use repo_console::domain::environment::EnvironmentPath;
use repo_console::domain::repository::{RepoId, VersionNumber};
use serde_json::json;

use super::a11y;
use super::browser::Browser;
use super::versions::wait_modal_focused;
use super::world::{self, verified};
use crate::test_app::TestApp;

pub const REPO: &str = "rhel9-baseos";

/// The console with three environments over one repository (its fixture).
pub type EnvApp = TestApp<RepoId>;

/// testing, staging and production, each naming its distributions `<repository>-<env>`
/// (`-prod` for production); none requires the previous one: the demo's path.
fn path() -> EnvironmentPath {
    repo_console::adapters::memory::demo::environments()
}

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

pub async fn spawn_app() -> EnvApp {
    world::suite_app(build).environments(path()).spawn().await
}

/// The strip's versions, testing, staging, production (`None`: serves nothing).
async fn strip(b: &Browser) -> Vec<(String, Option<u64>)> {
    b.js(
        "return Array.from(document.querySelectorAll('section.environments li.env-card')).map(function (c) {
           return [c.dataset.env, c.dataset.envVersion === '' ? null : Number(c.dataset.envVersion)]; })",
        vec![],
    )
    .await
}

async fn assert_strip(b: &Browser, testing: u64, staging: u64, production: u64, when: &str) {
    let expected = [
        ("testing", testing),
        ("staging", staging),
        ("production", production),
    ]
    .map(|(e, n)| (e.to_owned(), Some(n)));
    assert_eq!(strip(b).await, expected, "the strip {when}");
}

/// Each row's `data-serving-envs`, by version, newest first.
async fn serving_envs(b: &Browser) -> Vec<(u64, String)> {
    b.js(
        "return Array.from(document.querySelectorAll('#version-list tr[data-version]')).map(function (r) {
           return [Number(r.dataset.version), r.dataset.servingEnvs]; })",
        vec![],
    )
    .await
}

async fn assert_serving(b: &Browser, expected: &[(u64, &str)], when: &str) {
    let rows = serving_envs(b).await;
    let all: Vec<(u64, String)> = (0..=6u64)
        .rev()
        .map(|n| {
            let envs = expected.iter().find(|(v, _)| *v == n).map_or("", |e| e.1);
            (n, envs.to_owned())
        })
        .collect();
    assert_eq!(rows, all, "rows' data-serving-envs {when}");
}

/// What the open modal says: its environment (`h2[data-env]`), the hidden `env` field,
/// and the environment an out-of-order warning says was skipped (`None`: no warning).
async fn modal_facts(b: &Browser) -> (String, String, Option<String>) {
    b.js(
        "var m = document.getElementById('deploy-modal'), w = m.querySelector('[data-warning=out-of-order]');
         return [m.querySelector('h2[data-env]').dataset.env, m.querySelector('input[name=env]').value,
                 w ? w.dataset.skips : null];",
        vec![],
    )
    .await
}

/// Clicks `opener`, checks the modal is for `env` with the `skips` warning (or none),
/// types the repository name and confirms; waits until the strip shows `version` in `env`.
async fn deploy_through_modal(
    b: &Browser,
    opener: &str,
    env: &str,
    version: u64,
    skips: Option<&str>,
) {
    b.find(opener)
        .await
        .click()
        .await
        .expect("click the opener");
    wait_modal_focused(b).await;
    let (title_env, field_env, warning) = modal_facts(b).await;
    assert_eq!(
        (title_env.as_str(), field_env.as_str()),
        (env, env),
        "the modal opened by {opener} names {env}"
    );
    assert_eq!(
        warning.as_deref(),
        skips,
        "out-of-order warning of v{version} to {env}"
    );
    b.screenshot(&format!("environments-modal-{env}")).await;
    b.keys(REPO).await;
    b.find("[data-modal-confirm]")
        .await
        .click()
        .await
        .expect("click Confirm deploy");
    b.wait_until_with(
        &format!("the modal closed and the strip shows v{version} in {env}"),
        "var c = document.querySelector(\"li.env-card[data-env='\" + arguments[0] + \"']\");
         return !document.getElementById('deploy-modal') && !!c && c.dataset.envVersion === arguments[1]",
        vec![json!(env), json!(version.to_string())],
    )
    .await;
    let banner: String = b
        .js(
            "return document.getElementById('deploy-banner').textContent",
            vec![],
        )
        .await;
    assert!(
        banner.contains(&format!("Deployed to {env}")) && banner.contains(&format!("v{version}")),
        "the banner names {env}: {banner:?}"
    );
}

/// The promote button towards `env`: the version it offers.
async fn promote_offer(b: &Browser, env: &str) -> Option<u64> {
    b.js(
        "var p = document.querySelector(\"button[data-promote-env='\" + arguments[0] + \"']\");
         return p ? Number(p.dataset.promoteVersion) : null;",
        vec![json!(env)],
    )
    .await
}

pub async fn deploy_then_promote(b: &Browser, app: &EnvApp) {
    dashboard_fits_1280(b).await;
    b.goto(&format!("/repos/{}/versions", app.fixture)).await;
    assert_strip(b, 4, 3, 2, "as seeded").await;
    assert_serving(
        b,
        &[(4, "testing"), (3, "staging"), (2, "production")],
        "as seeded",
    )
    .await;
    b.screenshot("environments-seeded").await;
    a11y::check_themes(b, "the versions page with three environments").await;

    deploy_through_modal(
        b,
        "button[data-deploy-to-version='5'][data-deploy-env='testing']",
        "testing",
        5,
        None,
    )
    .await;
    assert_strip(b, 5, 3, 2, "after v5 went to testing").await;
    assert_serving(
        b,
        &[(5, "testing"), (3, "staging"), (2, "production")],
        "after v5 went to testing",
    )
    .await;

    out_of_order_to_production(b, 5).await;

    assert_eq!(
        promote_offer(b, "staging").await,
        Some(5),
        "testing's v5 is offered to staging"
    );
    deploy_through_modal(
        b,
        "button[data-promote-env='staging'][data-promote-version='5']",
        "staging",
        5,
        None,
    )
    .await;
    assert_strip(b, 5, 5, 2, "after v5 was promoted to staging").await;
    assert_serving(
        b,
        &[(5, "testing staging"), (2, "production")],
        "after v5 was promoted to staging",
    )
    .await;

    assert_eq!(
        promote_offer(b, "production").await,
        Some(5),
        "staging's v5 is offered to production"
    );
    deploy_through_modal(
        b,
        "button[data-promote-env='production'][data-promote-version='5']",
        "production",
        5,
        None,
    )
    .await;
    assert_strip(b, 5, 5, 5, "after v5 was promoted to production").await;
    assert_serving(
        b,
        &[(5, "testing staging production")],
        "after v5 was promoted to production",
    )
    .await;
    let nothing_to_promote: bool = b
        .js(
            "return !document.querySelector('button[data-promote-env]')",
            vec![],
        )
        .await;
    assert!(
        nothing_to_promote,
        "every environment serves v5: nothing left to promote"
    );
    b.screenshot("environments-promoted").await;
    a11y::check_themes(b, "the versions page after the promotions").await;
    upstream_and_audit_agree(app);
    narrow_screen(b, app).await;
}

/// At 768 px the strip and a deploy button per environment fit: no sideways scroll, and
/// every row's buttons are on the screen.
async fn narrow_screen(b: &Browser, app: &EnvApp) {
    b.set_viewport(768, 1000).await;
    b.goto(&format!("/repos/{}/versions", app.fixture)).await;
    let (page, table, hidden): (bool, bool, Vec<String>) = b
        .js(
            "var w = document.querySelector('.table-wrap');
             var hidden = Array.from(document.querySelectorAll('td.action button')).filter(function (e) {
               var r = e.getBoundingClientRect(); return r.right > w.getBoundingClientRect().right; })
               .map(function (e) { return e.closest('tr').dataset.version + ' ' + e.textContent; });
             return [document.documentElement.scrollWidth <= innerWidth, w.scrollWidth <= w.clientWidth, hidden];",
            vec![],
        )
        .await;
    b.screenshot("environments-768-light").await;
    assert!(page, "the page does not scroll sideways at 768 px");
    assert!(table, "the table does not scroll sideways at 768 px");
    assert!(
        hidden.is_empty(),
        "buttons outside the table at 768 px: {hidden:?}"
    );
    b.set_viewport(1280, 900).await;
}

/// At 1280 px the dashboard with three environments fits: no sideways scroll of the page or
/// the table, and the last column (synchronization) inside the table's box.
async fn dashboard_fits_1280(b: &Browser) {
    b.set_viewport(1280, 900).await;
    b.goto("/").await;
    let (page, table, last_inside): (bool, bool, bool) = b
        .js(
            "var w = document.querySelector('.table-wrap');
             var last = document.querySelector('table.repos thead th:last-child').getBoundingClientRect();
             return [document.documentElement.scrollWidth <= innerWidth, w.scrollWidth <= w.clientWidth,
                     last.right <= w.getBoundingClientRect().right + 1];",
            vec![],
        )
        .await;
    b.screenshot("dashboard-1280-three-environments").await;
    assert!(page, "the dashboard does not scroll sideways at 1280 px");
    assert!(
        table,
        "the dashboard's table does not scroll sideways at 1280 px"
    );
    assert!(
        last_inside,
        "the synchronization column is inside the table at 1280 px"
    );
}

/// Production's Deploy of `n` while staging never served it: the modal warns that it skips
/// staging. Cancelled: nothing changes.
async fn out_of_order_to_production(b: &Browser, n: u64) {
    b.find(&format!("button[data-deploy-version='{n}']"))
        .await
        .click()
        .await
        .expect("click To production");
    wait_modal_focused(b).await;
    let (title_env, field_env, warning) = modal_facts(b).await;
    assert_eq!(
        (title_env.as_str(), field_env.as_str()),
        ("production", "production")
    );
    assert_eq!(
        warning.as_deref(),
        Some("staging"),
        "v{n} to production while staging never served it: out of order, skipping staging"
    );
    let text: String = b
        .js(
            "return document.querySelector('[data-warning=out-of-order]').textContent",
            vec![],
        )
        .await;
    assert!(
        text.contains("Out of order") && text.contains("staging"),
        "the warning says it in words: {text:?}"
    );
    b.screenshot("environments-out-of-order").await;
    a11y::check_themes(b, "the dialog warning out of order").await;
    b.find("[data-modal-cancel]")
        .await
        .click()
        .await
        .expect("click Cancel");
    b.wait_until(
        "the modal closed",
        "return !document.getElementById('deploy-modal')",
    )
    .await;
    assert_strip(b, n, 3, 2, "after the out-of-order deploy was cancelled").await;
}

/// The upstream's distributions serve v5, and the audit has one deploy per environment.
fn upstream_and_audit_agree(app: &EnvApp) {
    for env in ["testing", "staging", "prod"] {
        let served = app
            .memory
            .serving_version(&format!("{REPO}-{env}"))
            .map(|v| v.get());
        assert_eq!(served, Some(5), "{REPO}-{env} serves v5 upstream");
    }
    let deployed: Vec<(String, u64)> = app
        .recorded()
        .records()
        .iter()
        .filter(|r| r.outcome == AuditOutcome::Deployed)
        .map(|r| (r.environment.as_str().to_owned(), r.target_version))
        .collect();
    let expected = ["testing", "staging", "production"].map(|e| (e.to_owned(), 5));
    assert_eq!(
        deployed, expected,
        "the audit: v5 to each environment, in order"
    );
}
