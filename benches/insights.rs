//! Delivery insights (issue 50) at size, over the in-memory upstream (the console's own cost,
//! not Pulp's): 100 repositories, 50 versions each created over 90 days, each deployed to
//! staging then to production (10,000 deploys in the audit file), one production deploy in
//! ten rolled back hours later, and two checks reported on each (20,000 reports in
//! `checks.jsonl`, the check pass rate's read). Prints, never asserts:
//!
//! - the `/insights` page over 90 days: cold (a console that starts: the whole audit folded,
//!   each repository's creation times asked once), then warm (median of 10: nothing new to
//!   fold), the target being 300 ms warm;
//! - the same view as JSON (`GET /api/v1/insights?days=90`), warm;
//! - one repository's view (`repository=<name>`), warm (one upstream read: its name).
//!
//!     cargo bench --bench insights

#[path = "common/timing.rs"]
mod timing;

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use chrono::{DateTime, TimeZone, Utc};
use http_body_util::BodyExt;
use tower::ServiceExt;

use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::files::checks::JsonlCheckStore;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::memory::{FixedClock, InMemoryPulp, MemoryOptions};
use repo_console::adapters::web;
use repo_console::app::AppState;
use repo_console::domain::check::{CheckKey, CheckName, CheckReport};
use repo_console::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord};
use repo_console::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};
use repo_console::domain::repository::RepoVerification;

use timing::median_of;

const REPOSITORIES: usize = 100;
const VERSIONS: usize = 50;
const DAYS: i64 = 90;
const SAMPLES: usize = 10;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 0, 0, 0).unwrap()
}

fn path() -> EnvironmentPath {
    let environment = |name: &str, pattern: &str| Environment {
        name: EnvironmentName::parse(name).expect("a name"),
        naming: DistributionNaming::new(Some(NamePattern::parse(pattern).expect("a pattern")), []),
        requires_previous: false,
    };
    EnvironmentPath::new(vec![
        environment("staging", "{repo}-staging"),
        environment("production", "{repo}-prod"),
    ])
    .expect("a path")
}

#[allow(clippy::too_many_arguments)]
fn line(
    n: usize,
    uuid: &str,
    name: &str,
    environment: &str,
    kind: DeployKind,
    from: Option<u64>,
    to: u64,
    at: DateTime<Utc>,
) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(format!("bench-{n}")),
        timestamp: at,
        operator: "bench".into(),
        repository_uuid: uuid.to_owned(),
        repository_name: name.to_owned(),
        previous_version: from,
        target_version: to,
        environment: EnvironmentName::parse(environment).expect("a name"),
        distribution: format!("{name}-{environment}"),
        publication: None,
        kind,
        reason: None,
        request: None,
        freeze_override: None,
        release: None,
        soak_override: None,
        schedule: None,
        checks_override: None,
        automation: None,
        outcome: AuditOutcome::Deployed,
    }
}

/// The repositories and versions in `pulp`, and the audit's lines, oldest first.
fn generate(pulp: &InMemoryPulp) -> Vec<DeployRecord> {
    let start = now() - chrono::Duration::days(DAYS);
    let step = chrono::Duration::days(DAYS).num_seconds() / (VERSIONS as i64 + 1);
    let mut lines = Vec::new();
    for r in 0..REPOSITORIES {
        let name = format!("bench-{r:03}");
        let id = pulp.add_repo_at(&name, RepoVerification::default(), start);
        let uuid = id.to_string();
        let mut previous = None;
        for v in 0..VERSIONS {
            let created =
                start + chrono::Duration::seconds(step * v as i64 + (r as i64 * 97) % 3_600);
            let number = pulp
                .add_version_at(&id, &[&format!("{name}-pkg-{v}")], &[], created)
                .get();
            let staged = created + chrono::Duration::hours(1 + (v as i64 % 7));
            let produced = staged + chrono::Duration::hours(24 + (r as i64 % 48));
            let n = lines.len();
            lines.push(line(
                n,
                &uuid,
                &name,
                "staging",
                DeployKind::Deploy,
                previous,
                number,
                staged,
            ));
            lines.push(line(
                n + 1,
                &uuid,
                &name,
                "production",
                DeployKind::Deploy,
                previous,
                number,
                produced,
            ));
            if (r + v) % 10 == 0 {
                if let Some(back) = previous {
                    let undone = produced + chrono::Duration::hours(2 + (v as i64 % 90));
                    lines.push(line(
                        n + 2,
                        &uuid,
                        &name,
                        "production",
                        DeployKind::Rollback,
                        Some(number),
                        back,
                        undone,
                    ));
                }
            }
            previous = Some(number);
        }
    }
    lines.retain(|l| l.timestamp < now());
    lines.sort_by_key(|l| l.timestamp);
    lines
}

