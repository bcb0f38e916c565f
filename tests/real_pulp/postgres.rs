//! The PostgreSQL adapters on a real PostgreSQL: the audit sink (transactions, read side,
//! idempotent migrations) and the cross-replica deploy lock (exclusion, release on drop and
//! on a lost connection).

use std::time::Duration;

use chrono::{DateTime, Utc};
use repo_console::adapters::postgres::{connect, PgAuditSink, PgDeployLock};
use repo_console::domain::{
    AuditOutcome, DeployId, DeployKind, DeployRecord, DistributionHref, ProductionChanged,
    PublicationHref, RepoId,
};
use repo_console::ports::{AuditSink, DeployLock};

use super::database::database_or_skip;

const REPO: &str = "0199a1b2-0000-7000-8000-00000000000a";

fn record(id: &str, at: &str, outcome: AuditOutcome) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(id),
        timestamp: DateTime::parse_from_rfc3339(at)
            .unwrap()
            .with_timezone(&Utc),
        operator: "alice".into(),
        repository_uuid: REPO.into(),
        repository_name: "base-os".into(),
        previous_version: Some(2),
        target_version: 4,
        distribution: "base-os-prod".into(),
        publication: Some(PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/p/")),
        kind: DeployKind::Rollback,
        reason: Some("v4 broke the installer".into()),
        outcome,
    }
}

#[tokio::test]
async fn the_sink_keeps_each_line_and_reads_a_repository_newest_first() {
    let Some(database) = database_or_skip("postgres audit sink") else {
        return;
    };
    let db = connect(&database.url, None).await.unwrap();
    let sink = PgAuditSink::new(db);
    assert!(sink.target().starts_with("postgres://127.0.0.1:"));
    sink.check_writable().await.unwrap();
    let failed = AuditOutcome::Failed {
        production_changed: ProductionChanged::Unknown,
        error: "lost".into(),
    };
    let lines = [
        record("d1", "2026-11-22T10:00:00Z", AuditOutcome::Started),
        record("d1", "2026-11-22T10:00:01Z", AuditOutcome::Deployed),
        record("d2", "2026-11-22T10:05:00Z", AuditOutcome::Started),
        record("d2", "2026-11-22T10:05:09Z", failed),
    ];
    for line in &lines {
        sink.record(line).await.unwrap();
    }
    let duplicate = sink
        .record(&lines[0])
        .await
        .expect_err("one started line per deploy");
    assert!(duplicate.reason.contains("deploy_audit"), "{duplicate}");
    let recent = sink.recent(&RepoId::parse(REPO).unwrap(), 3).await.unwrap();
    let expected: Vec<_> = lines.iter().rev().take(3).cloned().collect();
    assert_eq!(recent, expected);
    let json = database
        .query("SELECT line FROM deploy_audit WHERE deploy_id = 'd2' AND outcome = 'failed'");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        json,
        serde_json::to_value(&lines[3]).unwrap(),
        "the JSON line is kept as the file sink writes it"
    );
}

#[tokio::test]
async fn migrations_apply_once_and_a_restart_changes_nothing() {
    let Some(database) = database_or_skip("postgres migrations") else {
        return;
    };
    let (first, second) =
        futures::join!(connect(&database.url, None), connect(&database.url, None));
    let applied = first.unwrap().applied_migrations().await.unwrap();
    assert_eq!(applied, second.unwrap().applied_migrations().await.unwrap());
    let again = connect(&database.url, None).await.unwrap();
    assert_eq!(again.applied_migrations().await.unwrap(), applied);
    assert_eq!(applied.len(), 1);
    assert_eq!(database.query("SELECT count(*) FROM _sqlx_migrations"), "1");
}

#[tokio::test]
async fn the_lock_admits_one_holder_per_distribution_and_is_released_on_every_path() {
    let Some(database) = database_or_skip("postgres deploy lock") else {
        return;
    };
    let replica_a = PgDeployLock::new(connect(&database.url, None).await.unwrap());
    let replica_b = PgDeployLock::new(connect(&database.url, None).await.unwrap());
    let prod = DistributionHref::new("/pulp/api/v3/distributions/rpm/rpm/prod/");
    let other = DistributionHref::new("/pulp/api/v3/distributions/rpm/rpm/other/");

    let turn = replica_a.acquire(&prod).await.unwrap();
    let _other = tokio::time::timeout(Duration::from_secs(5), replica_b.acquire(&other))
        .await
        .expect("another distribution is not held")
        .unwrap();
    let waiting = tokio::spawn(async move { replica_b.acquire(&prod).await.map(|_| ()) });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !waiting.is_finished(),
        "the second replica waits for the first"
    );
    drop(turn);
    tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("released when the turn is dropped")
        .unwrap()
        .unwrap();

    // A holder whose connection is cut (a replica killed): PostgreSQL releases its lock.
    let prod = DistributionHref::new("/pulp/api/v3/distributions/rpm/rpm/prod/");
    let _held = replica_a.acquire(&prod).await.unwrap();
    let replica_c = PgDeployLock::new(connect(&database.url, None).await.unwrap());
    let waiting = tokio::spawn(async move { replica_c.acquire(&prod).await.map(|_| ()) });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!waiting.is_finished());
    database.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()");
    tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("released when the holder's connection is gone")
        .unwrap()
        .unwrap();
}
