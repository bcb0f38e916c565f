//! Diffs kept beyond memory (issue 22): a diff of 30,000 package changes (+300 advisories)
//! in the file diff store, and the in-memory cache filled to its budget with such diffs.
//! Prints the bytes on disk, the time to write and to read it back, the memory a change
//! costs in the cache and the process's peak resident memory; asserts nothing about speed.
//!
//!     cargo bench --bench diff_store

#[path = "common/figures.rs"]
mod figures;

use std::sync::Arc;
use std::time::Instant;

use repo_console::adapters::files::diff_store::FileDiffStore;
use repo_console::app::diffs::cache::{DiffCache, DEFAULT_BUDGET};
use repo_console::domain::diff::{
    Advisory, AdvisoryDiff, AdvisoryType, ChangeKind, DiffKey, Evr, PackageChange, VersionDiff,
};
use repo_console::domain::repository::VersionHref;
use repo_console::ports::DiffStore;

use figures::{median, status_mib};

const CHANGES: usize = 30_000;
const REPO: &str = "/pulp/api/v3/repositories/rpm/rpm/01a202de-0000-7000-8000-000000000001/";

/// Names and builds as a RHEL repository has them: 60% upgraded, 20% added, 15% removed,
/// 5% downgraded; a few packages with two builds on a side.
fn change(i: usize) -> PackageChange {
    let stems = [
        "python3",
        "perl",
        "golang-github",
        "texlive",
        "libreoffice",
        "kernel",
    ];
    let name = format!("{}-module-{i:05}", stems[i % stems.len()]);
    let arch = if i.is_multiple_of(4) {
        "noarch"
    } else {
        "x86_64"
    };
    let evr = |v: usize| Evr::new(0, format!("{}.{}.{}", 1 + i % 9, v, i % 40), "3.el9_4");
    let (kind, old, new) = match i % 20 {
        0..=11 => (ChangeKind::Upgraded, vec![evr(1)], vec![evr(2)]),
        12..=15 => (ChangeKind::Added, vec![], vec![evr(1)]),
        16..=18 => (ChangeKind::Removed, vec![evr(1)], vec![]),
        _ => (ChangeKind::Downgraded, vec![evr(2), evr(3)], vec![evr(1)]),
    };
    PackageChange {
        name,
        arch: arch.into(),
        kind,
        old,
        new,
        security: i.is_multiple_of(11),
        kept: None,
    }
}

fn advisory(i: usize) -> Advisory {
    Advisory {
        id: format!("RHSA-2026:{i:05}"),
        kind: if i.is_multiple_of(3) {
            AdvisoryType::Security
        } else {
            AdvisoryType::Bugfix
        },
        severity: Some("Important".into()),
        title: format!("Important: python3-module-{i:05} security update"),
        packages: (0..4)
            .map(|p| format!("python3-module-{:05}", i * 4 + p))
            .collect(),
    }
}

fn big_diff() -> VersionDiff {
    let mut diff = VersionDiff {
        packages: (0..CHANGES).map(change).collect(),
        advisories: AdvisoryDiff {
            added: (0..300).map(advisory).collect(),
            ..AdvisoryDiff::default()
        },
    };
    diff.shrink_to_fit();
    diff
}

fn key(n: usize) -> DiffKey {
    (
        Some(VersionHref::new(format!("{REPO}versions/{n}/"))),
        VersionHref::new(format!("{REPO}versions/{}/", n + 1)),
    )
}

/// In a process of its own (its memory is only the cache's): fills a cache of `budget`
/// changes with diffs read from the store in `dir`, three times over, and prints the resident
/// memory when it first fills, and at the end.
async fn fill(dir: &str, budget: usize) {
    let store = FileDiffStore::new(dir, 512 << 20);
    let start = status_mib("VmRSS");
    let cache = DiffCache::with_budget(budget);
    let per_diff = CHANGES + 300 + 1;
    let rounds = 3 * (budget / per_diff).max(1) + 1;
    let mut first_full = None;
    for n in 0..rounds {
        let mut read = store.get(&key(n % 5)).await.expect("read").expect("stored");
        read.shrink_to_fit();
        cache.insert(key(1000 + n), Arc::new(read));
        if first_full.is_none() && n + 1 == (budget / per_diff).max(1) {
            first_full = Some(status_mib("VmRSS"));
        }
    }
    let grown = first_full.unwrap_or_default() - start;
    let held = cache.len() * per_diff;
    println!(
        "memory cache of {budget} changes: {} diff(s) of {per_diff} changes held, {:.0} bytes a \
         change held; process resident {start:.1} MiB before, {:.1} MiB when first full, \
         {:.1} MiB after {rounds} inserts, peak {:.1} MiB (VmHWM)",
        cache.len(),
        grown * 1024.0 * 1024.0 / held as f64,
        start + grown,
        status_mib("VmRSS"),
        status_mib("VmHWM"),
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, dir, budget] = args.as_slice() {
        if flag == "--fill" {
            return fill(dir, budget.parse().expect("a budget")).await;
        }
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = FileDiffStore::new(dir.path(), 512 << 20);
    let diff = big_diff();
    let json = serde_json::to_vec(&diff).expect("JSON").len();

    let mut writes = Vec::new();
    for n in 0..5 {
        let started = Instant::now();
        store.put(&key(n), &diff).await.expect("written");
        writes.push(started.elapsed());
    }
    let on_disk = std::fs::metadata(store.path_of(&key(0)))
        .expect("a file")
        .len();
    let mut reads = Vec::new();
    for n in 0..5 {
        let fresh = FileDiffStore::new(dir.path(), 512 << 20);
        let started = Instant::now();
        let read = fresh.get(&key(n)).await.expect("read").expect("stored");
        reads.push(started.elapsed());
        assert_eq!(read.packages.len(), CHANGES);
    }
    println!(
        "a diff of {CHANGES} package changes (+300 advisories): {:.0} KiB on disk (gzip'd JSON; \
         {:.0} KiB as plain JSON), written in {:?}, read back from the file store in {:?} \
         (medians of 5)",
        on_disk as f64 / 1024.0,
        json as f64 / 1024.0,
        median(writes),
        median(reads)
    );
    drop(diff);
    let me = std::env::current_exe().expect("this benchmark");
    let dir = dir.path().to_str().expect("a UTF-8 path");
    for budget in [DEFAULT_BUDGET, 100_000, 200_000] {
        let out = std::process::Command::new(&me)
            .args(["--fill", dir, &budget.to_string()])
            .output()
            .expect("the benchmark runs again");
        print!("{}", String::from_utf8_lossy(&out.stdout));
    }
}
