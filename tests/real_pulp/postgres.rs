//! The PostgreSQL adapters on a real PostgreSQL: the audit sink (transactions, read side,
//! idempotent migrations), the cross-replica deploy lock (exclusion, release on drop and
//! on a lost connection), the diff store shared by the replicas, and the request store (the
//! contract of tests/common/request_contract.rs; two replicas appending at once: one wins).

use std::time::Duration;

use chrono::{DateTime, Utc};
use repo_console::adapters::postgres::{
    connect, PgAuditSink, PgDeployLock, PgDiffStore, PgRequestStore,
};
use repo_console::domain::deploy::{
    ApprovalTrail, AuditOutcome, DeployId, DeployKind, DeployRecord, FreezeOverride,
    ProductionChanged,
};
use repo_console::domain::diff::{ChangeKind, DiffKey, Evr, PackageChange, VersionDiff};
use repo_console::domain::identity::PersonName;
use repo_console::domain::ids::{ReleaseId, ReleaseName, ReleaseRef, RequestId};
use repo_console::domain::record_keys::Written;
use repo_console::domain::release::{
    MemberLine, MemberOutcome, ReleaseLine, ReleaseRecord, ServedSet,
};
use repo_console::domain::repository::{DistributionHref, PublicationHref, RepoId, VersionHref};
use repo_console::ports::{AuditSink, DeployLock, DiffStore, RequestStore};

