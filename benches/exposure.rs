//! Exposure (issue 37) at size, behind a distant Pulp: the test suite's Pulp seeded with
//! `scripts/bench/seed_exposure.py` (100 repositories `rc-xpb-NNN`, each served by three
//! environments; 20,001 advisories naming CVEs), behind a proxy adding LATENCY_MS (default 20)
//! to every request. Prints, never asserts:
//!
//! - a package question (`package=xpb-ssl&below=1.1`) over every repository and environment:
//!   cold (a fresh console: every served version read), warm (median of 10: the versions kept),
//!   requests of each, and the floor: the warm question's own reads (the repositories, the
//!   distributions) issued at once, timed the same way; the warm/floor ratio (the issue asks
//!   for at most 1.1x, and within 2 s);
//! - a CVE question (`cve=CVE-2026-99999`): cold (the index built from every advisory), warm
//!   (the index brought up to date: one page), requests of each.
//!
//!     source /work/pulp-shared/env && cargo bench --bench exposure

#[path = "common/figures.rs"]
mod figures;
#[path = "scale/proxy.rs"]
mod proxy;
#[path = "common/timing.rs"]
mod timing;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::coalescing::Coalescing;
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::pulp::{PulpClient, PulpSettings, Secret};
use repo_console::app::exposure::{exposure, ExposureAnswer};
use repo_console::app::AppState;
use repo_console::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};
use repo_console::domain::exposure::{ExposureQuery, ExposureState, RawQuery};
use repo_console::ports::{PageRequest, RepositoryManager};
use repo_console::wiring::default_pulp_settings;

use figures::{env, ms};
use proxy::LatencyProxy;
use timing::median_of;

const SAMPLES: usize = 10;
const PATH: [(&str, &str); 3] = [
    ("testing", "{repo}-testing"),
    ("staging", "{repo}-staging"),
    ("production", "{repo}-prod"),
];

fn path() -> EnvironmentPath {
    EnvironmentPath::new(
        PATH.iter()
            .map(|(name, pattern)| Environment {
                name: EnvironmentName::parse(name).expect("a name"),
                naming: DistributionNaming::new(
                    Some(NamePattern::parse(pattern).expect("a pattern")),
                    [],
                ),
                requires_previous: false,
            })
            .collect(),
    )
    .expect("a path")
}

/// A fresh console's state over `settings` (no version read, no index, no publication known).
fn console(settings: &PulpSettings) -> (AppState, Arc<PulpClient>) {
    let client = Arc::new(PulpClient::new(settings.clone()).expect("client"));
    let dir = std::env::temp_dir().join(format!(
        "repo-console-bench-exposure-{}",
        std::process::id()
    ));
    let state = AppState::builder(
        client.clone(),
        client.clone(),
        Arc::new(JsonlAuditSink::new(dir.join("audit.jsonl"))),
        Arc::new(SystemClock),
        Arc::new(FixedOperator::default()),
    )
    .page_reads(Arc::new(Coalescing::new(client.clone())))
    .environments(path())
    .build();
    (state, client)
}

fn question(raw: RawQuery<'_>) -> ExposureQuery {
    ExposureQuery::parse(&raw)
        .expect("a question")
        .expect("asked")
}

async fn ask(state: &AppState, query: &ExposureQuery) -> ExposureAnswer {
    exposure(state, query).await.expect("an answer")
}

