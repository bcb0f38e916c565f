//! Deploying from the modal, with the keyboard alone, and what a failure shows.

use fantoccini::key::Key;
use repo_console::adapters::memory::{Fault, Op};
use repo_console::domain::AuditOutcome;
use serde_json::json;

use super::browser::Browser;
use super::versions::{open_modal, version_rows};
use super::world::App;

/// Tabs from the top of the page to the Deploy button of version `n`.
async fn tab_to_deploy_button(b: &Browser, n: u64) {
    for _ in 0..60 {
        b.press(Key::Tab).await;
        let here: bool = b
            .js("return document.activeElement && document.activeElement.getAttribute('data-deploy-version') === arguments[0]",
                vec![json!(n.to_string())])
            .await;
        if here {
            return;
        }
    }
    panic!("60 Tabs did not reach the Deploy button of v{n}");
}

pub async fn deploy_with_keyboard(b: &Browser, app: &App) {
    b.goto(&format!("/repos/{}/versions", app.world.baseos))
        .await;
    b.js::<()>("window.__e2eMarker = 'still-here'", vec![])
        .await;
    tab_to_deploy_button(b, 5).await;
    b.press(Key::Enter).await;
    b.wait_until("the modal is open, focus in the field",
        "var m = document.getElementById('deploy-modal'); return !!m && document.activeElement === m.querySelector('input[name=confirm]')").await;
    b.keys("rhel9-baseos").await;
    b.press(Key::Tab).await; // Cancel
    b.press(Key::Tab).await; // Confirm deploy
    let on_confirm = b.focused().await;
    assert!(
        on_confirm.contains("data-modal-confirm"),
        "two Tabs from the field reach Confirm deploy, not {on_confirm}"
    );
    b.press(Key::Enter).await;

    b.wait_until("the modal closed and the banner appeared",
        "return !document.getElementById('deploy-modal') && !!document.getElementById('deploy-banner')").await;
    let marker: Option<String> = b.js("return window.__e2eMarker || null", vec![]).await;
    assert_eq!(
        marker.as_deref(),
        Some("still-here"),
        "the page was not reloaded: the list was swapped in place"
    );
    let rows = version_rows(b).await;
    assert_eq!(
        rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        [5, 4, 3, 2, 1, 0]
    );
    for (number, deployed, _, _, disabled) in &rows {
        assert_eq!(
            *deployed,
            *number == 5,
            "the deployed mark moved to v5 (row v{number})"
        );
        assert_eq!(
            *disabled,
            *number == 5,
            "only the new live version's button is disabled (v{number})"
        );
    }
    let live: Vec<u64> = b
        .js("return Array.from(document.querySelectorAll('[data-live]')).map(function (e) { return Number(e.closest('tr').dataset.version); })", vec![])
        .await;
    assert_eq!(live, [5], "the Live badge moved to v5");
    let banner: String = b
        .js(
            "return document.getElementById('deploy-banner').textContent",
            vec![],
        )
        .await;
    assert!(
        banner.contains("v5") && banner.contains("was v3"),
        "banner: {banner:?}"
    );
    let focus = b.focused().await;
    assert!(
        focus.contains("deploy-banner"),
        "after the deploy the focus is on the banner, not {focus}"
    );
    let records = app.audit.records();
    let last = records.last().expect("the deploy wrote an audit record");
    assert_eq!(
        (last.previous_version, last.target_version),
        (Some(3), 5),
        "audit: v3 → v5"
    );
    assert_eq!(
        last.outcome,
        AuditOutcome::Deployed,
        "the last audit record says deployed"
    );
    let served = app
        .memory
        .serving_version("rhel9-baseos-prod")
        .map(|v| v.get());
    assert_eq!(served, Some(5), "upstream production serves v5");
    for theme in ["light", "dark"] {
        b.use_theme(theme).await;
        b.screenshot(&format!("deployed-{theme}")).await;
    }
    b.use_theme("light").await;
}

/// A deploy whose second step fails: the modal says production was not changed.
pub async fn failed_deploy(b: &Browser, app: &App) {
    app.pulp.set(
        Op::UpdateDistribution,
        Fault::TaskFailed("Distribution is locked by another task".into()),
    );
    b.goto(&format!("/repos/{}/versions", app.world.appstream))
        .await;
    for theme in ["dark", "light"] {
        b.use_theme(theme).await;
        open_modal(b, 2).await;
        b.keys("epel9-appstream").await;
        b.find("[data-modal-confirm]")
            .await
            .click()
            .await
            .expect("click Confirm deploy");
        b.wait_until("the failure is shown inside the modal",
            "var m = document.getElementById('deploy-modal'); return !!m && !!m.querySelector('#deploy-error')").await;
        b.screenshot(&format!("failure-{theme}")).await;
        if theme == "dark" {
            b.find("[data-modal-cancel]")
                .await
                .click()
                .await
                .expect("click Close");
            b.wait_until("closed", "return !document.getElementById('deploy-modal')")
                .await;
        }
    }
    let (text, visible, focus_inside): (String, bool, bool) = b
        .js(
            "var e = document.getElementById('deploy-error'), r = e.getBoundingClientRect();
             return [e.textContent, r.width > 0 && r.top >= 0 && r.bottom <= innerHeight,
                     document.getElementById('deploy-modal').contains(document.activeElement)];",
            vec![],
        )
        .await;
    assert!(
        text.contains("Production was NOT changed"),
        "the failure says production is unchanged: {text:?}"
    );
    assert!(visible, "the message is in view, in the modal");
    assert!(
        focus_inside,
        "the focus is in the modal that shows the failure"
    );
    b.find("[data-modal-cancel]")
        .await
        .click()
        .await
        .expect("click Close");
    b.wait_until("closed, focus back on the opener",
        "return !document.getElementById('deploy-modal') && document.activeElement === document.querySelector(\"[data-deploy-version='2']\")").await;
    let deployed: Vec<bool> = version_rows(b).await.iter().map(|r| r.1).collect();
    assert!(
        deployed.iter().all(|d| !d),
        "nothing is shown as deployed after the failure"
    );
    app.pulp.clear(Op::UpdateDistribution);

    // A repository whose versions cannot be read: the page says so where the list would be.
    app.pulp.set(Op::ListVersions, Fault::Http(500));
    b.goto(&format!("/repos/{}/versions", app.world.appstream))
        .await;
    let (text, versions) = page_error(b).await;
    app.pulp.clear(Op::ListVersions);
    assert!(
        text.contains("Could not load this repository"),
        "page error: {text:?}"
    );
    assert_eq!(versions, 0, "no versions are listed");

    // A repository Pulp does not have: a page that says so (404).
    b.goto("/repos/0190a0b0-0000-7000-8000-00000000dead/versions")
        .await;
    let (text, _) = page_error(b).await;
    assert!(
        text.contains("Pulp has no RPM repository 0190a0b0-0000-7000-8000-00000000dead"),
        "page error: {text:?}"
    );
}

/// The page's error notice and how many versions it lists.
async fn page_error(b: &Browser) -> (String, usize) {
    b.js(
        "var e = document.getElementById('page-error');
         return [e ? e.textContent : '', document.querySelectorAll('tr[data-version]').length]",
        vec![],
    )
    .await
}
