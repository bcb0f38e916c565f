//! A long history of versions: fifty a screen, the way from the top of the page to
//! production's row on another screen, and a confirm dialog whose package list scrolls.

use fantoccini::key::Key;
use repo_console::domain::repository::VersionNumber;

use super::a11y;
use super::browser::Browser;
use super::deploy::round_the_dialog;
use super::versions::open_modal;
use super::world::{verified, App};

pub async fn production_on_another_screen(b: &Browser, app: &App) {
    let id = app.memory.add_repo("rhel9-appstream", verified());
    for n in 1..=120 {
        app.memory
            .add_version(&id, &[&format!("pkg{n}-1.0-1.el9.noarch")], &[]);
    }
    let live = app.memory.publish(&id, VersionNumber::new(30));
    app.memory
        .add_distribution("rhel9-appstream-prod", Some(&live));

    b.goto(&format!("/repos/{id}/versions")).await;
    let rows: Vec<u64> = b
        .js("return Array.from(document.querySelectorAll('tr[data-version]')).map(function (r) { return Number(r.dataset.version); })", vec![])
        .await;
    assert_eq!(
        rows,
        (71..=120).rev().collect::<Vec<_>>(),
        "the newest fifty"
    );
    let top: String = b
        .js(
            "return document.querySelector('#production-version').textContent",
            vec![],
        )
        .await;
    assert!(top.contains("Production serves v30"), "{top:?}");
    b.screenshot("versions-screen-1").await;
    a11y::check_themes(b, "the first screen of 121 versions").await;
    long_package_list(b).await;

    b.find("a[data-production-screen]")
        .await
        .click()
        .await
        .expect("click");
    b.wait_until(
        "the screen of v30, scrolled to its row",
        "return location.search === '?page=1' && location.hash === '#v30' && document.readyState === 'complete'",
    )
    .await;
    let seen: (String, bool, bool) = b
        .js(
            "var row = document.querySelector(':target'); var box = row.getBoundingClientRect();
             return [row.id, row.dataset.deployed === 'true', box.top >= 0 && box.bottom <= window.innerHeight];",
            vec![],
        )
        .await;
    assert_eq!(
        seen,
        ("v30".to_owned(), true, true),
        "production's row, targeted and in view"
    );
    b.screenshot("versions-screen-2-production").await;
    a11y::check_themes(b, "a later screen of versions (?page=1)").await;

    b.find("a[rel='next']").await.click().await.expect("click");
    b.wait_until(
        "the oldest screen",
        "return location.search === '?page=2' && document.querySelectorAll('tr[data-version]').length === 21",
    )
    .await;
}

/// The dialog of v120 against production's v30: ninety packages added, fifty listed in a box
/// that scrolls. axe checks it in both themes; the keyboard reaches the list and scrolls it.
async fn long_package_list(b: &Browser) {
    open_modal(b, 120).await;
    a11y::check_themes(b, "the confirm dialog with a long package list").await;
    let (overflows, label): (bool, String) = b
        .js(
            "var l = document.querySelector('#deploy-modal [data-package-changes]');
             return [l.scrollHeight > l.clientHeight, l.getAttribute('role') + ' ' + l.getAttribute('aria-label')];",
            vec![],
        )
        .await;
    assert!(
        overflows,
        "ninety package changes overflow the dialog's list"
    );
    assert_eq!(
        label, "region Package changes",
        "the list is a named region"
    );
    round_the_dialog(b, &Key::Tab.to_string(), "Tab").await;
    b.press(Key::Escape).await;
    b.wait_until(
        "Escape closed the dialog",
        "return !document.getElementById('deploy-modal')",
    )
    .await;
}
