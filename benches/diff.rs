//! Benchmark of issue 12's diff: two versions of 10,000 packages each, differing by 500
//! (upgraded), plus 20 new advisories, served over HTTP by a fake Pulp that answers the
//! same filtered queries as the real one (`q=repository_version="A" AND NOT
//! repository_version="B"`, `fields`, `limit`/`offset`, `next` links) to the real
//! `PulpClient`. Prints time, upstream requests and memory; asserts nothing about speed.

#[path = "common/figures.rs"]
mod figures;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use repo_console::adapters::pulp::{PulpClient, PulpSettings};
use repo_console::adapters::web::views::changes::{diff_summary, SUMMARY_LIMIT};
use repo_console::domain::content::Advisories;
use repo_console::domain::diff::{
    AdvisorySides, ContentDifference, ContentRead, PackageDifference, VersionDiff,
};
use repo_console::domain::repository::VersionHref;
use repo_console::ports::{AdvisoryCatalog, PackageCatalog};
use repo_console::wiring::default_pulp_settings;
use serde_json::{json, Value};

use figures::{median, peak_rss_mib};

const PACKAGES: usize = 10_000;
const CHANGED: usize = 500;
const PACKAGES_PATH: &str = "/pulp/api/v3/content/rpm/packages/";
const ADVISORIES_PATH: &str = "/pulp/api/v3/content/rpm/advisories/";
const REPO: &str = "/pulp/api/v3/repositories/rpm/rpm/01a202de-0000-7000-8000-000000000001/";

struct Fake {
    /// Per version href: its packages and advisories as Pulp's JSON rows.
    packages: HashMap<String, Vec<Value>>,
    advisories: HashMap<String, Vec<Value>>,
    requests: AtomicUsize,
}

fn package(i: usize, version: &str) -> Value {
    json!({"name": format!("pkg-{i:05}"), "epoch": "0", "version": version, "release": "1.el9", "arch": "x86_64"})
}

fn advisory(i: usize, kind: &str) -> Value {
    json!({"id": format!("ADV-{i:04}"), "type": kind, "severity": "Important",
        "title": format!("advisory {i}"),
        "pkglist": [{"name": "c", "packages": [{"name": format!("pkg-{i:05}")}]}]})
}

fn fake() -> Fake {
    let (v1, v2) = (format!("{REPO}versions/1/"), format!("{REPO}versions/2/"));
    let old: Vec<Value> = (0..PACKAGES).map(|i| package(i, "1.0")).collect();
    let new: Vec<Value> = (0..PACKAGES)
        .map(|i| package(i, if i < CHANGED { "1.1" } else { "1.0" }))
        .collect();
    let old_adv: Vec<Value> = (0..50).map(|i| advisory(i, "bugfix")).collect();
    let kinds = ["security", "bugfix", "enhancement", "security"];
    let new_adv: Vec<Value> = old_adv
        .iter()
        .cloned()
        .chain((50..70).map(|i| advisory(i, kinds[i % 4])))
        .collect();
    Fake {
        packages: HashMap::from([(v1.clone(), old), (v2.clone(), new)]),
        advisories: HashMap::from([(v1, old_adv), (v2, new_adv)]),
        requests: AtomicUsize::new(0),
    }
}

/// The rows of `in_version` not in `not_in`, as Pulp's filter answers them, one page.
fn answer(
    list: &str,
    rows: &HashMap<String, Vec<Value>>,
    params: &HashMap<String, String>,
) -> Value {
    let q = params.get("q").cloned().unwrap_or_default();
    let quoted: Vec<&str> = q.split('"').collect();
    let empty = Vec::new();
    let in_version = params
        .get("repository_version")
        .map(String::as_str)
        .or(quoted.get(1).copied())
        .unwrap_or("");
    let inside = rows.get(in_version).unwrap_or(&empty);
    let outside = quoted.get(3).and_then(|h| rows.get(*h)).unwrap_or(&empty);
    let outside: HashSet<String> = outside.iter().map(Value::to_string).collect();
    let names: Option<HashSet<&str>> = params.get("name__in").map(|n| n.split(',').collect());
    let all: Vec<&Value> = inside
        .iter()
        .filter(|r| !outside.contains(&r.to_string()))
        .filter(|r| {
            names
                .as_ref()
                .is_none_or(|names| r["name"].as_str().is_some_and(|name| names.contains(name)))
        })
        .collect();
    let number = |k: &str, d: usize| params.get(k).and_then(|v| v.parse().ok()).unwrap_or(d);
    let (limit, offset) = (number("limit", 100), number("offset", 0));
    let page: Vec<&Value> = all.iter().skip(offset).take(limit).copied().collect();
    let next = (offset + limit < all.len()).then(|| {
        let mut query: Vec<String> = params
            .iter()
            .filter(|(k, _)| *k != "offset")
            .map(|(k, v)| format!("{k}={}", urlencode(v)))
            .collect();
        query.push(format!("offset={}", offset + limit));
        format!("http://pulp.invalid{list}?{}", query.join("&"))
    });
    json!({"count": all.len(), "next": next, "previous": null, "results": page})
}

