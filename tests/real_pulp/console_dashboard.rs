//! Issue 4: the dashboard and real synchronizations through the console, against the real
//! Pulp; the number of upstream requests a dashboard page costs (the pages' timings: `cargo bench --bench scale`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use repo_console::adapters::pulp::{PulpClient, PulpSettings};
use repo_console::domain::repository::RepoId;
use scraper::Html;

use super::console::{attr, over_upstream, select, text, Console, Counting, CountingProxy};
use super::support::{exclusive, required_pulp, TestPulp};

/// (data-sync-state, text, title of the state's span) of a sync cell fragment or page row.
fn cell(reply_body: &str, id: &RepoId) -> (String, String, String) {
    let html = Html::parse_document(reply_body);
    let rows = select(&html, "tr[data-repo]");
    let cell = if rows.is_empty() {
        select(&html, "[data-sync-state]").first().copied()
    } else {
        let row = rows.iter().find(|r| attr(r, "data-repo") == id.as_str());
        let row = row.unwrap_or_else(|| panic!("no row for {id} in {reply_body}"));
        super::console::select_in(row, "[data-sync-state]")
            .first()
            .copied()
    };
    let cell = cell.unwrap_or_else(|| panic!("no sync cell in {reply_body}"));
    let title = select_title(&cell);
    // The state's own text, without the button's glyph.
    let shown = super::console::select_in(&cell, ".sync-done, .sync-failed, .sync-progress")
        .first()
        .map_or_else(|| text(&cell), text);
    (attr(&cell, "data-sync-state").to_owned(), shown, title)
}

fn select_title(cell: &scraper::ElementRef<'_>) -> String {
    super::console::select_in(cell, ".sync-failed, .sync-done")
        .first()
        .map(|s| attr(s, "title").to_owned())
        .unwrap_or_default()
}

/// The latest version number of a repository, read with curl.
fn latest_version(pulp: &TestPulp, id: &RepoId) -> u64 {
    let repo = pulp.raw_ok(
        "GET",
        &format!("repositories/rpm/rpm/{id}/?fields=latest_version_href"),
        None,
    );
    repo["latest_version_href"]
        .as_str()
        .and_then(|h| h.trim_end_matches('/').rsplit('/').next()?.parse().ok())
        .expect("a latest version")
}

