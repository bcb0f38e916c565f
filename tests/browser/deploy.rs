//! Deploying from the modal, with the keyboard alone, and what a failure shows.

use fantoccini::key::Key;
use repo_console::adapters::memory::{Fault, Op};
use repo_console::domain::deploy::AuditOutcome;
use serde_json::json;

use super::a11y;
use super::browser::Browser;
use super::versions::{open_modal, version_rows};
use super::world::App;

/// Tabs from the top of the page to the Deploy button of version `n`; every element on the
/// way shows its focus ring.
async fn tab_to_deploy_button(b: &Browser, n: u64) {
    for _ in 0..60 {
        b.press(Key::Tab).await;
        a11y::assert_focus_ring(b, "tabbing to a Deploy button").await;
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

/// How many elements of the open dialog the keyboard can reach (enabled, not hidden, not
/// taken out of the order).
const DIALOG_STOPS: &str = "var m = document.getElementById('deploy-modal');
  return Array.from(m.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')).filter(function (e) {
    return !e.disabled && e.type !== 'hidden' && e.tabIndex >= 0 && e.getClientRects().length > 0; }).length;";

const FOCUS_IN_DIALOG: &str =
    "return document.getElementById('deploy-modal').contains(document.activeElement)";

/// The dialog is open with the focus in its confirmation field.
const ON_FIELD: &str = "var m = document.getElementById('deploy-modal');
  return !!m && document.activeElement === m.querySelector('input[name=confirm]')";

/// From the confirmation field, `key` pressed once per stop of the dialog: the focus stays
/// inside with its ring shown at each stop and comes back to the field; the package-change
/// list is one of the stops, and where it overflows the arrow keys scroll it. Answers the
/// stops seen.
pub async fn round_the_dialog(b: &Browser, key: &str, way: &str) -> Vec<String> {
    let stops: usize = b.js(DIALOG_STOPS, vec![]).await;
    let mut seen = Vec::new();
    for _ in 0..stops {
        b.keys(key).await;
        let inside: bool = b.js(FOCUS_IN_DIALOG, vec![]).await;
        let who = a11y::assert_focus_ring(b, &format!("{way} in the dialog")).await;
        assert!(
            inside,
            "{way} left the dialog: the focus is on {who} (after {seen:?})"
        );
        let scrolls: bool = b
            .js(
                "var a = document.activeElement;
                 return a.hasAttribute('data-package-changes') && a.scrollHeight > a.clientHeight",
                vec![],
            )
            .await;
        if scrolls && key == Key::Tab.to_string() {
            b.screenshot("keyboard-package-list").await;
            for _ in 0..3 {
                b.press(Key::Down).await;
            }
            b.wait_until(
                "the arrow keys scroll the focused package-change list",
                "return document.activeElement.scrollTop > 0",
            )
            .await;
        }
        seen.push(who);
    }
    assert!(
        b.js::<bool>(ON_FIELD, vec![]).await,
        "{stops} presses of {way} come back round to the confirmation field: {seen:?}"
    );
    assert!(
        seen.iter().any(|s| s.contains("package-list")),
        "{way} reaches the package-change list: {seen:?}"
    );
    seen
}

/// A deploy with the keyboard alone: Tab to the Deploy button, Enter opens the dialog with
/// the focus in it, Tab and Shift+Tab go round inside it, Escape closes it and gives the
/// focus back to the button; Enter again, the name typed, Tab to Confirm deploy, Enter; the
/// focus lands on the banner. A focus ring is shown at every step.
pub async fn deploy_with_keyboard(b: &Browser, app: &App) {
    b.goto(&format!("/repos/{}/versions", app.fixture.baseos))
        .await;
    b.js::<()>("window.__e2eMarker = 'still-here'", vec![])
        .await;
    tab_to_deploy_button(b, 5).await;
    b.screenshot("keyboard-deploy-button").await;
    b.press(Key::Enter).await;
    b.wait_until("the modal is open, focus in the field", ON_FIELD)
        .await;
    a11y::assert_focus_ring(b, "the dialog opened").await;
    a11y::check_themes(b, "the confirm dialog opened with the keyboard").await;

    round_the_dialog(b, &Key::Tab.to_string(), "Tab").await;
    round_the_dialog(b, &format!("{}{}", Key::Shift, Key::Tab), "Shift+Tab").await;

    b.press(Key::Escape).await;
    b.wait_until(
        "Escape closed the dialog and gave the focus back to the Deploy button of v5",
        "return !document.getElementById('deploy-modal')
           && document.activeElement === document.querySelector(\"[data-deploy-version='5']\")",
    )
    .await;
    a11y::assert_focus_ring(b, "back on the Deploy button after Escape").await;

    b.press(Key::Enter).await;
    b.wait_until("the modal is open again, focus in the field", ON_FIELD)
        .await;
    b.keys("rhel9-baseos").await;
    b.press(Key::Tab).await; // Cancel
    a11y::assert_focus_ring(b, "on Cancel").await;
    b.press(Key::Tab).await; // Confirm deploy
    let on_confirm = b.focused().await;
    assert!(
        on_confirm.contains("data-modal-confirm"),
        "two Tabs from the field reach Confirm deploy, not {on_confirm}"
    );
    a11y::assert_focus_ring(b, "on Confirm deploy").await;
    b.screenshot("keyboard-confirm").await;
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
    a11y::assert_focus_ring(b, "on the banner after the deploy").await;
    b.screenshot("keyboard-banner").await;
    let records = app.recorded().records();
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
        a11y::check(b, &format!("the success banner ({theme})")).await;
    }
    b.use_theme("light").await;
}

/// A deploy whose second step fails: the modal says production was not changed.
pub async fn failed_deploy(b: &Browser, app: &App) {
    app.pulp.set(
        Op::UpdateDistribution,
        Fault::TaskFailed("Distribution is locked by another task".into()),
    );
    b.goto(&format!("/repos/{}/versions", app.fixture.appstream))
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
        a11y::check(b, &format!("a failure in the dialog ({theme})")).await;
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
    b.goto(&format!("/repos/{}/versions", app.fixture.appstream))
        .await;
    let (text, versions) = page_error(b).await;
    a11y::check_themes(b, "a versions page that could not load").await;
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
    a11y::check_themes(b, "the page of an unknown repository").await;
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

/// A slow publication: once Confirm deploy is pressed, the dialog shows the deploy's steps
/// (publishing, with what Pulp reports of its task) without a reload, then the answer.
pub async fn steps_while_deploying(b: &Browser, app: &App) {
    app.pulp.set(
        Op::CreatePublication,
        // Within the suite's task timeout (1.6 s): the deploy succeeds, slowly.
        Fault::Slow(std::time::Duration::from_millis(1400)),
    );
    b.goto(&format!("/repos/{}/versions", app.fixture.appstream))
        .await;
    b.js::<()>("window.__e2eMarker = 'still-here'", vec![])
        .await;
    open_modal(b, 2).await;
    b.keys("epel9-appstream").await;
    b.find("[data-modal-confirm]")
        .await
        .click()
        .await
        .expect("click Confirm deploy");
    b.wait_until(
        "the dialog shows its deploy publishing, with what Pulp reports of its task",
        "var p = document.getElementById('deploy-progress');
         var step = p && !p.hidden && p.querySelector(\".deploy-run[data-phase='publishing'] li[data-step='publishing'][data-state='current']\");
         return !!step && step.textContent.indexOf('Generating repository metadata') >= 0",
    )
    .await;
    let (step, confirm_disabled): (String, bool) = b
        .js(
            "var p = document.getElementById('deploy-progress');
             return [p.querySelector(\".deploy-run[data-phase='publishing'] li[data-step='publishing']\").textContent,
                     document.querySelector('[data-modal-confirm]').disabled];",
            vec![],
        )
        .await;
    assert!(
        step.contains("Publish v2 in Pulp: Generating repository metadata"),
        "the step says what Pulp reports: {step:?}"
    );
    assert!(confirm_disabled, "Confirm deploy cannot be pressed twice");
    b.screenshot("deploy-steps-1280").await;
    a11y::check(b, "the dialog showing the deploy's steps").await;
    b.wait_until(
        "the answer replaced the dialog: deployed",
        "return !document.getElementById('deploy-modal') && !!document.getElementById('deploy-banner')",
    )
    .await;
    let marker: Option<String> = b.js("return window.__e2eMarker || null", vec![]).await;
    assert_eq!(marker.as_deref(), Some("still-here"), "no reload");
    app.pulp.clear(Op::CreatePublication);
    let served = app
        .memory
        .serving_version("epel9-appstream-prod")
        .map(|v| v.get());
    assert_eq!(served, Some(2), "upstream production serves v2");
}