fn counts(answer: &ExposureAnswer) -> String {
    answer
        .summary()
        .iter()
        .map(|(env, counts)| {
            let words: Vec<String> = counts
                .iter()
                .map(|(s, n)| format!("{n} {}", s.as_str()))
                .collect();
            format!("{env}: {}", words.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Times one cold question on a fresh console: the time and the requests it sent.
async fn cold(
    settings: &PulpSettings,
    proxy: &LatencyProxy,
    query: &ExposureQuery,
) -> (Duration, usize, AppState, Arc<PulpClient>) {
    let (state, client) = console(settings);
    client
        .list_repos(PageRequest {
            offset: 0,
            limit: 1,
        })
        .await
        .expect("logs in");
    let before = proxy.requests();
    let started = Instant::now();
    let answer = ask(&state, query).await;
    let took = started.elapsed();
    let sent = proxy.requests() - before;
    println!("    {}", counts(&answer));
    let unknown = answer
        .rows
        .iter()
        .filter(|r| r.state == ExposureState::Unknown)
        .count();
    assert_eq!(unknown, 0, "every cell read");
    (took, sent, state, client)
}

#[tokio::main]
async fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("exposure benchmark: run it with `cargo bench --bench exposure` (see its header)");
        return;
    }
    let latency = Duration::from_millis(
        std::env::var("LATENCY_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20),
    );
    let (base, user, password) = (
        env("PULP_BASE_URL"),
        env("PULP_USERNAME"),
        env("PULP_PASSWORD"),
    );
    let proxy = LatencyProxy::start(&base, latency).await;
    let settings = PulpSettings {
        username: user,
        password: Secret::new(password),
        ..default_pulp_settings(&proxy.url).expect("settings")
    };
    let probe = PulpClient::new(settings.clone()).expect("client");
    let repos = probe
        .list_repos(PageRequest {
            offset: 0,
            limit: 1000,
        })
        .await
        .expect("repositories");
    let seeded = repos
        .items
        .iter()
        .filter(|r| r.display_name().starts_with("rc-xpb-0"))
        .count();
    assert!(
        seeded >= 100,
        "run scripts/bench/seed_exposure.py first ({seeded} rc-xpb-NNN)"
    );
    println!(
        "exposure: {} repositories in Pulp ({seeded} seeded rc-xpb-NNN) x {} environments, {} ms added per request",
        repos.total,
        PATH.len(),
        proxy.latency().as_millis()
    );

    let package = question(RawQuery {
        package: Some("xpb-ssl"),
        below: Some("1.1"),
        ..RawQuery::default()
    });
    println!("  package=xpb-ssl&below=1.1");
    let mut colds = Vec::new();
    let mut last = None;
    for _ in 0..3 {
        let (took, sent, state, client) = cold(&settings, &proxy, &package).await;
        colds.push((took, sent));
        last = Some((state, client));
    }
    colds.sort();
    let (state, client) = last.expect("three runs");
    println!(
        "    cold (a fresh console, median of 3): {} , {} requests",
        ms(colds[1].0),
        colds[1].1
    );
    ask(&state, &package).await;
    let before = proxy.requests();
    let warm = median_of(SAMPLES, async || ask(&state, &package).await).await;
    let warm_requests = (proxy.requests() - before) / SAMPLES;
    println!(
        "    warm (median of {SAMPLES}): {} , {warm_requests} requests, {} version reads kept",
        ms(warm),
        state.exposure_reads_kept()
    );
    // The floor: the warm question's own reads, at once.
    let names: Vec<String> = {
        let mut names = BTreeSet::new();
        for repo in &repos.items {
            for (_, pattern) in PATH {
                names.insert(pattern.replace("{repo}", repo.display_name()));
            }
        }
        names.into_iter().collect()
    };
    let floor = median_of(SAMPLES, async || {
        let (listed, named) = futures::join!(
            client.list_repos(PageRequest {
                offset: 0,
                limit: 1000
            }),
            client.distributions_named(&names)
        );
        listed.expect("repositories");
        named.expect("distributions");
    })
    .await;
    let ratio = warm.as_secs_f64() / floor.as_secs_f64();
    println!(
        "    floor (the repositories and the distributions read at once): {} -> warm is {ratio:.2}x the floor ({}; within 2 s: {})",
        ms(floor),
        if ratio <= 1.1 { "within 1.1x" } else { "ABOVE 1.1x" },
        warm <= Duration::from_secs(2)
    );

    let cve = question(RawQuery {
        cve: Some("CVE-2026-99999"),
        ..RawQuery::default()
    });
    let advisories = probe.advisory_references_total().await;
    println!("  cve=CVE-2026-99999 ({advisories} advisories in Pulp)");
    let (took, sent, state, _) = cold(&settings, &proxy, &cve).await;
    println!(
        "    cold (the index built from every advisory, every version read): {} , {sent} requests",
        ms(took)
    );
    let before = proxy.requests();
    let warm = median_of(SAMPLES, async || ask(&state, &cve).await).await;
    let warm_requests = (proxy.requests() - before) / SAMPLES;
    println!("    warm (median of {SAMPLES}: the index brought up to date, one page): {} , {warm_requests} requests", ms(warm));
    let answer = ask(&state, &cve).await;
    println!(
        "    advisories naming it: {:?}; {}",
        answer.advisories,
        counts(&answer)
    );
}

/// How many advisories Pulp holds (one request).
trait AdvisoryCount {
    async fn advisory_references_total(&self) -> u64;
}

impl AdvisoryCount for PulpClient {
    async fn advisory_references_total(&self) -> u64 {
        use repo_console::ports::AdvisoryCatalog;
        self.advisory_references(PageRequest {
            offset: 0,
            limit: 1,
        })
        .await
        .expect("advisories")
        .total
    }
}
