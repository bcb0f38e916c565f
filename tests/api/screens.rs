//! The versions page at scale: fifty versions a screen, newest first, production named at
//! the top with a way to its screen, and a cost upstream that does not grow with the
//! number of versions (the page, the confirm step and the deploy alike).

use std::collections::HashMap;
use std::sync::Arc;

use repo_console::adapters::memory::InMemoryPulp;
use repo_console::app::{deploy, pages::versions::versions_page};
use repo_console::domain::deploy::DeployKind;
use repo_console::domain::repository::{RepoId, Screen, VersionNumber};

use crate::helpers::*;
use crate::web::{attr, select, text};

/// A verified repository `name` with versions 1..=`count` (each adds one package), its
/// production distribution `<name>-prod` serving `live`.
fn long_repo(memory: &InMemoryPulp, name: &str, count: u64, live: u64) -> RepoId {
    let id = memory.add_repo(name, verified());
    for n in 1..=count {
        memory.add_version(&id, &[&format!("pkg-{n}")], &[]);
    }
    let publication = memory.publish(&id, VersionNumber::new(live));
    memory.add_distribution(&format!("{name}-prod"), Some(&publication));
    id
}

fn numbers_shown(page: &scraper::Html) -> Vec<u64> {
    select(page, "tr[data-version]")
        .iter()
        .map(|row| attr(row, "data-version").parse().expect("a number"))
        .collect()
}

#[tokio::test]
async fn a_long_history_is_shown_fifty_versions_a_screen_newest_first() {
    let app = spawn_app().await;
    let id = long_repo(&app.memory, "long", 120, 30);
    let first = app.get(&format!("/repos/{id}/versions")).await;
    assert_eq!(first.status, 200);
    let first = first.html();
    assert_eq!(numbers_shown(&first), (71..=120).rev().collect::<Vec<_>>());
    let pagers = select(&first, "nav.pager");
    assert_eq!(pagers.len(), 2, "above and below the table");
    assert_eq!(pagers[0].inner_html(), pagers[1].inner_html());
    assert_eq!(
        [
            attr(&pagers[0], "aria-label"),
            attr(&pagers[1], "aria-label")
        ],
        [
            "Screens of versions, above the list",
            "Screens of versions, below the list"
        ],
        "two navigation landmarks, named apart"
    );
    let pager = &pagers[0];
    assert_eq!(attr(pager, "data-screens"), "3");
    assert!(
        text(pager).contains("Versions 1\u{2013}50 of 121"),
        "{}",
        text(pager)
    );
    let last_row = select(&first, "tr[data-version='71'] [data-changes-against]");
    assert_eq!(
        attr(&last_row[0], "data-changes-against"),
        "70",
        "the last row of a screen still links to the version before it"
    );

    let short = app
        .get(&format!("/repos/{}/versions", app.fixture.base_os))
        .await
        .html();
    assert!(
        select(&short, "nav.pager").is_empty(),
        "one screen: no pager"
    );
    assert_eq!(text(&select(&short, ".pager-total")[0]), "5 versions");

    let older = app
        .get(&format!("/repos/{id}/versions?page=2"))
        .await
        .html();
    assert_eq!(numbers_shown(&older), (0..=20).rev().collect::<Vec<_>>());
    assert!(
        select(&older, "a[rel='next']").is_empty(),
        "the last screen"
    );
    assert_eq!(
        attr(&select(&older, "a[rel='prev']")[0], "href"),
        format!("/repos/{id}/versions?page=1")
    );
}

#[tokio::test]
async fn production_is_named_at_the_top_with_a_way_to_its_screen() {
    let app = spawn_app().await;
    let id = long_repo(&app.memory, "long", 120, 30);
    let first = app.get(&format!("/repos/{id}/versions")).await.html();
    let line = &select(&first, "#production-version")[0];
    assert_eq!(attr(line, "data-production-version"), "30");
    assert!(
        text(line).contains("Production serves v30"),
        "{}",
        text(line)
    );
    let link = &select(&first, "a[data-production-screen]")[0];
    assert_eq!(attr(link, "href"), format!("/repos/{id}/versions?at=30"));

    let jump = app.get(&format!("/repos/{id}/versions?at=30")).await;
    assert_eq!(jump.status, 303);
    assert_eq!(
        jump.header("location"),
        format!("/repos/{id}/versions?page=1#v30")
    );
    let screen = app
        .get(&format!("/repos/{id}/versions?page=1"))
        .await
        .html();
    let row = &select(&screen, "tr#v30")[0];
    assert_eq!(attr(row, "data-deployed"), "true");
    assert!(
        select(&screen, "a[data-production-screen]").is_empty(),
        "on its screen, production links to its row"
    );
}

