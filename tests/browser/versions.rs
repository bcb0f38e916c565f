//! The versions page and the type-to-confirm modal.

use fantoccini::key::Key;
use serde_json::json;

use super::a11y;
use super::browser::Browser;
use super::world::App;

/// Rows (number, deployed, badge, badge text, button disabled), top to bottom.
type Row = (u64, bool, String, String, bool);

const ROWS: &str = "return Array.from(document.querySelectorAll('#version-list tr[data-version]')).map(function (r) {
  var badge = r.querySelector('[data-badge]'); var button = r.querySelector('[data-deploy-version]');
  return [Number(r.dataset.version), r.dataset.deployed === 'true', badge.dataset.badge, badge.textContent.trim(),
          button.disabled];
});";

pub async fn version_rows(b: &Browser) -> Vec<Row> {
    b.js(ROWS, vec![]).await
}

pub async fn page_rows_badges_and_buttons(b: &Browser, app: &App) {
    b.goto(&format!("/repos/{}/versions", app.fixture.baseos))
        .await;
    let rows = version_rows(b).await;
    let numbers: Vec<u64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(numbers, [5, 4, 3, 2, 1, 0], "versions newest first");
    for (number, deployed, badge, text, disabled) in &rows {
        assert_eq!(
            *deployed,
            *number == 3,
            "only v3 is deployed (row v{number})"
        );
        assert_eq!(badge, "verified", "v{number}");
        assert!(
            text.contains("Verified"),
            "the badge says its state in words: {text:?}"
        );
        assert_eq!(
            *disabled,
            *number == 3,
            "deploy button of v{number}: disabled only for the deployed one"
        );
    }
    let live: Vec<u64> = b
        .js("return Array.from(document.querySelectorAll('tr[data-version] [data-live]')).map(function (e) {
               return Number(e.closest('tr').dataset.version); })", vec![])
        .await;
    assert_eq!(live, [3], "the Live marker is on v3 only");
    let live_text: String = b
        .js(
            "return document.querySelector('[data-live]').textContent",
            vec![],
        )
        .await;
    assert!(
        live_text.contains("Live"),
        "the production marker is a word, not only a colour: {live_text:?}"
    );
    numbers_are_aligned(b).await;
    for theme in ["light", "dark"] {
        b.use_theme(theme).await;
        b.screenshot(&format!("versions-{theme}")).await;
        a11y::check(b, &format!("the versions page ({theme})")).await;
    }
    b.use_theme("light").await;

    b.goto(&format!("/repos/{}/versions", app.fixture.tools))
        .await;
    a11y::check_themes(b, "the versions page of an unverified repository").await;
    let rows = version_rows(b).await;
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [3, 2, 1, 0]);
    for (number, _, badge, text, disabled) in &rows {
        assert_eq!(badge, "unverified");
        assert!(text.contains("Not verified"), "{text:?}");
        assert!(*disabled, "unverified v{number} cannot be deployed");
    }
    b.goto(&format!("/repos/{}/versions", app.fixture.vendor))
        .await;
    for (number, _, badge, text, disabled) in version_rows(b).await {
        assert_eq!(badge, "partial");
        assert!(text.contains("Partly verified"), "{text:?}");
        assert!(disabled, "partly verified v{number} cannot be deployed");
    }
}

/// Numeric columns are right-aligned with tabular figures.
async fn numbers_are_aligned(b: &Browser) {
    let styles: Vec<(String, String)> = b
        .js("return Array.from(document.querySelectorAll('#version-list td.num')).map(function (td) {
               var s = getComputedStyle(td); return [s.textAlign, s.fontVariantNumeric]; })", vec![])
        .await;
    assert!(!styles.is_empty());
    for (align, variant) in styles {
        assert_eq!(align, "right");
        assert!(variant.contains("tabular-nums"), "{variant}");
    }
}

/// Opens the modal for version `n` with a click and waits for focus in its text field.
pub async fn open_modal(b: &Browser, n: u64) {
    b.find(&format!("[data-deploy-version='{n}']"))
        .await
        .click()
        .await
        .expect("click Deploy");
    wait_modal_focused(b).await;
}

pub async fn wait_modal_focused(b: &Browser) {
    b.wait_until(
        "the modal is open with the focus in its text field",
        "var m = document.getElementById('deploy-modal');
         return !!m && document.activeElement === m.querySelector('input[name=confirm]')",
    )
    .await;
}

async fn confirm_enabled(b: &Browser) -> bool {
    b.js(
        "return !document.querySelector('[data-modal-confirm]').disabled",
        vec![],
    )
    .await
}

