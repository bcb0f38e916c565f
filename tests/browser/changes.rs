//! Issue 12 in the browser: the confirm step with a diff (packages, advisories, the
//! dropped-security regression), and the compare page.

use repo_console::domain::repository::RepoVerification;
use serde_json::json;

use crate::a11y;
use crate::acme::add_acme;
use crate::browser::Browser;
use crate::look::CONTRAST;
use crate::versions::open_modal;
use crate::world::App;

/// Verified as dnf sees it: the metadata signed, and checked by clients. (The warning of a
/// repository clients refuse is tested over HTTP and against the real Pulp: its confirm
/// step is refused, so it has no dialog to show here.)
fn signed() -> RepoVerification {
    RepoVerification {
        gpgcheck: Some(true),
        repo_gpgcheck: Some(true),
        checksum: Some(repo_console::domain::repository::ChecksumType::Sha256),
        metadata_signed: Some(true),
        ..Default::default()
    }
}

/// How many elements match `css` and are displayed (non-zero size).
async fn visible(b: &Browser, css: &str) -> u64 {
    b.js(
        "return Array.from(document.querySelectorAll(arguments[0]))
           .filter(e => e.getClientRects().length > 0).length",
        vec![json!(css)],
    )
    .await
}

pub async fn confirm_step_with_a_diff(b: &Browser, app: &App) {
    let acme = add_acme(&app.memory, signed());
    b.goto(&format!("/repos/{acme}/versions")).await;
    assert_eq!(visible(b, "[data-warning=unsigned-metadata]").await, 0);
    for theme in ["light", "dark"] {
        b.use_theme(theme).await;
        open_modal(b, 5).await;
        assert_eq!(visible(b, "#deploy-modal [data-change]").await, 4);
        assert_eq!(visible(b, "#deploy-modal [data-advisory]").await, 4);
        assert_eq!(visible(b, "#deploy-modal #advisory-regression").await, 1);
        let first: String = b
            .js(
                "return document.querySelector('#deploy-modal [data-change]').textContent",
                vec![],
            )
            .await;
        assert!(first.contains("acme-b") && first.contains("1-1"), "{first}");
        let low: Vec<String> = b
            .js(CONTRAST, vec![json!("#deploy-modal, #deploy-modal *")])
            .await;
        assert!(
            low.is_empty(),
            "text under 4.5:1 in the diff in {theme}:\n{low:#?}"
        );
        b.screenshot(&format!("confirm-diff-{theme}")).await;
        a11y::check(b, &format!("the confirm dialog with a diff ({theme})")).await;
        // Cancel, scrolled into the dialog's view first (the dialog opens at its top).
        b.js::<()>(
            "var c = document.querySelector('[data-modal-cancel]'); c.scrollIntoView({block: 'center'}); c.click();",
            vec![],
        )
        .await;
        b.wait_until(
            "the modal closed",
            "return !document.getElementById('deploy-modal')",
        )
        .await;
    }
    b.use_theme("light").await;
    opens_at_its_top_on_a_phone(b).await;
    open_modal(b, 5).await;
    b.find("#deploy-modal [data-changes-link]")
        .await
        .click()
        .await
        .expect("click the link to the compare page");
    b.wait_until(
        "the compare page",
        "return document.querySelector('h1') && document.querySelector('h1').textContent === 'Changes of v5 against v2'",
    )
    .await;
    assert_eq!(visible(b, "[data-change]").await, 4);
    for theme in ["dark", "light"] {
        b.use_theme(theme).await;
        let low: Vec<String> = b.js(CONTRAST, vec![json!("main, main *")]).await;
        assert!(
            low.is_empty(),
            "text under 4.5:1 on the compare page in {theme}:\n{low:#?}"
        );
        a11y::check(b, &format!("the compare page ({theme})")).await;
    }
    b.screenshot("compare").await;
}

/// On a phone the dialog is taller than the screen: it opens at its top (what the deploy
/// changes), the focus in its text field at the foot without scrolling there.
async fn opens_at_its_top_on_a_phone(b: &Browser) {
    b.set_viewport(390, 700).await;
    open_modal(b, 5).await;
    let (scrollable, top): (bool, f64) = b
        .js(
            "var m = document.getElementById('deploy-modal');
             return [m.scrollHeight > m.clientHeight + 50, m.scrollTop]",
            vec![],
        )
        .await;
    assert!(scrollable, "the dialog is taller than a 700 px screen");
    assert_eq!(top, 0.0, "the dialog opens at its top");
    b.press(fantoccini::key::Key::Escape).await;
    b.wait_until(
        "the modal closed",
        "return !document.getElementById('deploy-modal')",
    )
    .await;
    b.set_viewport(1280, 900).await;
}