#[tokio::test]
async fn screens_that_do_not_exist_are_explained() {
    let app = spawn_app().await;
    let id = long_repo(&app.memory, "long", 60, 1);
    let past = app.get(&format!("/repos/{id}/versions?page=9")).await;
    assert_eq!(past.status, 200);
    let past = past.html();
    let notice = text(&select(&past, "#past-end")[0]);
    assert!(notice.contains("61 versions on 2 screens"), "{notice}");
    assert_eq!(
        attr(&select(&past, "a[rel='prev']")[0], "href"),
        format!("/repos/{id}/versions?page=1"),
        "back to the last screen"
    );
    let bad = app.get(&format!("/repos/{id}/versions?page=two")).await;
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("screen number"), "{}", bad.body);
    let nobody = "01a202de-0000-7000-8000-0000000000ff";
    let unknown = app.get(&format!("/repos/{nobody}/versions?at=3")).await;
    assert_eq!(unknown.status, 404, "{}", unknown.body);
}

/// Upstream calls of `load`, once production's distribution is known (the second load).
async fn calls_of<F: std::future::Future>(
    memory: &InMemoryPulp,
    load: impl Fn() -> F,
) -> Vec<String> {
    load().await;
    let before = memory.calls().len();
    load().await;
    memory.calls().split_off(before)
}

/// A versions page load once production is known and its record, if needed, kept: one
/// screen of versions, production by name, the publication it serves.
const STEADY_PAGE: [&str; 4] = [
    "get_repo",
    "version_page",
    "distributions_named",
    "publications",
];

/// The calls of `big` (as [`calls_of`]), checked to be of the same kinds as those of `small`.
async fn same_calls<F: std::future::Future>(
    memory: &InMemoryPulp,
    small: impl Fn() -> F,
    big: impl Fn() -> F,
) -> Vec<String> {
    let small = calls_of(memory, small).await;
    let big = calls_of(memory, big).await;
    assert_eq!(kinds(&small), kinds(&big), "{big:?}");
    big
}

