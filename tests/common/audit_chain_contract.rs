//! The audit chain's contract, run against every sink that reads back: in memory and the JSON
//! Lines file (tests/api/audit_chain.rs), PostgreSQL (tests/real_pulp/postgres.rs). Each
//! tampering an auditor fears (one field changed, one line removed, two lines swapped) is
//! reported at its line, with its time, and nothing else is.

#![allow(dead_code)] // each binary uses its own part

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use repo_console::domain::audit_chain::verify::BreakKind;
use repo_console::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::repository::PublicationHref;
use repo_console::ports::audit_chain::{ChainAnchors, ChainReport};
use repo_console::ports::AuditSink;

/// How many lines each case writes.
pub const LINES: usize = 6;

/// What a test does to the stored lines behind the sink's back, as someone with write access
/// to the file or the table would. Lines are 1-based, as the report names them.
#[async_trait]
pub trait Tamper: Send + Sync {
    /// Changes the operator written in line `n` (`alice` to `mallory`), its hash left as is.
    async fn change_operator(&self, n: usize);
    /// Removes line `n`.
    async fn remove(&self, n: usize);
    /// Swaps lines `n` and `n + 1`.
    async fn swap(&self, n: usize);
}

/// The time of line `n` (1-based) as [`write_lines`] writes it.
pub fn time_of(n: usize) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-20T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + chrono::Duration::minutes(n as i64)
}

fn record(n: usize) -> DeployRecord {
    let deploy = n.div_ceil(2);
    DeployRecord {
        deploy_id: DeployId::new(format!("rcev-{deploy}")),
        timestamp: time_of(n),
        operator: "alice".into(),
        repository_uuid: "0199a1b2-0000-7000-8000-0000000000e7".into(),
        repository_name: "rhel9-baseos".into(),
        previous_version: Some(deploy as u64),
        target_version: deploy as u64 + 1,
        environment: EnvironmentName::production(),
        distribution: "rhel9-baseos-prod".into(),
        publication: Some(PublicationHref::new(
            "/pulp/api/v3/publications/rpm/rpm/e7/",
        )),
        kind: DeployKind::Deploy,
        reason: None,
        request: None,
        freeze_override: None,
        release: None,
        soak_override: None,
        schedule: None,
        checks_override: None,
        automation: None,
        outcome: if n % 2 == 1 {
            AuditOutcome::Started
        } else {
            AuditOutcome::Deployed
        },
    }
}

/// Writes [`LINES`] deploy lines (a started line and an outcome per deploy), line `n` at
/// [`time_of`]`(n)`.
pub async fn write_lines(sink: &dyn AuditSink) {
    for n in 1..=LINES {
        sink.record(&record(n)).await.expect("the line is written");
    }
}

/// Every report of the sink, which must all be intact.
pub async fn all_intact(sink: &dyn AuditSink) -> Vec<ChainReport> {
    let reports = sink.verify_chain(&ChainAnchors::new()).await.unwrap();
    assert!(reports.iter().all(ChainReport::is_intact), "{reports:?}");
    reports
}

/// The one broken report: its line, its time and its kind, and the others intact.
async fn the_one_break(sink: &dyn AuditSink) -> (u64, Option<DateTime<Utc>>, BreakKind, String) {
    let reports = sink.verify_chain(&ChainAnchors::new()).await.unwrap();
    let broken: Vec<&ChainReport> = reports.iter().filter(|r| !r.is_intact()).collect();
    assert_eq!(
        broken.len(),
        1,
        "one log broken, the others intact: {reports:?}"
    );
    let said = broken[0].to_string();
    let found = broken[0].verdict.clone().unwrap_err();
    assert!(said.starts_with(&format!("line {} ", found.line)), "{said}");
    (found.line, found.time, found.kind, said)
}

pub async fn a_fresh_log_is_intact_and_names_its_head(sink: &dyn AuditSink) {
    write_lines(sink).await;
    let reports = all_intact(sink).await;
    let chained: u64 = reports
        .iter()
        .map(|r| r.verdict.as_ref().unwrap().chained)
        .sum();
    assert_eq!(chained, LINES as u64);
    let head = reports
        .iter()
        .find_map(|r| r.verdict.as_ref().unwrap().head.clone())
        .expect("a head");
    assert_eq!(head.line, LINES as u64);
}

pub async fn a_changed_field_is_reported_at_its_line(sink: &dyn AuditSink, tamper: &dyn Tamper) {
    write_lines(sink).await;
    all_intact(sink).await;
    tamper.change_operator(3).await;
    let (line, time, kind, said) = the_one_break(sink).await;
    assert_eq!(
        (line, time, kind),
        (3, Some(time_of(3)), BreakKind::Changed),
        "{said}"
    );
}

pub async fn a_removed_line_is_reported_at_its_place(sink: &dyn AuditSink, tamper: &dyn Tamper) {
    write_lines(sink).await;
    tamper.remove(4).await;
    let (line, time, kind, said) = the_one_break(sink).await;
    // Line 4 is now what was line 5: it does not follow line 3.
    assert_eq!(
        (line, time, kind),
        (4, Some(time_of(5)), BreakKind::NotFollowing),
        "{said}"
    );
}

pub async fn two_swapped_lines_are_reported_at_the_first(
    sink: &dyn AuditSink,
    tamper: &dyn Tamper,
) {
    write_lines(sink).await;
    tamper.swap(2).await;
    let (line, time, kind, said) = the_one_break(sink).await;
    assert_eq!(
        (line, time, kind),
        (2, Some(time_of(3)), BreakKind::NotFollowing),
        "{said}"
    );
}

/// Two writers (two replicas, two processes) appending at once: every line follows the one
/// before it; no two follow the same line.
pub async fn two_writers_at_once_keep_one_chain(one: &dyn AuditSink, other: &dyn AuditSink) {
    futures::join!(write_ten(one, 1), write_ten(other, 2));
    let reports = all_intact(one).await;
    let chained: u64 = reports
        .iter()
        .map(|r| r.verdict.as_ref().unwrap().chained)
        .sum();
    assert_eq!(chained, 20);
}

async fn write_ten(sink: &dyn AuditSink, writer: usize) {
    for n in 1..=10 {
        let mut line = record(n);
        line.deploy_id = DeployId::new(format!("rcev-w{writer}-{n}"));
        sink.record(&line).await.expect("the line is written");
    }
}
