//! The dashboard at size: a Pulp seeded by `scripts/bench/seed_dashboard.py` (1,000
//! `rc-dash-*` repositories, 5,000 distributions), behind the latency proxy. For the first
//! page and a later one, with and without `[production]` configured for the repositories
//! on the page: upstream requests per load, the median time of [`SAMPLES`] loads, and the
//! floor, the page's own upstream calls issued directly, all at once (one round; the
//! console cannot do better than two: the repositories of the page, then the rest), timed
//! the same way. Prints, never asserts.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use repo_console::adapters::pulp::{PulpClient, PulpSettings};
use repo_console::domain::repository::Repository;
use repo_console::ports::{PageRequest, RepositoryManager};

use super::{get, median, ms, session_cookie, spawn_console, Http, LatencyProxy, SAMPLES};

/// The console's default dashboard page size.
const PAGE_SIZE: u64 = 25;
/// The pages measured (from 0).
const PAGES: [u64; 2] = [0, 20];
/// The fields and filters the Pulp adapter sends (src/adapters/pulp), to build the floor.
const REPO_FIELDS: &str = super::REPO_FIELDS;
const DISTRIBUTION_FIELDS: &str = "pulp_href,name,base_path,publication,pulp_last_updated";
const TASK_FIELDS: &str =
    "pulp_href,state,error,progress_reports,created_resources,reserved_resources_record";
const SYNC_TASK_NAME: &str = "pulp_rpm.app.tasks.synchronizing.synchronize";
const REPOS_PER_TASK_QUERY: usize = 7;
/// The Pulp adapter's page when it lists every distribution.
const DISTRIBUTIONS_PER_CALL: u64 = 5000;
/// The pages compared when every distribution is read.
const SMALL_PAGE: u64 = 1000;

fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' | b':' | b',' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The median time of [`SAMPLES`] runs of `round`.
async fn timed<F: Future>(round: impl Fn() -> F) -> Duration {
    let mut samples = Vec::new();
    for _ in 0..SAMPLES {
        let started = Instant::now();
        round().await;
        samples.push(started.elapsed());
    }
    median(samples)
}

/// The calls a dashboard page makes after its page of repositories: the newest sync task of
/// each (7 repositories a query) and the distributions (by name, or all of them).
fn dependent_urls(
    api: &str,
    repos: &[Repository],
    configured: bool,
    distributions: u64,
    pulp_page: u64,
) -> Vec<String> {
    let mut urls: Vec<String> = repos
        .chunks(REPOS_PER_TASK_QUERY)
        .map(|batch| {
            let q = batch
                .iter()
                .map(|r| format!("reserved_resources=\"prn:rpm.rpmrepository:{}\"", r.id))
                .collect::<Vec<_>>()
                .join(" OR ");
            format!(
                "{api}tasks/?name={SYNC_TASK_NAME}&ordering=-pulp_created&q={}&fields={TASK_FIELDS}&limit={pulp_page}",
                encode(&q)
            )
        })
        .collect();
    if configured {
        let names: Vec<String> = repos.iter().map(production_of).collect();
        urls.push(format!(
            "{api}distributions/rpm/rpm/?name__in={}&fields={DISTRIBUTION_FIELDS}&limit={pulp_page}&offset=0",
            encode(&names.join(","))
        ));
    } else {
        let pages = distributions.div_ceil(DISTRIBUTIONS_PER_CALL).max(1);
        urls.extend((0..pages).map(|p| {
            format!(
                "{api}distributions/rpm/rpm/?fields={DISTRIBUTION_FIELDS}&limit={DISTRIBUTIONS_PER_CALL}&offset={}",
                p * DISTRIBUTIONS_PER_CALL
            )
        }));
    }
    urls
}

/// The production the benchmark configures for a repository: `<name>-prod` (the seed's).
fn production_of(repo: &Repository) -> String {
    format!("{}-prod", repo.display_name())
}