fn urlencode(v: &str) -> String {
    url::form_urlencoded::byte_serialize(v.as_bytes()).collect()
}

async fn packages(
    State(f): State<Arc<Fake>>,
    Query(p): Query<HashMap<String, String>>,
) -> Json<Value> {
    f.requests.fetch_add(1, Ordering::SeqCst);
    Json(answer(PACKAGES_PATH, &f.packages, &p))
}

async fn advisories(
    State(f): State<Arc<Fake>>,
    Query(p): Query<HashMap<String, String>>,
) -> Json<Value> {
    f.requests.fetch_add(1, Ordering::SeqCst);
    Json(answer(ADVISORIES_PATH, &f.advisories, &p))
}

async fn one_diff(client: &PulpClient, old: &VersionHref, new: &VersionHref) -> VersionDiff {
    let (not_in_old, not_in_new) = (
        ContentRead::NotIn(old.clone()),
        ContentRead::NotIn(new.clone()),
    );
    let (pn, po, an, ao) = futures::try_join!(
        client.packages(new, &not_in_old),
        client.packages(old, &not_in_new),
        client.advisories(new, &not_in_old),
        client.advisories(old, &not_in_new),
    )
    .expect("the fake answers");
    let touched = PackageDifference::touched_names(&pn, &po);
    let builds = client
        .package_builds(new, &touched)
        .await
        .expect("the fake answers");
    VersionDiff::new(ContentDifference {
        packages: PackageDifference::from_new_builds(pn, po, builds),
        advisories: Advisories::Carried(AdvisorySides {
            only_new: an,
            only_old: ao,
        }),
    })
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let fake = Arc::new(fake());
    let app = Router::new()
        .route(PACKAGES_PATH, get(packages))
        .route(ADVISORIES_PATH, get(advisories))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let rss_before = peak_rss_mib();

    let client = PulpClient::new(PulpSettings {
        username: String::new(),
        use_session: false,
        ..default_pulp_settings(&base_url).expect("default settings")
    })
    .expect("settings");
    let (old, new) = (
        VersionHref::new(format!("{REPO}versions/1/")),
        VersionHref::new(format!("{REPO}versions/2/")),
    );
    let mut times = Vec::new();
    let mut diff = VersionDiff::default();
    for _ in 0..10 {
        fake.requests.store(0, Ordering::SeqCst);
        let started = Instant::now();
        diff = one_diff(&client, &old, &new).await;
        times.push(started.elapsed());
    }
    let requests = fake.requests.load(Ordering::SeqCst);
    assert_eq!(diff.packages.len(), CHANGED);
    assert_eq!(diff.advisories.added.len(), 20);

    fake.requests.store(0, Ordering::SeqCst);
    let started = Instant::now();
    let everything = client
        .packages(&new, &ContentRead::All)
        .await
        .expect("a list");
    println!(
        "nothing deployed yet (every package of the target is new): {} packages in {:?}, {} requests",
        everything.len(),
        started.elapsed(),
        fake.requests.load(Ordering::SeqCst)
    );

    let started = Instant::now();
    let html = diff_summary(&diff, SUMMARY_LIMIT, Some("/x")).into_string();
    let render = started.elapsed();
    println!(
        "diff of two versions of {PACKAGES} packages differing by {CHANGED} (+20 advisories), \
         real PulpClient over HTTP to a fake Pulp: {:?} (median of 10), {requests} requests \
         (4 filtered lists, 1000 rows a page)",
        median(times)
    );
    println!(
        "confirm-step summary (first {SUMMARY_LIMIT} of {} changes): render {render:?}, {} KiB",
        diff.packages.len(),
        html.len() / 1024
    );
    println!(
        "peak resident memory: {:.1} MiB (of which the fake's data set {:.1} MiB)",
        peak_rss_mib(),
        rss_before
    );
}