async fn wait_modal_closed_focus_on(b: &Browser, n: u64) {
    b.wait_until_with(
        &format!("the modal closed and the focus back on the Deploy button of v{n}"),
        "return !document.getElementById('deploy-modal') && document.getElementById('modal-host').children.length === 0
           && document.activeElement === document.querySelector(\"[data-deploy-version='\" + arguments[0] + \"']\")",
        vec![json!(n)],
    )
    .await;
}

pub async fn confirm_modal(b: &Browser, app: &App) {
    b.goto(&format!("/repos/{}/versions", app.fixture.baseos))
        .await;
    for theme in ["dark", "light"] {
        b.use_theme(theme).await;
        open_modal(b, 4).await;
        b.keys("rhel9-baseos").await;
        b.screenshot(&format!("modal-{theme}")).await;
        a11y::check(b, &format!("the confirm dialog, name typed ({theme})")).await;
        b.find("[data-modal-cancel]")
            .await
            .click()
            .await
            .expect("click Cancel");
        wait_modal_closed_focus_on(b, 4).await;
    }
    open_modal(b, 4).await;
    let name: String = b
        .js(
            "return document.getElementById('deploy-modal').getAttribute('data-confirm')",
            vec![],
        )
        .await;
    assert_eq!(name, "rhel9-baseos");
    let labelled: bool = b.js("var i = document.querySelector('input[name=confirm]'); return i.labels.length > 0 && i.labels[0].textContent.indexOf('rhel9-baseos') >= 0", vec![]).await;
    assert!(
        labelled,
        "the confirmation field has a label naming the text to type"
    );
    let preview: String = b
        .js(
            "return document.querySelector('#deploy-modal .preview').textContent",
            vec![],
        )
        .await;
    assert!(
        preview.contains("v3") && preview.contains("v4"),
        "preview current → target: {preview:?}"
    );
    assert!(
        !confirm_enabled(b).await,
        "Confirm deploy is disabled while the field is empty"
    );

    let wrong = [
        "rhel9-appstream",
        "rhel9-base",
        "hel9-baseos",
        "baseos",
        "rhel9-baseosx",
        "RHEL9-BASEOS",
        "Rhel9-baseos",
        " rhel9-baseos",
        "rhel9-baseos ",
        " rhel9-baseos ",
    ];
    for text in wrong {
        b.clear_focused_field().await;
        b.keys(text).await;
        let typed: String = b
            .js(
                "return document.querySelector('input[name=confirm]').value",
                vec![],
            )
            .await;
        assert_eq!(typed, text, "the field holds what was typed");
        assert!(
            !confirm_enabled(b).await,
            "Confirm deploy must stay disabled for {text:?}"
        );
    }
    b.clear_focused_field().await;
    b.keys("rhel9-baseos").await;
    assert!(
        confirm_enabled(b).await,
        "Confirm deploy is enabled for the exact name"
    );
    b.clear_focused_field().await;
    assert!(!confirm_enabled(b).await, "emptied again: disabled again");
    b.keys("rhel9-baseos").await;

    // Cancel closes and gives the focus back to the button that opened the modal.
    b.find("[data-modal-cancel]")
        .await
        .click()
        .await
        .expect("click Cancel");
    wait_modal_closed_focus_on(b, 4).await;

    // Keyboard alone: Enter on the focused button opens, Tab stays inside, Esc closes.
    b.press(Key::Enter).await;
    wait_modal_focused(b).await;
    let mut seen = Vec::new();
    for _ in 0..4 {
        b.press(Key::Tab).await;
        let inside: bool = b
            .js(
                "return document.getElementById('deploy-modal').contains(document.activeElement)",
                vec![],
            )
            .await;
        let now = b.focused().await;
        assert!(inside, "Tab left the modal (focus on {now})");
        seen.push(now);
    }
    assert!(
        seen.iter().any(|f| f.contains("data-modal-cancel")),
        "Tab reaches Cancel: {seen:?}"
    );
    b.keys(&format!("{}{}", Key::Shift, Key::Tab)).await;
    let inside: bool = b
        .js(
            "return document.getElementById('deploy-modal').contains(document.activeElement)",
            vec![],
        )
        .await;
    assert!(inside, "Shift+Tab stays inside the modal");
    b.press(Key::Escape).await;
    wait_modal_closed_focus_on(b, 4).await;
    let ring: (bool, String, String) = b
        .js(
            "var a = document.activeElement, s = getComputedStyle(a);
             return [a.matches(':focus-visible'), s.outlineStyle, s.outlineWidth];",
            vec![],
        )
        .await;
    assert!(
        ring.0 && ring.1 != "none" && ring.2 != "0px",
        "the focus is visible after a keyboard close: {ring:?}"
    );
}
