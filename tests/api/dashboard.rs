//! The dashboard and synchronization over the in-memory upstream.

use std::time::Duration;

use std::collections::HashMap;
use std::sync::Arc;

use repo_console::adapters::memory::{InMemoryPulp, SyncScript};
use repo_console::app::pages::dashboard::dashboard;
use repo_console::domain::repository::{RepoId, VersionNumber};

use crate::helpers::*;

fn cell_of<'a>(html: &'a scraper::Html, id: &str) -> scraper::ElementRef<'a> {
    select(html, &format!("tr[data-repo='{id}'] .sync-cell"))[0]
}

#[tokio::test]
async fn repositories_without_remote_show_idle_without_a_button() {
    let app = spawn_app().await;
    let html = app.get("/").await.html();
    let cell = cell_of(&html, app.fixture.base_os.as_str());
    assert_eq!(attr(&cell, "data-sync-state"), "idle");
    assert!(text(&cell).contains("no remote"));
    assert!(cell
        .select(&scraper::Selector::parse("button").unwrap())
        .next()
        .is_none());
}

#[tokio::test]
async fn a_sync_runs_with_progress_then_shows_the_version_it_made() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    let add = (0..10).map(|i| format!("pkg-{i}")).collect();
    app.memory.add_remote(
        id,
        SyncScript::Succeeds {
            duration: Duration::from_millis(600),
            add,
            remove: vec![],
        },
    );
    let idle = app.get("/").await.html();
    let cell = cell_of(&idle, id.as_str());
    assert_eq!(attr(&cell, "data-sync-state"), "idle");
    assert!(text(&cell).contains("Synchronize"));

    let started = start_sync(&app, id).await;
    let html = scraper::Html::parse_fragment(&started.body);
    let cell = &select(&html, ".sync-cell")[0];
    assert_eq!(attr(cell, "data-sync-state"), "running");
    assert_eq!(
        attr(cell, "hx-trigger"),
        "every 1s",
        "the cell polls itself"
    );
    assert_eq!(attr(cell, "hx-get"), format!("/repos/{id}/sync"));

    tokio::time::sleep(Duration::from_millis(300)).await;
    let midway = app.get(&format!("/repos/{id}/sync")).await.body;
    let progress = text(&select(&scraper::Html::parse_fragment(&midway), ".sync-progress")[0]);
    assert!(
        progress.contains("/10\u{b7}") && progress.ends_with('%'),
        "done/total·percent: {progress}"
    );

    let done = poll_until(&app, id, "done").await;
    assert!(done.contains("v5"), "the version the sync made: {done}");
    let fragment = scraper::Html::parse_fragment(&done);
    let latest = &select(&fragment, &format!("#latest-{id}"))[0];
    assert_eq!(
        (attr(latest, "hx-swap-oob"), text(latest).as_str()),
        ("true", "v5"),
        "the Latest column follows"
    );
    let html = app.get("/").await.html();
    let row = select(&html, &format!("tr[data-repo='{id}']"))[0];
    assert!(text(&row).contains("v5"));
}

