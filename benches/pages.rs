//! Prints how long the console takes to build and render its pages at scale, over the
//! in-memory upstream (so the figures are the console's own cost, not Pulp's), and the
//! process's peak memory. Run: `cargo bench --bench pages`. Figures, not assertions.

use std::sync::Arc;
use std::time::{Duration, Instant};

use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::memory::{FixedClock, InMemoryPulp, MemoryOptions, RecordingAuditSink};
use repo_console::adapters::web::views::{dashboard::dashboard_page, versions::versions_page};
use repo_console::app::{pages::dashboard, pages::versions, AppState};
use repo_console::domain::repository::{
    ChecksumType, RepoVerification, Screen, VersionNumber, VERSIONS_PER_SCREEN,
};

fn state(pulp: Arc<InMemoryPulp>) -> AppState {
    AppState::builder(
        pulp.clone(),
        pulp,
        Arc::new(RecordingAuditSink::default()),
        Arc::new(FixedClock(chrono::Utc::now())),
        Arc::new(FixedOperator::default()),
    )
    .page_size(100)
    .build()
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn peak_rss_mib() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l.split_whitespace().nth(1).unwrap_or("?").to_owned())
        })
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or_else(|| "?".into(), |kb| format!("{:.1}", kb / 1024.0))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let pulp = Arc::new(InMemoryPulp::new(MemoryOptions::default()));
    let verified = RepoVerification {
        gpgcheck: Some(true),
        repo_gpgcheck: Some(true),
        checksum: Some(ChecksumType::Sha256),
        metadata_signed: Some(true),
        ..Default::default()
    };
    let big = pulp.add_repo("big", verified.clone());
    for n in 0..2_000 {
        let add = [format!("pkg-{n}-a"), format!("pkg-{n}-b")];
        let remove = if n > 0 {
            vec![format!("pkg-{}-a", n - 1)]
        } else {
            vec![]
        };
        let add: Vec<&str> = add.iter().map(String::as_str).collect();
        let remove: Vec<&str> = remove.iter().map(String::as_str).collect();
        pulp.add_version(&big, &add, &remove);
    }
    for d in 0..200 {
        let p = pulp.publish(&big, VersionNumber::new(d * 7));
        pulp.add_distribution(&format!("dist-{d}"), Some(&p));
    }
    for r in 0..500 {
        pulp.add_repo(&format!("repo-{r:03}"), verified.clone());
    }
    let state = state(pulp);

    let mut build = Vec::new();
    let mut render = Vec::new();
    let mut bytes = 0;
    for _ in 0..30 {
        let t = Instant::now();
        let page = versions::versions_page(&state, &big, Screen::new(0, VERSIONS_PER_SCREEN))
            .await
            .expect("a known repository");
        build.push(t.elapsed());
        let t = Instant::now();
        bytes = versions_page(&page).into_string().len();
        render.push(t.elapsed());
    }
    println!("versions page (first screen of 50), 2,001 versions, 200 distributions: build {:?}, render {:?} (median of 30), {} KiB of HTML",
        median(build), median(render), bytes / 1024);

    let mut board_times = Vec::new();
    for _ in 0..30 {
        let t = Instant::now();
        let board = dashboard::dashboard(&state, 0).await;
        let html = dashboard_page(&board).into_string();
        assert!(html.contains("repo-"));
        board_times.push(t.elapsed());
    }
    println!(
        "dashboard page of 100 out of 501 repositories: {:?} (median of 30)",
        median(board_times)
    );
    println!("peak resident memory: {} MiB", peak_rss_mib());
}
