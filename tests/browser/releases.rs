//! A release in Chromium: its page (a row per member, a cell per environment), the confirm
//! step of promoting staging's set to production (each member's changes, the release's name
//! typed), and the answer saying per member what moved; axe-core on the page and the dialog.

use repo_console::adapters::memory::InMemoryPulp;
use repo_console::domain::ids::ReleaseName;
use repo_console::domain::release::Releases;
use repo_console::domain::repository::VersionNumber;

use super::a11y;
use super::browser::Browser;
use super::versions::wait_modal_focused;
use super::world::{self, verified};
use crate::test_app::TestApp;

pub const RELEASE: &str = "el9";
const MEMBERS: [&str; 3] = ["el9-baseos", "el9-appstream", "el9-crb"];

/// Three repositories, v1..v3 each: testing serves v3, staging v2, production v1.
fn build(pulp: &InMemoryPulp) {
    for name in MEMBERS {
        let id = pulp.add_repo(name, verified());
        for n in 1..=3 {
            pulp.add_version(&id, &[&format!("{name}-pkg{n}-1.0-1.el9.x86_64")], &[]);
        }
        for (env, n) in [("prod", 1), ("staging", 2), ("testing", 3)] {
            let publication = pulp.publish(&id, VersionNumber::new(n));
            pulp.add_distribution(&format!("{name}-{env}"), Some(&publication));
        }
    }
}

pub async fn spawn_app() -> TestApp<()> {
    let members = MEMBERS.map(String::from).to_vec();
    let releases = Releases::new([(ReleaseName::parse(RELEASE).unwrap(), members)]).unwrap();
    world::suite_app(build)
        .environments(repo_console::adapters::memory::demo::environments())
        .configure(move |state| state.releases(releases))
        .spawn()
        .await
}

/// What each member's production cell says it serves, in the table's order.
async fn production_cells(b: &Browser) -> Vec<(String, String)> {
    b.js(
        "return Array.from(document.querySelectorAll('tr[data-release-member]')).map(function (r) {
           var td = r.querySelector('td[data-env=production]');
           return [r.dataset.releaseMember, td.dataset.envVersion || '']; })",
        vec![],
    )
    .await
}

pub async fn promote_the_set(b: &Browser) {
    b.goto(&format!("/releases/{RELEASE}")).await;
    let before = production_cells(b).await;
    let expected: Vec<(String, String)> = MEMBERS
        .iter()
        .map(|m| (m.to_string(), "1".to_owned()))
        .collect();
    assert_eq!(before, expected, "production serves v1 of each member");
    a11y::check_themes(b, "release page").await;
    b.screenshot("release-page").await;

    b.find("[data-release-set=production] button[data-promote-env]")
        .await
        .click()
        .await
        .expect("click Promote staging's set to production");
    wait_modal_focused(b).await;
    let sections: u64 = b
        .js(
            "return document.querySelectorAll('#deploy-modal section[data-release-member]').length",
            vec![],
        )
        .await;
    assert_eq!(sections, 3, "one section per member");
    a11y::check(b, "release confirm step").await;
    b.screenshot("release-confirm").await;
    b.keys(RELEASE).await;
    b.find("[data-modal-confirm]")
        .await
        .click()
        .await
        .expect("click Promote the set");
    b.wait_until(
        "the answer says every member moved",
        "var a = document.querySelector('[data-served-set]');
         return !!a && a.dataset.servedSet === 'new' &&
           document.querySelectorAll('[data-member-outcome=moved]').length === 3",
    )
    .await;
    a11y::check(b, "release promotion answer").await;
    b.screenshot("release-promoted").await;

    b.goto(&format!("/releases/{RELEASE}")).await;
    let after = production_cells(b).await;
    let expected: Vec<(String, String)> = MEMBERS
        .iter()
        .map(|m| (m.to_string(), "2".to_owned()))
        .collect();
    assert_eq!(
        after, expected,
        "production serves staging's v2 of each member"
    );
    let promotions: u64 = b
        .js("return document.querySelectorAll('li[data-release-promotion][data-served-set=new]').length", vec![])
        .await;
    assert_eq!(promotions, 1);
}