/// Two checks reported on each deploy's version in its environment, an hour after it
/// arrived, as `checks.jsonl` lines; one report in seven failed.
fn check_lines(lines: &[DeployRecord]) -> String {
    let mut text = String::new();
    for (n, line) in lines
        .iter()
        .filter(|l| l.kind == DeployKind::Deploy)
        .enumerate()
    {
        for name in ["smoke", "e2e"] {
            let report = CheckReport {
                key: CheckKey {
                    repository_uuid: line.repository_uuid.clone(),
                    environment: line.environment.clone(),
                    version: line.target_version,
                    name: CheckName::parse(name).expect("a name"),
                },
                repository_name: line.repository_name.clone(),
                passed: n % 7 != 0,
                url: None,
                reporter: "bench".into(),
                at: line.timestamp + chrono::Duration::hours(1),
            };
            let mut json = serde_json::to_value(&report).expect("a report");
            json["line"] = "report".into();
            text.push_str(&json.to_string());
            text.push('\n');
        }
    }
    text
}

/// The body of `uri`'s answer.
async fn body(state: &AppState, uri: &str) -> Vec<u8> {
    let reply = web::router(state.clone())
        .oneshot(
            axum::http::Request::get(uri)
                .body(Body::empty())
                .expect("a request"),
        )
        .await
        .expect("an answer");
    reply
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes()
        .to_vec()
}

async fn get(state: &AppState, uri: &str) -> (u16, usize) {
    let reply = web::router(state.clone())
        .oneshot(
            axum::http::Request::get(uri)
                .body(Body::empty())
                .expect("a request"),
        )
        .await
        .expect("an answer");
    let status = reply.status().as_u16();
    let body = reply
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    (status, body.len())
}

fn ms(took: Duration) -> String {
    format!("{:.1} ms", took.as_secs_f64() * 1000.0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("insights benchmark: run it with `cargo bench --bench insights` (see its header)");
        return;
    }
    let pulp = Arc::new(InMemoryPulp::new(MemoryOptions::default()));
    let lines = generate(&pulp);
    let deploys = lines
        .iter()
        .filter(|l| l.kind == DeployKind::Deploy)
        .count();
    let rollbacks = lines.len() - deploys;
    let dir = std::env::temp_dir().join(format!(
        "repo-console-bench-insights-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a directory");
    let audit = dir.join("audit.jsonl");
    let mut text = String::new();
    for line in &lines {
        text.push_str(&serde_json::to_string(line).expect("a line"));
        text.push('\n');
    }
    std::fs::File::create(&audit)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .expect("the audit written");
    println!(
        "insights: {REPOSITORIES} repositories, {deploys} deploys and {rollbacks} rollbacks over {DAYS} days ({:.1} MiB of audit)",
        text.len() as f64 / 1_048_576.0
    );
    let checks = dir.join("checks.jsonl");
    let reports = check_lines(&lines);
    std::fs::write(&checks, &reports).expect("the checks written");
    println!(
        "  and {} check reports ({:.1} MiB)",
        reports.lines().count(),
        reports.len() as f64 / 1_048_576.0
    );
    let state = AppState::builder(
        pulp.clone(),
        pulp.clone(),
        Arc::new(JsonlAuditSink::new(&audit)),
        Arc::new(FixedClock(now())),
        Arc::new(FixedOperator::default()),
    )
    .environments(path())
    .checks(Arc::new(JsonlCheckStore::new(&checks)))
    .build();

    let page = "/insights?days=90";
    let started = Instant::now();
    let (status, size) = get(&state, page).await;
    assert_eq!(status, 200, "the page answers");
    println!(
        "  {page}: cold {} ({:.0} KiB; {} upstream calls)",
        ms(started.elapsed()),
        size as f64 / 1024.0,
        pulp.calls().len()
    );
    let calls = pulp.calls().len();
    let warm = median_of(SAMPLES, async || get(&state, page).await).await;
    println!(
        "  {page}: warm {} (median of {SAMPLES}; {} upstream calls)",
        ms(warm),
        pulp.calls().len() - calls
    );
    let api = "/api/v1/insights?days=90";
    let json: serde_json::Value = serde_json::from_slice(&body(&state, api).await).expect("JSON");
    for e in json["environments"].as_array().expect("environments") {
        println!(
            "    {}: {} deploys, check pass rate {}",
            e["environment"], e["deploys"], e["check_pass_rate"]
        );
    }
    let warm = median_of(SAMPLES, async || get(&state, api).await).await;
    println!("  {api}: warm {}", ms(warm));
    let one = "/insights?days=90&repository=bench-042";
    assert_eq!(get(&state, one).await.0, 200, "one repository's page");
    let warm = median_of(SAMPLES, async || get(&state, one).await).await;
    println!("  {one}: warm {}", ms(warm));
    std::fs::remove_dir_all(&dir).ok();
}