/// Starts a sync of `id` the way the dashboard's button does; it must be accepted.
async fn start_sync(app: &TestApp, id: &repo_console::domain::repository::RepoId) -> Reply {
    let reply = app
        .request(
            "POST",
            &format!("/repos/{id}/sync"),
            &[("hx-request", "true")],
            "",
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply
}

async fn poll_until(
    app: &TestApp,
    id: &repo_console::domain::repository::RepoId,
    state: &str,
) -> String {
    for _ in 0..100 {
        let body = app.get(&format!("/repos/{id}/sync")).await.body;
        if body.contains(&format!("data-sync-state=\"{state}\"")) {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the sync never reached {state}");
}

#[tokio::test]
async fn a_failed_sync_shows_that_it_failed_and_its_task_never_pulps_words() {
    let app = spawn_app().await;
    let id = &app.fixture.tools;
    let reason =
        "Cannot connect to host mirror.example.com:443 ssl:default [Name or service not known]";
    app.memory.add_remote(
        id,
        SyncScript::Fails {
            duration: Duration::from_millis(30),
            reason: reason.into(),
        },
    );
    start_sync(&app, id).await;
    let body = poll_until(&app, id, "failed").await;
    let html = scraper::Html::parse_fragment(&body);
    let failed = &select(&html, ".sync-failed")[0];
    let title = attr(failed, "title");
    assert!(
        !body.contains("mirror.example.com") && !body.contains("Cannot connect"),
        "Pulp's words (a host) stay in the log: {body}"
    );
    assert!(title.contains("failed in Pulp"), "{title}");
    assert!(
        title.contains("/pulp/api/v3/tasks/"),
        "names the task: {title}"
    );
    assert!(
        title.contains("the console's log has Pulp's words"),
        "{title}"
    );
    assert!(
        text(failed).chars().count() < 24,
        "shortened: {}",
        text(failed)
    );
    let api = app.get("/api/v1/repositories").await;
    assert!(!api.body.contains("mirror.example.com"), "{}", api.body);
    // The whole reason is readable under the cell, in the polled answer and on the page;
    // a later answer of the cell replaces it (out of band).
    let whole = select(
        &html,
        format!("#sync-reason-{id}[data-sync-reason]").as_str(),
    );
    let whole_text = text(&whole[0]);
    assert!(
        whole_text.starts_with("Synchronization failed: ") && whole_text.contains("failed in Pulp"),
        "{whole_text}"
    );
    assert!(!whole_text.contains("mirror.example.com"), "{whole_text}");
    assert_eq!(attr(&whole[0], "hx-swap-oob"), "true");
    let page = app.get("/").await.html();
    let row = format!("tr[data-repo='{id}'] [data-sync-reason]");
    assert!(text(&select(&page, &row)[0]).contains("failed in Pulp"));
    let base_os = format!("tr[data-repo='{}'] [data-sync-reason]", app.fixture.base_os);
    assert_eq!(
        text(&select(&page, &base_os)[0]),
        "",
        "no failure, no reason"
    );
}

#[tokio::test]
async fn production_without_its_distribution_says_distribution_missing_and_the_fix() {
    let app = spawn_app().await;
    let orphan = &app.fixture.orphan;
    let page = app.get("/").await.html();
    let cell = &select(&page, &format!("tr[data-repo='{orphan}'] td.production"))[0];
    let shown = text(cell);
    assert!(shown.contains("distribution missing"), "{shown}");
    assert!(!shown.contains("nothing"), "{shown}");
    assert!(shown.contains("Create it in Pulp"), "{shown}");
    // A distribution that exists but serves nothing still says "nothing".
    let fresh = &select(
        &page,
        &format!("tr[data-repo='{}'] td.production", app.fixture.fresh),
    )[0];
    assert!(text(fresh).contains("nothing"), "{}", text(fresh));
    assert!(select(
        &page,
        &format!(
            "tr[data-repo='{}'] [data-no-distribution]",
            app.fixture.fresh
        )
    )
    .is_empty());
    // The versions page disables the deploy and names the fix.
    let versions = app.get(&format!("/repos/{orphan}/versions")).await.html();
    let notice = select(&versions, "#distribution-missing");
    assert!(text(&notice[0]).contains("pulp rpm distribution create"));
    let button = &select(&versions, "button[data-deploy-version='1']")[0];
    assert!(
        button.value().attr("disabled").is_some(),
        "the deploy is disabled"
    );
    assert!(attr(button, "title").contains("Distribution missing"));
}

#[tokio::test]
async fn sync_is_refused_without_remote_and_while_one_runs() {
    let app = spawn_app().await;
    let no_remote = app
        .request(
            "POST",
            &format!("/repos/{}/sync", app.fixture.partial),
            &[],
            "",
        )
        .await;
    assert_eq!(no_remote.status, 409);
    assert!(no_remote.body.contains("no remote"));
    let id = &app.fixture.fresh;
    app.memory.add_remote(
        id,
        SyncScript::Succeeds {
            duration: Duration::from_secs(5),
            add: vec!["a".into()],
            remove: vec![],
        },
    );
    start_sync(&app, id).await;
    let again = app
        .request("POST", &format!("/repos/{id}/sync"), &[], "")
        .await;
    assert_eq!(again.status, 409);
    assert!(again.body.contains("already running"));
    assert_eq!(
        app.mutations()
            .iter()
            .filter(|m| m.starts_with("sync"))
            .count(),
        1
    );
}

#[tokio::test]
async fn a_dashboard_page_costs_four_upstream_calls_whatever_the_number_of_repositories() {
    let app = spawn_app().await;
    for extra in 0..30 {
        app.memory
            .add_repo(&format!("extra-{extra:02}"), verified());
    }
    let before = app.memory.calls().len();
    let html = app.get("/").await.html();
    // Repositories, sync tasks, distributions, their publications.
    assert_eq!(
        app.memory.calls().len() - before,
        4,
        "{:?}",
        &app.memory.calls()[before..]
    );
    assert_eq!(select(&html, "tr[data-repo]").len(), 25, "one page");
    let pager = select(&html, "nav.pager a[rel=next]");
    assert_eq!(attr(&pager[0], "href"), "/?page=1");
    let second = app.get("/?page=1").await.html();
    assert_eq!(select(&second, "tr[data-repo]").len(), 36 - 25);
}

#[tokio::test]
async fn a_sync_that_changes_nothing_shows_the_latest_version() {
    // Pulp's second sync of an unchanged remote makes no version: its task names none.
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    app.memory.add_remote(
        id,
        SyncScript::Succeeds {
            duration: Duration::from_millis(50),
            add: vec![],
            remove: vec![],
        },
    );
    start_sync(&app, id).await;
    let done = poll_until(&app, id, "done").await;
    let html = scraper::Html::parse_fragment(&done);
    assert_eq!(
        text(&select(&html, ".sync-done")[0]),
        "\u{2713} v4",
        "the latest version, not just 'done'"
    );
    let board = app.get("/").await.html();
    let row = select(&board, &format!("tr[data-repo='{id}'] .sync-done"))[0];
    assert_eq!(text(&row), "\u{2713} v4");
}

#[tokio::test]
async fn when_every_row_has_a_configured_production_it_is_read_by_name() {
    let memory = Arc::new(InMemoryPulp::default());
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = test_state(&memory, &dir.path().join("audit.jsonl"));
    // By name, the first page of two rows is the hostile repository ('<' sorts first) and
    // base-os: both get a configured production.
    let production = HashMap::from([
        (HOSTILE.to_owned(), "hostile-prod".to_owned()),
        ("base-os".to_owned(), "base-os-prod".to_owned()),
    ]);
    let state = state.rebuild().production(production).page_size(2).build();
    let before = memory.calls().len();
    let board = dashboard(&state, 0).await;
    let calls = memory.calls()[before..].to_vec();
    assert!(
        calls.iter().any(|c| c.starts_with("distributions_named"))
            && !calls.iter().any(|c| c == "list_distributions"),
        "{calls:?}"
    );
    let serving = |id: &RepoId| {
        let row = board
            .rows
            .iter()
            .find(|r| &r.id == id)
            .expect("on the page");
        row.production().serving.clone()
    };
    assert_eq!(serving(&fx.base_os), Ok(Some(VersionNumber::new(2))));
    assert_eq!(serving(&fx.hostile), Ok(Some(VersionNumber::new(1))));
}

/// An in-memory Pulp the size of a big site: `repos` repositories `rc-dash-NNNN`, each with
/// a production distribution `rc-dash-NNNN-prod` (one in twenty serving version 0's
/// publication, the others nothing), and distributions serving nothing up to `distributions`
/// in all. Served over HTTP with `[production]` configured for every repository or none.
async fn big_site(
    repos: usize,
    distributions: usize,
    configured: bool,
) -> (Arc<InMemoryPulp>, WebClient, crate::test_app::TestApp) {
    let memory = Arc::new(InMemoryPulp::default());
    let mut production = HashMap::new();
    for n in 1..=repos {
        let name = format!("rc-dash-{n:04}");
        let id = memory.add_repo(&name, verified());
        let publication = (n % 20 == 1).then(|| memory.publish(&id, VersionNumber::new(0)));
        memory.add_distribution(&format!("{name}-prod"), publication.as_ref());
        production.insert(name.clone(), format!("{name}-prod"));
    }
    for n in repos..distributions {
        memory.add_distribution(&format!("rc-dash-dist-{n:04}"), None);
    }
    let production = if configured {
        production
    } else {
        HashMap::new()
    };
    let app = crate::test_app::TestApp::builder()
        .memory(memory)
        .production(production)
        .spawn()
        .await;
    (app.memory.clone(), app.client.clone(), app)
}

/// The kinds of upstream calls one load of a dashboard page makes (the first word of each
/// recorded call), and the page's rows.
async fn page_calls(memory: &InMemoryPulp, web: &WebClient, page: u64) -> (Vec<String>, usize) {
    let before = memory.calls().len();
    let reply = web.get(&format!("/?page={page}")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let mut kinds: Vec<String> = memory.calls()[before..]
        .iter()
        .map(|c| c.split(' ').next().unwrap_or_default().to_owned())
        .collect();
    kinds.sort();
    (kinds, select(&reply.html(), "tr[data-repo]").len())
}

#[tokio::test]
async fn a_dashboard_page_costs_the_same_calls_at_a_thousand_repositories_and_five_thousand_distributions(
) {
    // Each load: the page of repositories, then at once the newest sync task of each (one
    // port call), the distributions (by name when every row's production is configured,
    // else all of them: the spec's rule) and the publications they serve (one call).
    for (configured, distributions) in
        [(true, "distributions_named"), (false, "list_distributions")]
    {
        let expected = vec![
            distributions.to_owned(),
            "list_repos".to_owned(),
            "publications".to_owned(),
            "sync_states".to_owned(),
        ];
        let (small, small_web, _dir) = big_site(40, 100, configured).await;
        let (big, big_web, _big_dir) = big_site(1000, 5000, configured).await;
        for (memory, web, page) in [
            (&small, &small_web, 0),
            (&big, &big_web, 0),
            (&big, &big_web, 20),
        ] {
            let (calls, rows) = page_calls(memory, web, page).await;
            assert_eq!(calls, expected, "configured: {configured}, page {page}");
            assert_eq!(rows, 25, "one page");
        }
    }
}
