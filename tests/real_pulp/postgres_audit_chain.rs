//! The audit chain on a real PostgreSQL (the contract of tests/common/audit_chain_contract.rs):
//! a row changed, removed or swapped with SQL, as someone with write access to the table
//! would, is reported at its line; two replicas writing at once never fork the chain.

use async_trait::async_trait;
use repo_console::adapters::postgres::{connect, PgAuditSink};

use super::audit_chain_contract::{self as contract, Tamper};
use super::database::{required_database, TestDatabase};

/// Tampers with `deploy_audit` through psql, by the rows' places in id order.
struct SqlTamper(TestDatabase);

impl SqlTamper {
    /// The id of the `n`th row (1-based).
    fn id_of(&self, n: usize) -> i64 {
        let id = self.0.query(&format!(
            "SELECT id FROM deploy_audit ORDER BY id OFFSET {} LIMIT 1",
            n - 1
        ));
        id.trim().parse().unwrap()
    }
}

#[async_trait]
impl Tamper for SqlTamper {
    async fn change_operator(&self, n: usize) {
        let id = self.id_of(n);
        self.0.query(&format!(
            "UPDATE deploy_audit SET operator = 'mallory', \
             line = replace(line, '\"alice\"', '\"mallory\"') WHERE id = {id}"
        ));
    }
    async fn remove(&self, n: usize) {
        let id = self.id_of(n);
        self.0
            .query(&format!("DELETE FROM deploy_audit WHERE id = {id}"));
    }
    async fn swap(&self, n: usize) {
        let (a, b) = (self.id_of(n), self.id_of(n + 1));
        self.0.query(&format!(
            "UPDATE deploy_audit SET line = CASE id WHEN {a} THEN \
             (SELECT line FROM deploy_audit WHERE id = {b}) ELSE \
             (SELECT line FROM deploy_audit WHERE id = {a}) END WHERE id IN ({a}, {b})"
        ));
    }
}

async fn sink_and_tamper() -> (PgAuditSink, SqlTamper) {
    let database = required_database();
    let db = connect(&database.url, None).await.unwrap();
    (PgAuditSink::new(db), SqlTamper(database))
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_fresh_table_is_intact_and_names_its_head() {
    let (sink, _database) = sink_and_tamper().await;
    contract::a_fresh_log_is_intact_and_names_its_head(&sink).await;
    let reports = contract::all_intact(&sink).await;
    let logs: Vec<&str> = reports.iter().map(|r| r.log.as_str()).collect();
    assert_eq!(logs, ["deploy_audit", "release_audit"]);
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_changed_field_is_reported_at_its_row() {
    let (sink, tamper) = sink_and_tamper().await;
    contract::a_changed_field_is_reported_at_its_line(&sink, &tamper).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_removed_row_is_reported_at_its_place() {
    let (sink, tamper) = sink_and_tamper().await;
    contract::a_removed_line_is_reported_at_its_place(&sink, &tamper).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn two_swapped_rows_are_reported_at_the_first() {
    let (sink, tamper) = sink_and_tamper().await;
    contract::two_swapped_lines_are_reported_at_the_first(&sink, &tamper).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL"]
async fn two_replicas_writing_at_once_never_fork_the_chain() {
    let database = required_database();
    let one = PgAuditSink::new(connect(&database.url, None).await.unwrap());
    let other = PgAuditSink::new(connect(&database.url, None).await.unwrap());
    contract::two_writers_at_once_keep_one_chain(&one, &other).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn rows_written_before_the_chain_are_its_start() {
    let (sink, tamper) = sink_and_tamper().await;
    tamper.0.query(
        "INSERT INTO deploy_audit (deploy_id, recorded_at, operator, repository_uuid, \
         repository_name, target_version, distribution, outcome, line) VALUES ('old', now(), \
         'alice', 'r', 'n', 1, 'd', 'deployed', '{\"deploy_id\":\"old\"}')",
    );
    contract::write_lines(&sink).await;
    let reports = contract::all_intact(&sink).await;
    let summary = reports[0].verdict.clone().unwrap();
    assert_eq!(
        (summary.before_chain, summary.chained),
        (1, contract::LINES as u64)
    );
}

/// A column a row copies from its line, changed with SQL and its line left intact (what a
/// reader filtering by that column would then be told): reported at that row's line, with
/// the column named, and nothing else.
#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_column_changed_behind_its_intact_line_is_reported_at_its_row() {
    use chrono::SecondsFormat;
    use repo_console::domain::audit_chain::verify::BreakKind;
    use repo_console::ports::audit_chain::ChainAnchors;
    use repo_console::ports::AuditSink;

    let cases = [
        (3, "operator = 'mallory'", &["operator"][..]),
        (
            4,
            "outcome = 'failed', production_changed = 'no'",
            &["outcome", "production_changed"],
        ),
        (
            5,
            "recorded_at = recorded_at - interval '1 day'",
            &["recorded_at"],
        ),
        (2, "deploy_id = 'rcev-other'", &["deploy_id"]),
    ];
    for (n, change, columns) in cases {
        let (sink, tamper) = sink_and_tamper().await;
        contract::write_lines(&sink).await;
        contract::all_intact(&sink).await;
        let id = tamper.id_of(n);
        tamper
            .0
            .query(&format!("UPDATE deploy_audit SET {change} WHERE id = {id}"));
        let reports = sink.verify_chain(&ChainAnchors::new()).await.unwrap();
        let broken: Vec<_> = reports.iter().filter(|r| !r.is_intact()).collect();
        assert_eq!(broken.len(), 1, "{change}: one table broken: {reports:?}");
        assert_eq!(broken[0].log, "deploy_audit");
        let found = broken[0].verdict.clone().unwrap_err();
        assert_eq!(
            (found.line, found.time, found.kind),
            (
                n as u64,
                Some(contract::time_of(n)),
                BreakKind::ColumnsChanged {
                    columns: columns.iter().map(ToString::to_string).collect()
                }
            ),
            "{change}: {}",
            broken[0]
        );
        let said = broken[0].to_string();
        let at = contract::time_of(n).to_rfc3339_opts(SecondsFormat::Secs, true);
        assert!(
            said.contains(&format!("line {n} ({at})")) && said.contains(columns[0]),
            "{said}"
        );
    }
}
