//! Rolling back from the history page: the same type-to-confirm gate, plus a reason.

use repo_console::domain::deploy::{AuditOutcome, DeployKind};

use super::a11y;
use super::browser::Browser;
use super::world::App;

/// Runs after a deploy of rhel9-baseos: the history offers a rollback to the version
/// served before; the confirmation needs the name and a reason; the audit keeps both.
pub async fn rollback_from_history(b: &Browser, app: &App) {
    let id = &app.fixture.baseos;
    b.goto(&format!("/repos/{id}/history")).await;
    b.wait_until(
        "the history lists entries",
        "return document.querySelectorAll('[data-history-entry]').length > 0",
    )
    .await;
    let target: String = b
        .js("var e = document.querySelector('[data-rollback-version]:not([disabled])'); return e ? e.getAttribute('data-rollback-version') : ''", vec![])
        .await;
    assert!(!target.is_empty(), "a past version offers a rollback");
    b.find(&format!(
        "[data-rollback-version='{target}']:not([disabled])"
    ))
    .await
    .click()
    .await
    .expect("click roll back");
    b.wait_until(
        "the rollback modal is open with the focus in its name field",
        "var m = document.getElementById('deploy-modal');
         return !!m && !!m.querySelector('input[name=reason]') && document.activeElement === m.querySelector('input[name=confirm]')",
    )
    .await;
    let title: String = b
        .js(
            "return document.getElementById('deploy-title').textContent",
            vec![],
        )
        .await;
    assert_eq!(title, format!("Roll production back to v{target}"));
    b.keys("rhel9-baseos").await;
    let enabled = "return !document.querySelector('[data-modal-confirm]').disabled";
    assert!(
        !b.js::<bool>(enabled, vec![]).await,
        "no reason yet: Confirm stays disabled"
    );
    b.find("input[name=reason]")
        .await
        .click()
        .await
        .expect("focus the reason");
    b.keys("v5 breaks dnf").await;
    assert!(
        b.js::<bool>(enabled, vec![]).await,
        "name and reason: Confirm is enabled"
    );
    b.screenshot("rollback-modal").await;
    a11y::check_themes(b, "the rollback dialog").await;
    b.find("[data-modal-confirm]")
        .await
        .click()
        .await
        .expect("confirm");
    b.wait_until(
        "the modal closed and the banner appeared",
        "return !document.getElementById('deploy-modal') && !!document.getElementById('deploy-banner')",
    )
    .await;
    let serving = app
        .memory
        .serving_version("rhel9-baseos-prod")
        .map(|n| n.get().to_string());
    assert_eq!(
        serving.as_deref(),
        Some(target.as_str()),
        "production rolled back"
    );
    let last = app.recorded().records().pop().expect("audit lines");
    assert_eq!(
        (last.kind, last.reason.as_deref()),
        (DeployKind::Rollback, Some("v5 breaks dnf"))
    );
    assert_eq!(last.outcome, AuditOutcome::Deployed);
    b.goto(&format!("/repos/{id}/history")).await;
    let newest: String = b
        .js(
            "return document.querySelector('[data-history-entry]').textContent",
            vec![],
        )
        .await;
    assert!(
        newest.contains("Rollback") && newest.contains("v5 breaks dnf"),
        "{newest}"
    );
    b.screenshot("history-after-rollback").await;
    a11y::check_themes(b, "the history page").await;
}