/// Polls GET /repos/<id>/sync until the cell leaves `running`; answers every distinct
/// (state, text) seen, the last one being final.
async fn poll_to_end(console: &Console, id: &RepoId, seen: &mut Vec<(String, String, String)>) {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let reply = console.get(&format!("/repos/{id}/sync")).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let now = cell(&reply.body, id);
        if seen.last().map(|s| (&s.0, &s.1)) != Some((&now.0, &now.1)) {
            seen.push(now.clone());
        }
        if now.0 != "running" {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the sync still runs after 180 s: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn print_seen(what: &str, seen: &[(String, String, String)]) {
    println!("{what}: cell texts seen, in order:");
    for (state, text, title) in seen {
        println!(
            "  {state:8} {text:?}{}",
            if title.is_empty() {
                String::new()
            } else {
                format!(" title={title:?}")
            }
        );
    }
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_real_sync_runs_refuses_a_second_one_and_ends_done_with_the_version() {
    let pulp = required_pulp();
    let _guard = exclusive("rc-mirror").await;
    let id = pulp.repo_id("rc-mirror");
    let console = over_upstream(Arc::new(pulp.client()), 1000).spawn().await;
    let before = latest_version(&pulp, &id);

    let started = console.post(&format!("/repos/{id}/sync"), "").await;
    let second = console.post(&format!("/repos/{id}/sync"), "").await;
    assert_eq!(started.status, 200, "{}", started.body);
    let first = cell(&started.body, &id);
    assert!(first.0 == "running" || first.0 == "done", "{first:?}");
    let mut seen = vec![first.clone()];
    poll_to_end(&console, &id, &mut seen).await;
    print_seen("rc-mirror sync", &seen);

    // The second POST came while the first sync was (most likely) running.
    println!(
        "second POST while the first ran: HTTP {}: {}",
        second.status,
        cell(&second.body, &id).1
    );
    if second.status == 200 {
        // Only right if the first sync had already ended when the second was created.
        let q = format!("tasks/?name=pulp_rpm.app.tasks.synchronizing.synchronize&reserved_resources=prn:rpm.rpmrepository:{id}&ordering=-pulp_created&limit=2&fields=pulp_created,finished_at");
        let tasks = pulp.raw_ok("GET", &q, None);
        let (newer, older) = (&tasks["results"][0], &tasks["results"][1]);
        let ended = older["finished_at"]
            .as_str()
            .expect("the first sync had ended");
        let created = newer["pulp_created"].as_str().expect("created");
        assert!(
            ended <= created,
            "a second sync was started while the first ran: {tasks}"
        );
        println!("NOTE: the first sync ended before the second POST: the 409 was not observed");
        poll_to_end(&console, &id, &mut seen).await;
    } else {
        assert_eq!(second.status, 409, "{}", second.body);
        let (state, _, title) = cell(&second.body, &id);
        assert_eq!(state, "failed", "the refusal is shown in the cell");
        assert!(title.contains("already running"), "{title}");
    }

    let (state, shown, _) = seen.last().cloned().expect("a final cell");
    let latest = latest_version(&pulp, &id);
    assert_eq!(state, "done", "{seen:?}");
    assert!(
        shown.ends_with(&format!("v{latest}")),
        "the cell shows v{latest}: {shown:?}"
    );
    assert!(
        latest >= before.max(1),
        "rc-mirror has content after a sync (v{before} -> v{latest})"
    );
    let board = console.get("/").await;
    let (state, row_text, _) = cell(&board.body, &id);
    assert_eq!(state, "done");
    assert!(row_text.contains(&format!("v{latest}")), "{row_text}");
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_sync_from_an_unreachable_remote_fails_naming_its_task_never_pulps_words() {
    let pulp = required_pulp();
    let _guard = exclusive("rc-broken-mirror").await;
    let id = pulp.repo_id("rc-broken-mirror");
    let console = over_upstream(Arc::new(pulp.client()), 1000).spawn().await;

    let started = console.post(&format!("/repos/{id}/sync"), "").await;
    assert_eq!(started.status, 200, "{}", started.body);
    let mut seen = vec![cell(&started.body, &id)];
    poll_to_end(&console, &id, &mut seen).await;
    print_seen("rc-broken-mirror sync", &seen);

    let (state, shown, title) = seen.last().cloned().expect("a final cell");
    assert_eq!(state, "failed");
    assert!(
        title.contains("failed in Pulp") && title.contains("/pulp/api/v3/tasks/"),
        "the task in the title: {title}"
    );
    assert!(
        !title.contains("Cannot connect"),
        "Pulp's words (the remote's host) stay in the log: {title}"
    );
    assert!(
        shown.chars().count() <= 20,
        "a shortened text in the cell: {shown:?}"
    );
    let board = console.get("/").await;
    let notices: Vec<String> = select(&board.html(), ".notice").iter().map(text).collect();
    assert!(notices.is_empty(), "{notices:?}");
    let (state, _, row_title) = cell(&board.body, &id);
    assert_eq!(
        (state.as_str(), row_title.as_str()),
        ("failed", title.as_str())
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_dashboard_page_costs_a_bounded_number_of_upstream_requests() {
    let pulp = required_pulp();
    let proxy = CountingProxy::start(&pulp.base_url).await;
    let deb = pulp.deb_held();
    let total = pulp.raw_ok(
        "GET",
        "repositories/rpm/rpm/?limit=1&fields=pulp_href",
        None,
    )["count"]
        .as_u64()
        .expect("a count")
        + deb.as_ref().map_or(0, |held| held.repositories);
    assert!(total >= 8, "the seeded repositories: {total}");
    for page_size in [1, 3, 25, 1000] {
        let client = PulpClient::new(PulpSettings {
            base_url: proxy.url.clone(),
            ..pulp.settings()
        })
        .expect("settings");
        let counting = Arc::new(Counting::new(client));
        let console = over_upstream(counting.clone(), page_size).spawn().await;
        console.get("/readyz").await; // logs in
        counting.take();
        proxy.take();

        let board = console.get("/").await;
        let (calls, requests) = (counting.take(), proxy.take());

        assert_eq!(board.status, 200);
        let notices: Vec<String> = select(&board.html(), ".notice").iter().map(text).collect();
        assert!(notices.is_empty(), "{page_size} per page: {notices:?}");
        let rows = select(&board.html(), "tr[data-repo]").len() as u64;
        assert_eq!(rows, page_size.min(total));
        assert_eq!(
            calls,
            [
                "list_repos",
                "sync_states",
                "list_distributions",
                "publications"
            ],
            "port calls, {rows} rows"
        );
        // One list, then at most 3 pages of tasks per 7 repositories shown (Pulp's `q`
        // limit), then production: the distributions (however many pages Pulp has, not
        // depending on the rows) and their publications, 40 per request.
        let distributions = pulp.raw_ok("GET", "distributions/rpm/rpm/?limit=1", None)["count"]
            .as_u64()
            .expect("a count");
        let dist_pages = distributions.div_ceil(pulp.settings().page_size.max(1));
        let production = (dist_pages + distributions.div_ceil(40)) as usize;
        // With pulp_deb: the page's order from the generic list, then each plugin's own
        // fields; sync tasks batched per plugin; Debian's distributions and publications.
        let deb_reads = deb.as_ref().map_or(0, |held| {
            let pages = held
                .distributions
                .div_ceil(pulp.settings().page_size.max(1))
                .max(1);
            (2 + 3 + pages + held.publishing.div_ceil(40)) as usize
        });
        let bound = 1 + 3 * rows.div_ceil(7) as usize + production + deb_reads;
        println!(
            "dashboard with {rows} rows: {} HTTP requests to Pulp: {requests:?}",
            requests.len()
        );
        assert!(
            !requests.is_empty() && requests.len() <= bound,
            "{requests:?}"
        );
        assert!(
            requests.iter().all(|r| r.starts_with("GET ")),
            "{requests:?}"
        );
    }
}
