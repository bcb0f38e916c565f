//! A long history of versions: fifty a screen, and the way from the top of the page to
//! production's row on another screen.

use repo_console::domain::VersionNumber;

use super::browser::Browser;
use super::world::{verified, App};

pub async fn production_on_another_screen(b: &Browser, app: &App) {
    let id = app.memory.add_repo("rhel9-appstream", verified());
    for n in 1..=120 {
        app.memory.add_version(&id, &[&format!("pkg-{n}")], &[]);
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

    b.find("a[rel='next']").await.click().await.expect("click");
    b.wait_until(
        "the oldest screen",
        "return location.search === '?page=2' && document.querySelectorAll('tr[data-version]').length === 21",
    )
    .await;
}
