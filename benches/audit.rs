//! Reading the audit log back, as every versions page and confirm step does (to judge
//! drift) and the dashboard (for its production cells): a JSON Lines file of 8 MiB and
//! more, written by deploys of many repositories. Prints the time of `recent` for a
//! repository with no line (the whole window is searched), one with lines near the end,
//! and `recent_of` for a dashboard page of 100 repositories; asserts nothing about speed.
//!
//!     cargo bench --bench audit

use std::time::Duration;

#[path = "common/timing.rs"]
mod timing;

use chrono::{TimeZone, Utc};
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord};
use repo_console::domain::repository::RepoId;
use repo_console::ports::AuditSink;

const REPOSITORIES: u64 = 500;
const LINES: u64 = 40_000;

fn repo(n: u64) -> RepoId {
    RepoId::parse(&format!("01a202de-0000-7000-8000-{n:012x}")).expect("a uuid")
}

fn line(n: u64) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(format!("{n:032x}")),
        timestamp: Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap(),
        operator: "alice".into(),
        repository_uuid: repo(n % REPOSITORIES).as_str().to_owned(),
        repository_name: format!("repo-{}", n % REPOSITORIES),
        previous_version: Some(n),
        target_version: n + 1,
        environment: repo_console::domain::environment::EnvironmentName::production(),
        distribution: format!("repo-{}-prod", n % REPOSITORIES),
        publication: None,
        kind: DeployKind::Deploy,
        reason: None,
        request: None,
        freeze_override: None,
        release: None,
        soak_override: None,
        schedule: None,
        checks_override: None,
        automation: None,
        outcome: AuditOutcome::Started,
    }
}

async fn time<T>(run: impl AsyncFnMut() -> T) -> Duration {
    timing::median_of(30, run).await
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("audit.jsonl");
    let mut text = Vec::new();
    for n in 0..LINES {
        text.extend(serde_json::to_vec(&line(n)).expect("JSON"));
        text.push(b'\n');
    }
    std::fs::write(&path, &text).expect("the log");
    let sink = JsonlAuditSink::new(&path);
    println!(
        "audit log of {} lines ({:.1} MiB) of {REPOSITORIES} repositories:",
        LINES,
        text.len() as f64 / (1024.0 * 1024.0)
    );
    let never = repo(REPOSITORIES + 1);
    let never_time = time(async || sink.recent(&never, 100).await.expect("read")).await;
    println!("  recent(100) of a repository never deployed  {never_time:?} (median of 30)");
    let busy = repo(7);
    let found = sink.recent(&busy, 100).await.expect("read").len();
    let busy_time = time(async || sink.recent(&busy, 100).await.expect("read")).await;
    println!("  recent(100) of a repository with lines      {busy_time:?} ({found} lines)");
    let page: Vec<RepoId> = (0..100).map(|n| repo(n * 5 + 2000)).collect();
    let page_time = time(async || sink.recent_of(&page, 100).await.expect("read")).await;
    println!("  recent_of(100 repositories, none deployed)  {page_time:?}");
}