use super::database::{required_database, TestDatabase};
use super::request_contract;

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
        environment: repo_console::domain::environment::EnvironmentName::production(),
        distribution: "base-os-prod".into(),
        publication: Some(PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/p/")),
        kind: DeployKind::Rollback,
        reason: Some("v4 broke the installer".into()),
        request: None,
        freeze_override: None,
        release: None,
        soak_override: None,
        schedule: None,
        checks_override: None,
        automation: None,
        outcome,
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_sink_keeps_each_line_and_reads_a_repository_newest_first() {
    let database = required_database();
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
    let mut json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let chain = json.as_object_mut().unwrap().remove("chain");
    assert!(chain.is_some(), "each line carries its hash");
    assert_eq!(
        json,
        serde_json::to_value(&lines[3]).unwrap(),
        "the JSON line is kept as the file sink writes it"
    );
}

/// A release line with every optional part and hostile text in each free field (quotes, a
/// release line's own opening, control and non-ASCII characters).
fn release_line(name: &str, id: &str, at: &str) -> ReleaseRecord {
    let hostile = "\"record\":\"release\",\"release\":{\"name\":\"other\"} \u{0}\t\u{202e}é";
    let member = |repository: &str, outcome, detail: Option<&str>| MemberLine {
        repository_name: format!("{repository} {hostile}"),
        repository_uuid: REPO.into(),
        deploy_id: Some(DeployId::new(format!("{id}-{repository}"))),
        previous_version: Some(u64::MAX - 1),
        target_version: u64::MAX,
        outcome,
        detail: detail.map(str::to_owned),
    };
    ReleaseRecord {
        record: ReleaseLine::Release,
        release: ReleaseRef {
            name: ReleaseName::parse(name).unwrap(),
            id: ReleaseId::new(id),
        },
        timestamp: DateTime::parse_from_rfc3339(at)
            .unwrap()
            .with_timezone(&Utc),
        operator: format!("alice {hostile}"),
        environment: repo_console::domain::environment::EnvironmentName::production(),
        kind: DeployKind::Rollback,
        reason: Some(hostile.into()),
        request: Some(ApprovalTrail {
            request_id: RequestId::parse("r-1").unwrap(),
            requester: PersonName::new("bob").unwrap(),
            approvers: vec![PersonName::new("carol").unwrap()],
        }),
        freeze_override: Some(FreezeOverride {
            window: hostile.into(),
            until: "2026-12-24T00:00:00Z".into(),
        }),
        members: vec![
            member("base-os", MemberOutcome::Moved, None),
            member("appstream", MemberOutcome::Restored, Some(hostile)),
            member("extras", MemberOutcome::Unchanged, Some("refused")),
            member("crb", MemberOutcome::Unknown, Some(hostile)),
        ],
        served: ServedSet::Unknown,
        error: Some(hostile.into()),
    }
}

/// Issue 43: a release line is kept as written (no key twice) and read back equal, and
/// another release's line, even one whose text names it, is never read as this one's.
#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn release_lines_are_read_back_as_written() {
    let database = required_database();
    let sink = PgAuditSink::new(connect(&database.url, None).await.unwrap());
    let older = release_line("rhel9", "p-1", "2026-11-22T10:00:00.123Z");
    let other = release_line("other", "p-2", "2026-11-22T10:01:00Z");
    let newer = release_line("rhel9", "p-3", "2026-11-22T10:02:00Z");
    for line in [&older, &other, &newer] {
        sink.record_release(line).await.unwrap();
    }
    let rhel9 = ReleaseName::parse("rhel9").unwrap();
    let read = sink.recent_releases(&rhel9, 10).await.unwrap();
    assert_eq!(read, vec![newer.clone(), older.clone()]);
    let other_name = ReleaseName::parse("other").unwrap();
    assert_eq!(
        sink.recent_releases(&other_name, 10).await.unwrap(),
        vec![other]
    );
    let line = database.query("SELECT line FROM release_audit WHERE release_id = 'p-1'");
    let written = Written::parse(line.as_bytes()).unwrap();
    assert_eq!(written.duplicate_keys(), Vec::<String>::new(), "{line}");
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn migrations_apply_once_and_a_restart_changes_nothing() {
    let database = required_database();
    let (first, second) =
        futures::join!(connect(&database.url, None), connect(&database.url, None));
    let applied = first.unwrap().applied_migrations().await.unwrap();
    assert_eq!(applied, second.unwrap().applied_migrations().await.unwrap());
    let again = connect(&database.url, None).await.unwrap();
    assert_eq!(again.applied_migrations().await.unwrap(), applied);
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .count();
    assert!(files >= 2, "deploy_audit, then version_diffs");
    assert_eq!(applied.len(), files, "each migration once");
    let count = database.query("SELECT count(*) FROM _sqlx_migrations");
    assert_eq!(count, files.to_string());
}

fn diff_of(n: usize) -> VersionDiff {
    VersionDiff {
        packages: (0..n)
            .map(|i| PackageChange {
                name: format!("package-{i}"),
                arch: "x86_64".into(),
                kind: ChangeKind::Added,
                old: vec![],
                new: vec![Evr::new(0, format!("1.{i}"), "1.el9")],
                security: false,
                kept: None,
            })
            .collect(),
        ..VersionDiff::default()
    }
}

fn diff_key(from: Option<u64>, to: u64) -> DiffKey {
    let version = |n: u64| {
        VersionHref::new(format!(
            "/pulp/api/v3/repositories/rpm/rpm/{REPO}/versions/{n}/"
        ))
    };
    (from.map(version), version(to))
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_diff_one_replica_stored_is_read_by_another_and_the_table_keeps_its_bound() {
    let database = required_database();
    let (first, second) =
        futures::join!(connect(&database.url, None), connect(&database.url, None));
    let (first, second) = (first.unwrap(), second.unwrap());
    assert_eq!(
        database.query("SELECT count(*) FROM _sqlx_migrations WHERE description = 'version diffs'"),
        "1",
        "the migration applied once"
    );
    let replica_a = PgDiffStore::new(first, 1 << 20);
    let replica_b = PgDiffStore::new(second, 1 << 20);
    assert!(replica_b
        .get(&diff_key(Some(1), 2))
        .await
        .unwrap()
        .is_none());
    replica_a
        .put(&diff_key(Some(1), 2), &diff_of(50))
        .await
        .unwrap();
    replica_a
        .put(&diff_key(None, 2), &diff_of(3))
        .await
        .unwrap();
    // Both replicas computed it at once: the second insert changes nothing.
    replica_b
        .put(&diff_key(Some(1), 2), &diff_of(50))
        .await
        .unwrap();
    let found = replica_b.get(&diff_key(Some(1), 2)).await.unwrap();
    assert!(found == Some(diff_of(50)), "replica B reads what A stored");
    let from_nothing = replica_b.get(&diff_key(None, 2)).await.unwrap();
    assert!(
        from_nothing == Some(diff_of(3)),
        "a diff from no version is its own key"
    );
    assert_eq!(database.query("SELECT count(*) FROM version_diffs"), "2");

    // A damaged row is a miss, not an error.
    database.query("UPDATE version_diffs SET body = 'garbage' WHERE from_href = ''");
    assert!(replica_a.get(&diff_key(None, 2)).await.unwrap().is_none());
    // ... and is stored again once computed again.
    replica_a
        .put(&diff_key(None, 2), &diff_of(3))
        .await
        .unwrap();
    let again = replica_b.get(&diff_key(None, 2)).await.unwrap();
    assert!(again == Some(diff_of(3)), "the damaged row was replaced");

    // Over the bound, the oldest rows go.
    let one: i64 = database
        .query("SELECT bytes FROM version_diffs WHERE from_href <> ''")
        .parse()
        .unwrap();
    let bounded = PgDiffStore::new(connect(&database.url, None).await.unwrap(), one as u64 * 3);
    for n in 10..14 {
        bounded
            .put(&diff_key(Some(n), n + 1), &diff_of(50))
            .await
            .unwrap();
    }
    let total: i64 = database
        .query("SELECT sum(bytes) FROM version_diffs")
        .parse()
        .unwrap();
    assert!(total <= one * 3, "{total} bytes kept, at most {}", one * 3);
    assert!(
        bounded
            .get(&diff_key(Some(13), 14))
            .await
            .unwrap()
            .is_some(),
        "the newest stays"
    );
    assert!(
        bounded.get(&diff_key(Some(1), 2)).await.unwrap().is_none(),
        "the oldest went"
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_lock_admits_one_holder_per_distribution_and_is_released_on_every_path() {
    let database = required_database();
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
    // Only this test's database: another test's migration holds an advisory lock too.
    database.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid() AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
    tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("released when the holder's connection is gone")
        .unwrap()
        .unwrap();
}

/// A request store on its own connection pool to `database` (as a replica has).
async fn request_store(database: &TestDatabase) -> std::sync::Arc<dyn RequestStore> {
    let db = connect(&database.url, None).await.unwrap();
    std::sync::Arc::new(PgRequestStore::new(db))
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn requests_are_kept_found_and_listed_newest_first() {
    let database = required_database();
    let store = request_store(&database).await;
    assert!(store.target().starts_with("postgres://127.0.0.1:"));
    request_contract::create_get_and_recent(store.as_ref()).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn closed_requests_are_removed_with_their_events() {
    let database = required_database();
    let store = request_store(&database).await;
    request_contract::remove_takes_only_the_named_requests(store.as_ref()).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_request_event_is_appended_compare_and_swap() {
    let database = required_database();
    let store = request_store(&database).await;
    request_contract::append_is_compare_and_swap(store.as_ref()).await;
    assert_eq!(
        database.query("SELECT string_agg(seq::text, ',' ORDER BY seq) FROM deploy_request_events"),
        "1,2",
        "1-based after the request"
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn what_one_replica_kept_another_reads_and_continues() {
    let database = required_database();
    let (first, second) = (
        request_store(&database).await,
        request_store(&database).await,
    );
    request_contract::another_store_reads_and_continues(first.as_ref(), second.as_ref()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL"]
async fn two_replicas_appending_after_the_same_events_at_once_one_wins() {
    let database = required_database();
    let replicas = [
        request_store(&database).await,
        request_store(&database).await,
    ];
    let rounds = 4;
    let winners =
        request_contract::one_of_many_concurrent_appenders_wins(&replicas, 24, rounds).await;
    assert_eq!(winners.len(), rounds);
    assert_eq!(
        database.query(
            "SELECT count(*) || ':' || max(seq) FROM deploy_request_events WHERE request_id = 'race'"
        ),
        format!("{rounds}:{rounds}"),
        "one row per round, seqs 1 to {rounds}"
    );
}

/// A check store on its own connection pool to `database` (as a replica has).
async fn check_store(
    database: &TestDatabase,
) -> std::sync::Arc<dyn repo_console::ports::CheckStore> {
    let db = connect(&database.url, None).await.unwrap();
    std::sync::Arc::new(repo_console::adapters::postgres::PgCheckStore::new(db))
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_latest_report_of_each_check_counts_and_every_report_is_kept() {
    let database = required_database();
    let store = check_store(&database).await;
    assert!(store.target().starts_with("postgres://127.0.0.1:"));
    super::check_contract::the_latest_report_of_each_check_counts(store.as_ref()).await;
    assert_eq!(database.query("SELECT count(*) FROM check_reports"), "7");
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_reports_of_a_range_are_read_in_the_order_made_in_postgres() {
    let database = required_database();
    let store = check_store(&database).await;
    super::check_contract::the_reports_of_a_range_are_read_in_the_order_made(store.as_ref()).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn only_old_superseded_reports_are_pruned_in_postgres() {
    let database = required_database();
    let store = check_store(&database).await;
    super::check_contract::only_old_superseded_reports_are_pruned(store.as_ref()).await;
    assert_eq!(database.query("SELECT count(*) FROM check_reports"), "3");
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_promotion_is_claimed_once_until_given_back() {
    let database = required_database();
    let store = check_store(&database).await;
    super::check_contract::a_promotion_is_claimed_once_until_given_back(store.as_ref()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL"]
async fn two_replicas_claiming_one_promotion_at_once_one_wins() {
    let database = required_database();
    let stores = [check_store(&database).await, check_store(&database).await];
    super::check_contract::one_of_many_concurrent_claimers_wins(&stores, 24).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn the_cve_index_one_replica_saved_is_loaded_by_another_and_a_damaged_one_is_missing() {
    use repo_console::adapters::postgres::PgCveIndex;
    use repo_console::domain::exposure::{CveId, CveIndex, IndexedAdvisory};
    use repo_console::ports::CveIndexStore;

    let database = required_database();
    let (first, second) =
        futures::join!(connect(&database.url, None), connect(&database.url, None));
    let (first, second) = (
        PgCveIndex::new(first.unwrap()),
        PgCveIndex::new(second.unwrap()),
    );
    assert_eq!(second.load().await.unwrap(), None, "nothing saved yet");
    let advisory = |n: u32, cve: &str| IndexedAdvisory {
        href: format!("/pulp/api/v3/content/rpm/advisories/{n}/"),
        id: format!("RHSA-2026:{n:04}"),
        created: "2026-11-20T08:00:00Z".parse::<DateTime<Utc>>().unwrap(),
        cves: [CveId::parse(cve).unwrap()].into(),
    };
    let mut index = CveIndex::default();
    index.add_page(vec![advisory(1, "CVE-2026-1111")], None, true);
    first.save(&index).await.unwrap();
    assert_eq!(second.load().await.unwrap().as_ref(), Some(&index));
    index.add_page(vec![advisory(2, "CVE-2026-2222")], index.floor(), true);
    second.save(&index).await.unwrap();
    let loaded = first.load().await.unwrap().unwrap();
    assert_eq!(loaded.advisories(), 2, "replaced whole, one row");
    assert_eq!(database.query("SELECT count(*) FROM cve_index"), "1");
    database.query("UPDATE cve_index SET body = '{not json'");
    assert_eq!(first.load().await.unwrap(), None, "damaged: built again");
}