/// The kind of each call, without its arguments.
fn kinds(calls: &[String]) -> Vec<&str> {
    calls
        .iter()
        .map(|c| c.split_whitespace().next().unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn the_page_and_the_confirm_step_cost_the_same_at_ten_or_a_thousand_versions() {
    let memory = Arc::new(InMemoryPulp::new(Default::default()));
    fixture(&memory);
    let small = long_repo(&memory, "small", 10, 4);
    let big = long_repo(&memory, "big", 1000, 400);
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = test_state(&memory, &dir.path().join("audit.jsonl"));
    let production = HashMap::from([
        ("small".to_owned(), "small-prod".to_owned()),
        ("big".to_owned(), "big-prod".to_owned()),
    ]);
    let state = state.rebuild().production(production).build();
    let screen = Screen::new(0, 50);

    let page = |id: RepoId| {
        let state = state.clone();
        move || {
            let (state, id) = (state.clone(), id.clone());
            async move { versions_page(&state, &id, screen).await.expect("a page") }
        }
    };
    let big_page = same_calls(&memory, page(small.clone()), page(big.clone())).await;
    assert_eq!(
        kinds(&big_page),
        STEADY_PAGE,
        "one screen of versions, production by name; the publication it serves (which the \
         Pulp client reads once); no record of production's changes before the console \
         changed production (no drift can be claimed)"
    );
    assert_eq!(
        big_page
            .iter()
            .find(|c| c.starts_with("version_page"))
            .unwrap(),
        &format!("version_page {big} 0 51")
    );

    let confirm = |id: RepoId, target: u64| {
        let state = state.clone();
        move || {
            let (state, id) = (state.clone(), id.clone());
            async move {
                deploy::preview(
                    &state,
                    &id,
                    &repo_console::domain::environment::EnvironmentName::production(),
                    VersionNumber::new(target),
                    DeployKind::Deploy,
                    None,
                )
                .await
                .expect("a preview")
            }
        }
    };
    let big_confirm = same_calls(
        &memory,
        confirm(small.clone(), 7),
        confirm(big.clone(), 700),
    )
    .await;
    assert!(
        !kinds(&big_confirm).contains(&"list_distributions")
            && !kinds(&big_confirm).contains(&"version_page")
            && !kinds(&big_confirm).contains(&"distribution_changes"),
        "no list that grows with Pulp, no record of production's changes yet: {big_confirm:?}"
    );

    // Once the console changed production, drift is judged on production's record: read
    // after the deploy, then kept while the distribution is unwritten (`drift_record.rs`).
    let operator = repo_console::domain::identity::Operator::placeholder();
    for (id, name, target) in [(&small, "small", 5), (&big, "big", 401)] {
        let request = deploy_request(target, name);
        let outcome = deploy::deploy(&state, id, &request, &operator).await;
        assert!(
            matches!(outcome, deploy::DeployOutcome::Deployed { .. }),
            "{outcome:?}"
        );
        let after_deploy = calls_of(&memory, page(id.clone())).await;
        assert!(
            kinds(&after_deploy).contains(&"distribution_changes"),
            "{after_deploy:?}"
        );
    }
    let big_page = same_calls(&memory, page(small.clone()), page(big.clone())).await;
    assert_eq!(
        kinds(&big_page),
        STEADY_PAGE,
        "production's record kept whole"
    );
    let big_confirm = same_calls(&memory, confirm(small, 7), confirm(big, 700)).await;
    assert!(
        !kinds(&big_confirm).contains(&"distribution_changes"),
        "the preview judges drift on the kept record too: {big_confirm:?}"
    );
}

/// The `versions_numbered` calls of `calls`: how many numbers each asked for.
fn numbered(calls: &[String]) -> Vec<usize> {
    calls
        .iter()
        .filter(|c| c.starts_with("versions_numbered"))
        .map(|c| c.rsplit(' ').next().unwrap().parse().unwrap())
        .collect()
}

#[tokio::test]
async fn the_confirm_step_reads_the_target_and_the_live_version_in_one_call_once_production_was_seen(
) {
    let memory = Arc::new(InMemoryPulp::new(Default::default()));
    fixture(&memory);
    let id = long_repo(&memory, "long", 120, 40);
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = test_state(&memory, &dir.path().join("audit.jsonl"));
    let production = HashMap::from([("long".to_owned(), "long-prod".to_owned())]);
    let state = state.rebuild().production(production).build();
    let confirm = |target: u64| {
        let (state, id, memory) = (state.clone(), id.clone(), memory.clone());
        async move {
            let before = memory.calls().len();
            let preview = deploy::preview(
                &state,
                &id,
                &repo_console::domain::environment::EnvironmentName::production(),
                VersionNumber::new(target),
                DeployKind::Deploy,
                None,
            )
            .await
            .expect("a preview");
            (preview.plan, memory.calls().split_off(before))
        }
    };

    let (plan, calls) = confirm(100).await;
    assert_eq!(plan.current, Some(VersionNumber::new(40)));
    assert_eq!(
        numbered(&calls),
        [1, 1],
        "production not seen yet: the live version after"
    );
    let (plan, calls) = confirm(101).await;
    assert_eq!(
        (plan.current, plan.net_change),
        (Some(VersionNumber::new(40)), 61)
    );
    assert_eq!(
        numbered(&calls),
        [2],
        "the target and the live version at once: {calls:?}"
    );

    // Production moved since it was seen: the live version is read once production is known.
    let v50 = memory.publish(&id, VersionNumber::new(50));
    memory.point_distribution("long-prod", &v50);
    let (plan, calls) = confirm(100).await;
    assert_eq!(
        (plan.current, plan.net_change),
        (Some(VersionNumber::new(50)), 50)
    );
    assert_eq!(numbered(&calls), [2, 1]);
}
