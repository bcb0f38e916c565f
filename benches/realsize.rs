//! Diffs at real size (issue 22) on the test suite's real Pulp, seeded once with
//! `scripts/bench/realsize/seed_realsize.py` (`rc-realsize`: v1 of 30,000 packages, v2 with
//! 200 name.arch removed, 200 added and 200 upgraded, several builds kept; `rc-realsize-prod`
//! serves v1). Prints, never asserts:
//! - the first confirm step of v2 (production v1) with nothing known, against Pulp's own
//!   time for the same exact reads issued directly (what v2 added and removed, then v2's
//!   builds of the names that differ);
//! - the confirm step once its diff was computed ahead, against the versions page (both
//!   from what is known);
//! - the whole-repository compare (v1 against v0: every package added) against listing v1's
//!   packages directly;
//! - the process's peak memory, and, in a child process of its own (`REALSIZE_MEMORY=1`),
//!   one console's resident memory once its diff cache is full of real-size diffs (v1 and
//!   v2 against v0, 60,044 changes, and v2 against v1: the default budget is 64,000).
//!
//!     source target/pulp/env && cargo bench --bench realsize

#[path = "common/figures.rs"]
mod figures;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::join_all;
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::coalescing::Coalescing;
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::pulp::{PulpClient, PulpSettings, Secret};
use repo_console::adapters::web;
use repo_console::app::AppState;
use repo_console::domain::diff::{ContentRead, PackageDifference};
use repo_console::domain::repository::VersionHref;
use repo_console::ports::PackageCatalog;
use repo_console::wiring::default_pulp_settings;
use serde_json::Value;

use figures::{env, median, ms, peak_rss_mib, status_mib};

type Http = Client<hyper_util::client::legacy::connect::HttpConnector, Empty<Bytes>>;

const REPO: &str = "rc-realsize";
const PRODUCTION: &str = "rc-realsize-prod";
const FIELDS: &str = "name,epoch,version,release,arch";

struct Pulp {
    http: Http,
    base: String,
    cookie: String,
}

impl Pulp {
    async fn login(base: &str, user: &str, password: &str) -> Self {
        use base64::Engine;
        let http = Client::builder(TokioExecutor::new()).build_http::<Empty<Bytes>>();
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        let request = hyper::Request::post(format!("{base}/pulp/api/v3/login/"))
            .header("authorization", format!("Basic {basic}"))
            .body(Empty::new())
            .expect("a request");
        let response = http.request(request).await.expect("login answers");
        let cookie = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|c| c.split(';').next())
            .collect::<Vec<_>>()
            .join("; ");
        Self {
            http,
            base: base.to_owned(),
            cookie,
        }
    }

    /// GET `path` (under the API root, or an href): the JSON answer.
    async fn get(&self, path: String) -> Value {
        let path = path.as_str();
        let url = if path.starts_with("/pulp/") {
            format!("{}{path}", self.base)
        } else {
            format!("{}/pulp/api/v3/{path}", self.base)
        };
        let request = hyper::Request::get(&url)
            .header("cookie", &self.cookie)
            .body(Empty::new())
            .expect("a request");
        let response = self.http.request(request).await.expect("Pulp answers");
        let status = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        assert!(status.is_success(), "{url}: {status}");
        serde_json::from_slice(&body).expect("JSON")
    }

    /// Every page of a package list, `limit` rows a page: the first page, then the rest
    /// `in_flight` at a time. Answers the number of rows.
    async fn whole_list(&self, query: String, limit: usize, in_flight: usize) -> usize {
        let first = self
            .get(format!("content/rpm/packages/?{query}&fields={FIELDS}&ordering=pulp_id&limit={limit}&offset=0"))
            .await;
        let count = first["count"].as_u64().unwrap_or(0) as usize;
        let offsets: Vec<usize> = (1..count.div_ceil(limit)).map(|p| p * limit).collect();
        let mut rows = first["results"].as_array().map_or(0, Vec::len);
        for chunk in offsets.chunks(in_flight) {
            let urls: Vec<String> = chunk
                .iter()
                .map(|offset| {
                    format!("content/rpm/packages/?{query}&fields={FIELDS}&ordering=pulp_id&limit={limit}&offset={offset}")
                })
                .collect();
            let pages = join_all(urls.into_iter().map(|url| self.get(url))).await;
            rows += pages
                .iter()
                .map(|p| p["results"].as_array().map_or(0, Vec::len))
                .sum::<usize>();
        }
        rows
    }
}