pub async fn run(proxy: &LatencyProxy, settings: &PulpSettings, http: &Http) {
    let client = Arc::new(PulpClient::new(settings.clone()).expect("client"));
    let cookie = session_cookie(&proxy.url, &settings.username, settings.password.expose()).await;
    let auth = [("cookie", cookie.as_str())];
    let api = format!("{}/pulp/api/v3/", proxy.url);
    let count = |path: &str| {
        let url = format!("{api}{path}?limit=1&fields=pulp_href");
        let auth = &auth;
        async move {
            let (_, body) = super::fetch(http, &url, auth).await;
            let page: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
            page["count"].as_u64().expect("a count")
        }
    };
    let (repositories, distributions) = (
        count("repositories/rpm/rpm/").await,
        count("distributions/rpm/rpm/").await,
    );
    if repositories < 1000 || distributions < 5000 {
        println!(
            "dashboard at size: Pulp has {repositories} repositories and {distributions} distributions; \
             run scripts/bench/seed_dashboard.py first (1,000 and 5,000)"
        );
        return;
    }
    let mut pages = Vec::new();
    for page in PAGES {
        let repos = client
            .list_repos(PageRequest {
                offset: page * PAGE_SIZE,
                limit: PAGE_SIZE,
            })
            .await
            .expect("repositories")
            .items;
        pages.push((page, repos));
    }
    println!(
        "dashboard at size: {repositories} repositories, {distributions} distributions, {PAGE_SIZE} a page, {} ms added per request",
        proxy.latency().as_millis()
    );
    for configured in [false, true] {
        let production: HashMap<String, String> = if configured {
            pages
                .iter()
                .flat_map(|(_, repos)| repos.iter())
                .map(|r| (r.display_name().to_owned(), production_of(r)))
                .collect()
        } else {
            HashMap::new()
        };
        // A client of its own: nothing remembered from the other configuration.
        let client = Arc::new(PulpClient::new(settings.clone()).expect("client"));
        let (console, _) = spawn_console(
            client,
            repo_console::domain::environment::EnvironmentPath::production_only(production),
        )
        .await;
        println!(
            "  [production] {}:",
            if configured {
                "configured for every repository of the page (read by name)"
            } else {
                "not configured (every distribution read)"
            }
        );
        for (page, repos) in &pages {
            let url = format!("{console}/?page={page}");
            let before = proxy.requests();
            let started = Instant::now();
            let (status, bytes) = get(http, &url, &[]).await;
            assert_eq!(status, 200, "the dashboard answers");
            let first = (started.elapsed(), proxy.requests() - before);
            let before = proxy.requests();
            let load = timed(|| get(http, &url, &[])).await;
            let per_load = (proxy.requests() - before) as f64 / f64::from(SAMPLES);

            let list = format!(
                "{api}repositories/rpm/rpm/?ordering=name&offset={}&limit={PAGE_SIZE}&fields={REPO_FIELDS}",
                page * PAGE_SIZE
            );
            let rest = dependent_urls(&api, repos, configured, distributions, settings.page_size);
            let mut all = rest.clone();
            all.push(list.clone());
            let one_round =
                timed(|| futures::future::join_all(all.iter().map(|u| get(http, u, &auth)))).await;
            let two_rounds = timed(|| async {
                get(http, &list, &auth).await;
                futures::future::join_all(rest.iter().map(|u| get(http, u, &auth))).await;
            })
            .await;
            println!(
                "    page {page:>2} ({} KiB): {} median of {SAMPLES}, {per_load:.1} upstream requests a load (the first load: {}, {} requests)",
                bytes / 1024,
                ms(load),
                ms(first.0),
                first.1
            );
            println!(
                "             floor, its {} calls at once: {} -> page/floor {:.2}x; repositories then the rest at once: {} ({:.2}x)",
                all.len(),
                ms(one_round),
                load.as_secs_f64() / one_round.as_secs_f64(),
                ms(two_rounds),
                load.as_secs_f64() / two_rounds.as_secs_f64()
            );
        }
    }
    // How to read every distribution: pages of 1,000 at once, or one after another, or one
    // call (the console's choice since this benchmark).
    let pages = distributions.div_ceil(SMALL_PAGE);
    let concurrent: Vec<String> = (0..pages)
        .map(|p| {
            format!(
                "{api}distributions/rpm/rpm/?fields={DISTRIBUTION_FIELDS}&limit={SMALL_PAGE}&offset={}",
                p * SMALL_PAGE
            )
        })
        .collect();
    let at_once =
        timed(|| futures::future::join_all(concurrent.iter().map(|u| get(http, u, &auth)))).await;
    let sequential = timed(|| async {
        for u in &concurrent {
            get(http, u, &auth).await;
        }
    })
    .await;
    let first_then_rest = timed(|| async {
        get(http, &concurrent[0], &auth).await;
        futures::future::join_all(concurrent[1..].iter().map(|u| get(http, u, &auth))).await;
    })
    .await;
    let single = format!(
        "{api}distributions/rpm/rpm/?fields={DISTRIBUTION_FIELDS}&limit={distributions}&offset=0"
    );
    let one_call = timed(|| get(http, &single, &auth)).await;
    println!(
        "  every distribution ({distributions}): {pages} calls of {SMALL_PAGE} at once {} ; the first, then the others at once (before) {} ; one after another {} ; one call of {distributions} {}",
        ms(at_once),
        ms(first_then_rest),
        ms(sequential),
        ms(one_call)
    );
}
