//! The check store with a long history: what reading the checks costs when `checks.jsonl`
//! holds 1,000, 10,000 and 100,000 reports (many repositories, versions and re-runs), as the
//! versions page (`latest` of one repository), a deploy's gate to an environment with required
//! checks (`latest` of one version) and a report (`record`, then the promotion's `claim`, under
//! the file lock) read and write it: the first read of a process (a fresh store), the reads
//! after it, and a gate's read just after another process appended a report. Prints median
//! times; asserts nothing about speed.
//!
//!     cargo bench --bench checks

#[path = "common/timing.rs"]
mod timing;
use timing::median_of;

use chrono::{TimeZone, Utc};
use repo_console::adapters::files::checks::JsonlCheckStore;
use repo_console::domain::check::{CheckKey, CheckName, CheckReport, PromotionKey, RunUrl};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::repository::RepoId;
use repo_console::ports::CheckStore;

const REPOSITORIES: usize = 100;

fn repo(n: usize) -> String {
    format!("0199a1b2-0000-7000-8000-{n:012}")
}

fn report(repo: &str, version: u64, name: &str, passed: bool, minute: i64) -> CheckReport {
    CheckReport {
        key: CheckKey {
            repository_uuid: repo.to_owned(),
            environment: EnvironmentName::parse("staging").expect("a name"),
            version,
            name: CheckName::parse(name).expect("a name"),
        },
        repository_name: "base-os".into(),
        passed,
        url: Some(RunUrl::parse("https://ci.example.com/runs/12345").expect("a url")),
        reporter: "ci-staging".into(),
        at: Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap()
            + chrono::Duration::minutes(minute),
    }
}

/// `count` reports over [`REPOSITORIES`] repositories, 3 checks a version, each run twice.
fn history(count: usize) -> String {
    let mut text = String::new();
    for n in 0..count {
        let line = serde_json::json!({"line": "report"});
        let mut value = serde_json::to_value(report(
            &repo(n % REPOSITORIES),
            (n / (REPOSITORIES * 6)) as u64 + 1,
            ["smoke", "e2e", "lint"][n % 3],
            n % 2 == 1,
            n as i64,
        ))
        .expect("a report");
        value["line"] = line["line"].clone();
        text.push_str(&value.to_string());
        text.push('\n');
    }
    text
}

#[tokio::main]
async fn main() {
    for count in [1_000, 10_000, 100_000] {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("checks.jsonl");
        let text = history(count);
        std::fs::write(&path, &text).expect("the history");
        let store = JsonlCheckStore::new(&path);
        let one = RepoId::parse(&repo(7)).expect("a uuid");
        let page = median_of(10, async || store.latest(&one, None).await.expect("read")).await;
        let gate = median_of(10, async || {
            store.latest(&one, Some(1)).await.expect("read")
        })
        .await;
        let first = median_of(5, async || {
            JsonlCheckStore::new(&path)
                .latest(&one, Some(1))
                .await
                .expect("read")
        })
        .await;
        let other_process = JsonlCheckStore::new(&path);
        let mut samples = Vec::new();
        for minute in 0..10 {
            other_process
                .record(&report(&repo(7), 1, "e2e", true, 2_000_000 + minute))
                .await
                .expect("kept");
            let started = std::time::Instant::now();
            store.latest(&one, Some(1)).await.expect("read");
            samples.push(started.elapsed());
        }
        samples.sort();
        let after_append = samples[samples.len() / 2];
        let mut minute = 1_000_000;
        let record = median_of(5, async || {
            minute += 1;
            store
                .record(&report(&repo(7), 1, "smoke", true, minute))
                .await
                .expect("kept")
        })
        .await;
        let mut version = 1_000;
        let claim = median_of(5, async || {
            version += 1;
            let key = PromotionKey {
                repository_uuid: repo(7),
                environment: EnvironmentName::production(),
                version,
            };
            store.claim_promotion(&key).await.expect("claimed")
        })
        .await;
        println!(
            "checks.jsonl with {count} reports ({:.1} MiB):",
            text.len() as f64 / (1024.0 * 1024.0)
        );
        println!("  latest(a repository), the versions page      {page:?} (median of 10)");
        println!("  latest(a version), a deploy's gate           {gate:?} (median of 10)");
        println!("  latest(a version), a process's first read    {first:?} (median of 5)");
        println!("  latest(a version) after another's report     {after_append:?} (median of 10)");
        println!("  record(a report)                             {record:?} (median of 5)");
        println!("  claim_promotion                              {claim:?} (median of 5)");
    }
}