fn enc(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

async fn console(client: Arc<PulpClient>) -> (String, AppState) {
    let dir = std::env::temp_dir().join(format!("repo-console-realsize-{}", std::process::id()));
    let state = AppState::builder(
        client.clone(),
        client.clone(),
        Arc::new(JsonlAuditSink::new(dir.join("audit.jsonl"))),
        Arc::new(SystemClock),
        Arc::new(FixedOperator::default()),
    )
    .page_reads(Arc::new(Coalescing::new(client)))
    .production(HashMap::from([(REPO.into(), PRODUCTION.into())]))
    .build();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(web::serve(
        listener,
        state.clone(),
        std::future::pending(),
        Duration::from_secs(1),
    ));
    (address, state)
}

async fn load(http: &Http, url: &str) -> (Duration, usize) {
    let started = Instant::now();
    let response = http
        .request(
            hyper::Request::get(url)
                .body(Empty::new())
                .expect("a request"),
        )
        .await
        .expect("the console answers");
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    assert!(status.is_success(), "{url}: {status}");
    (started.elapsed(), body.len())
}

/// In this process alone: one console whose diff cache is filled with real-size diffs, then
/// its resident memory (what the issue bounds at 64 MiB).
async fn memory_with_the_cache_full(client: Arc<PulpClient>, id: &str) {
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let (address, state) = console(client).await;
    load(&http, &format!("{address}/readyz")).await;
    let idle = status_mib("VmRSS");
    for (to, against) in [(1, 0), (2, 0), (2, 1)] {
        load(
            &http,
            &format!("{address}/repos/{id}/versions/{to}/changes?against={against}"),
        )
        .await;
    }
    load(&http, &format!("{address}/repos/{id}/versions")).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    println!(
        "one console, diff cache full ({} changes held of a 64,000 budget): resident {:.1} MiB \
         (idle console {idle:.1} MiB); peak {:.1} MiB (VmHWM, the 30,000-row pages in flight)",
        state.diffs_held(),
        status_mib("VmRSS"),
        status_mib("VmHWM"),
    );
}

#[tokio::main]
async fn main() {
    let (base, user, password) = (
        env("PULP_BASE_URL"),
        env("PULP_USERNAME"),
        env("PULP_PASSWORD"),
    );
    let pulp = Pulp::login(&base, &user, &password).await;
    let found = pulp
        .get(format!(
            "repositories/rpm/rpm/?name={REPO}&fields=pulp_href"
        ))
        .await;
    let Some(repo_href) = found["results"][0]["pulp_href"].as_str().map(str::to_owned) else {
        panic!("no {REPO} in this Pulp: run scripts/bench/realsize/seed_realsize.py first");
    };
    let id = repo_href
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .expect("uuid")
        .to_owned();
    let (v0, v1, v2) = (
        VersionHref::new(format!("{repo_href}versions/0/")),
        VersionHref::new(format!("{repo_href}versions/1/")),
        VersionHref::new(format!("{repo_href}versions/2/")),
    );
    let settings = PulpSettings {
        username: user.clone(),
        password: Secret::new(password.clone()),
        ..default_pulp_settings(&base).expect("settings")
    };
    let client = Arc::new(PulpClient::new(settings).expect("settings"));
    if std::env::var("REALSIZE_MEMORY").as_deref() == Ok("1") {
        return memory_with_the_cache_full(client, &id).await;
    }
    let http: Http = Client::builder(TokioExecutor::new()).build_http();

    // The names that differ between v1 and v2, for the floor's name__in reads.
    let (added, removed) = futures::join!(
        client.packages(&v2, &ContentRead::Added),
        client.packages(&v2, &ContentRead::Removed)
    );
    let (added, removed) = (added.expect("added"), removed.expect("removed"));
    let names = PackageDifference::touched_names(&added, &removed);
    println!(
        "{REPO}: v2 added {} and removed {} builds of {} names",
        added.len(),
        removed.len(),
        names.len()
    );
    let mut batches: Vec<String> = Vec::new();
    for name in &names {
        match batches.last_mut() {
            Some(last) if last.len() + name.len() < 3000 => {
                last.push(',');
                last.push_str(&enc(name));
            }
            _ => batches.push(enc(name)),
        }
    }

    // 1. The first confirm step with nothing known, against Pulp's own time for its reads.
    let rounds = 5;
    let (mut floor, mut first) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let started = Instant::now();
        let v2s = enc(v2.as_str());
        futures::join!(
            pulp.whole_list(format!("repository_version_added={v2s}"), 1000, 4),
            pulp.whole_list(format!("repository_version_removed={v2s}"), 1000, 4),
            pulp.get(format!("content/rpm/advisories/?repository_version_added={v2s}&fields=id,type,severity,title,pkglist&limit=1000")),
            pulp.get(format!("content/rpm/advisories/?repository_version_removed={v2s}&fields=id,type,severity,title,pkglist&limit=1000")),
        );
        join_all(batches.iter().map(|batch| {
            pulp.whole_list(
                format!("repository_version={v2s}&name__in={batch}"),
                1000,
                4,
            )
        }))
        .await;
        floor.push(started.elapsed());

        let (address, _state) = console(client.clone()).await;
        load(&http, &format!("{address}/readyz")).await;
        let (took, _) = load(
            &http,
            &format!("{address}/repos/{id}/deploy/confirm?version=2"),
        )
        .await;
        first.push(took);
    }
    let (floor, first) = (median(floor), median(first));
    println!(
        "first confirm step of v2 (production v1), median of {rounds}: {} ; Pulp's own time for its exact reads (added/removed + name__in): {} ; ratio {:.2}x",
        ms(first),
        ms(floor),
        first.as_secs_f64() / floor.as_secs_f64()
    );

    // 2. Once computed ahead (cached), against the versions page.
    let (address, _state) = console(client.clone()).await;
    load(
        &http,
        &format!("{address}/repos/{id}/deploy/confirm?version=2"),
    )
    .await;
    let (mut confirm, mut page) = (Vec::new(), Vec::new());
    let mut size = (0, 0);
    for _ in 0..20 {
        let (c, cs) = load(
            &http,
            &format!("{address}/repos/{id}/deploy/confirm?version=2"),
        )
        .await;
        let (p, ps) = load(&http, &format!("{address}/repos/{id}/versions")).await;
        confirm.push(c);
        page.push(p);
        size = (cs, ps);
    }
    let (confirm, page) = (median(confirm), median(page));
    println!(
        "confirm step from what is known (median of 20): {} ({} KiB); versions page: {} ({} KiB); ratio {:.2}x",
        ms(confirm),
        size.0 / 1024,
        ms(page),
        size.1 / 1024,
        confirm.as_secs_f64() / page.as_secs_f64()
    );

    // 3. The whole-repository compare against listing the version's packages directly.
    let rounds = 3;
    let (mut listing, mut compare) = (Vec::new(), Vec::new());
    let mut rows = 0;
    for _ in 0..rounds {
        let started = Instant::now();
        rows = pulp
            .whole_list(format!("repository_version={}", enc(v1.as_str())), 5000, 2)
            .await;
        listing.push(started.elapsed());
        let (address, _state) = console(client.clone()).await;
        load(&http, &format!("{address}/readyz")).await;
        let (took, _) = load(
            &http,
            &format!("{address}/repos/{id}/versions/1/changes?against=0"),
        )
        .await;
        compare.push(took);
    }
    let (listing, compare) = (median(listing), median(compare));
    println!(
        "whole-repository compare (v1 against v0, median of {rounds}): {} ; listing v1's {rows} packages directly (5,000 a page, 2 at a time): {} ; ratio {:.2}x",
        ms(compare),
        ms(listing),
        compare.as_secs_f64() / listing.as_secs_f64()
    );
    let _ = v0;
    println!(
        "peak memory of this process (consoles, diffs cached): {:.0} MiB",
        peak_rss_mib()
    );
    let child = std::process::Command::new(std::env::current_exe().expect("this benchmark"))
        .env("REALSIZE_MEMORY", "1")
        .status()
        .expect("the memory run starts");
    assert!(child.success(), "the memory run failed");
}
