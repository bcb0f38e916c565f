//! Checks against the real Pulp (issue 39), on rc-checks (v1..v3, a publication of each;
//! rc-checks-staging and rc-checks-prod serve v1 between tests; a test points staging at the
//! version it reports, as a deploy there would): a passing check on staging
//! promotes the version to production by itself (Pulp serves it, the audit says
//! `automation`); a failed check refuses a manual promotion (409 checks_missing, Pulp
//! unchanged); a check on a version older than production serves triggers nothing; a check on a
//! version staging never served is refused (409 not_served) and Pulp is untouched. Then two
//! consoles wired as replicas of one PostgreSQL (audit, deploy lock, requests and checks in
//! it, each its own pool) receiving the same report at once: one promotion.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::postgres::{
    connect, PgAuditSink, PgCheckStore, PgDeployLock, PgRequestStore,
};
use repo_console::domain::check::CheckName;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::PersonName;
use repo_console::domain::policy::checks::CheckPolicy;
use repo_console::domain::policy::{Allowed, Policy};
use serde_json::{json, Value};

use super::console::{over_upstream, Console, Reply};
use super::database::{required_database, TestDatabase};
use super::seeded::SeededProduction;
use super::support::{exclusive, required_pulp, staging_then_production, TestPulp};

const REPO: &str = "rc-checks";
const REPLICATED: &str = "rc-checks-replicas";
const CI: &str = "ci-staging-token-real-pulp-39";
const DEPLOYER: &str = "deployer-token-real-pulp-39";

/// Production requires `smoke` passed on staging and, with `auto`, takes a version by itself
/// acting as user:promoter.
fn policy(auto: bool) -> Policy {
    let production = EnvironmentName::production();
    let promoting = if auto {
        BTreeSet::from([production.clone()])
    } else {
        BTreeSet::new()
    };
    Policy::new(BTreeMap::new(), Allowed::Everyone).with_checks(CheckPolicy::new(
        BTreeMap::from([(production, vec![CheckName::parse("smoke").expect("a name")])]),
        promoting,
        Some(PersonName::new("promoter").expect("a name")),
    ))
}

fn tokens() -> BearerTokens {
    BearerTokens::new(
        vec![
            super::tokens::token("ci-staging", CI, &[], &["check:staging"]),
            super::tokens::token("deployer", DEPLOYER, &[], &["deploy:*"]),
        ],
        None,
        Arc::new(SystemClock),
    )
}

async fn console(pulp: &TestPulp, auto: bool) -> Console {
    over_upstream(Arc::new(pulp.client()), 25)
        .configure(move |state| {
            state
                .environments(staging_then_production())
                .policy(policy(auto))
                .api_callers(Arc::new(tokens()))
        })
        .spawn()
        .await
}

async fn call(console: &Console, token: &str, method: &str, path: &str, body: &str) -> Reply {
    let bearer = format!("Bearer {token}");
    let headers = [
        ("authorization", bearer.as_str()),
        ("content-type", "application/json"),
    ];
    console.client.send(method, path, &headers, body).await
}

async fn report(console: &Console, repo: &str, version: u64, passed: bool) -> Reply {
    let body = format!(
        r#"{{"repository": "{repo}", "environment": "staging", "version": {version}, "name": "smoke", "passed": {passed}, "url": "https://ci.example.com/{repo}/{version}"}}"#
    );
    call(console, CI, "POST", "/api/v1/checks", &body).await
}

/// `<repo>-staging` pointed at the seeded publication of version `n` with Pulp's API (as an
/// operator would, or a deploy to staging), so that staging serves it; put back on v1 when
/// dropped (also when a test fails half-way).
struct Staged<'a> {
    production: &'a SeededProduction,
    dist: String,
}

impl<'a> Staged<'a> {
    fn at(production: &'a SeededProduction, n: usize) -> Self {
        let name = format!("{}-staging", production.name);
        let dist = production
            .pulp
            .href_named("distributions/rpm/rpm/", &name)
            .unwrap_or_else(|| panic!("no distribution {name}: run scripts/pulp/seed.sh"));
        let staged = Self { production, dist };
        staged.point(n);
        staged
    }

    fn point(&self, n: usize) {
        let publication = &self.production.seeded[n - 1];
        self.production.pulp.raw_ok(
            "PATCH",
            &self.dist,
            Some(&json!({ "publication": publication })),
        );
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        self.point(1);
    }
}

fn json(reply: &Reply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_passing_check_on_staging_promotes_to_production_by_itself() {
    let pulp = required_pulp();
    let _repo = exclusive(REPO).await;
    let production = SeededProduction::at_v1(pulp, REPO);
    let _staged = Staged::at(&production, 3);
    let console = console(&production.pulp, true).await;
    let reply = report(&console, REPO, 3, true).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let promotion = json(&reply)["promotion"].clone();
    assert_eq!(promotion["environment"], "production");
    assert_eq!(promotion["outcome"], "deployed", "{promotion}");
    assert_eq!(
        production.state().version,
        3,
        "Pulp serves v3 in production"
    );
    let deployed: Vec<Value> = console
        .audit_lines()
        .into_iter()
        .filter(|l| l["outcome"] == "deployed")
        .collect();
    assert_eq!(deployed.len(), 1);
    assert_eq!(deployed[0]["operator"], "promoter");
    assert_eq!(deployed[0]["automation"], true);
    assert_eq!(deployed[0]["triggered_by"]["check"], "smoke");
    assert_eq!(deployed[0]["triggered_by"]["environment"], "staging");
    let again = report(&console, REPO, 3, true).await;
    assert_eq!(
        json(&again)["promotion"]["outcome"],
        "not_due",
        "{}",
        again.body
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_failed_check_refuses_a_manual_promotion() {
    let pulp = required_pulp();
    let _repo = exclusive(REPO).await;
    let production = SeededProduction::at_v1(pulp, REPO);
    let _staged = Staged::at(&production, 3);
    let console = console(&production.pulp, false).await;
    let before = production.state();
    let failed = report(&console, REPO, 3, false).await;
    assert_eq!(failed.status, 201, "{}", failed.body);
    assert_eq!(json(&failed)["promotion"], Value::Null);
    let deploy = format!("/api/v1/repositories/{}/deployments", production.id);
    let body = r#"{"version": 3, "environment": "production", "expected_current": 1}"#;
    let refused = call(&console, DEPLOYER, "POST", &deploy, body).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(json(&refused)["error"]["code"], "checks_missing");
    assert!(refused.body.contains("smoke failed"), "{}", refused.body);
    assert_eq!(
        production.state(),
        before,
        "Pulp unchanged: no publication, no update"
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_check_on_an_older_version_than_production_serves_triggers_nothing() {
    let pulp = required_pulp();
    let _repo = exclusive(REPO).await;
    let production = SeededProduction::at_v1(pulp, REPO);
    production.point(3);
    let _staged = Staged::at(&production, 2);
    let console = console(&production.pulp, true).await;
    let before = production.state();
    let older = report(&console, REPO, 2, true).await;
    assert_eq!(older.status, 201, "{}", older.body);
    let promotion = json(&older)["promotion"].clone();
    assert_eq!(promotion["outcome"], "not_due", "{promotion}");
    assert!(
        promotion["message"]
            .as_str()
            .unwrap_or("")
            .contains("backwards"),
        "{promotion}"
    );
    assert_eq!(
        production.state(),
        before,
        "production still serves v3, untouched"
    );
    assert!(console.audit_lines().is_empty(), "no deploy was tried");
}

/// Issue 43, item 5, as an attack: a `check:staging` token reports `smoke` passed for v3, which
/// staging (serving v1) never served: refused with 409 not_served, nothing kept, and
/// production, which promotes by itself, untouched in Pulp.
#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_check_for_a_version_staging_never_served_is_refused_and_moves_nothing() {
    let pulp = required_pulp();
    let _repo = exclusive(REPO).await;
    let production = SeededProduction::at_v1(pulp, REPO);
    let _staged = Staged::at(&production, 1);
    let console = console(&production.pulp, true).await;
    let before = production.state();
    let forged = report(&console, REPO, 3, true).await;
    assert_eq!(forged.status, 409, "{}", forged.body);
    assert_eq!(json(&forged)["error"]["code"], "not_served");
    assert_eq!(
        production.state(),
        before,
        "Pulp untouched: nothing promoted"
    );
    assert!(console.audit_lines().is_empty(), "no deploy was tried");
    let listed = call(
        &console,
        CI,
        "GET",
        &format!("/api/v1/checks?repository={REPO}"),
        "",
    )
    .await;
    assert_eq!(json(&listed)["items"], json!([]), "nothing kept");
}

/// A console wired as one replica of several on `db` (each its own pool), as
/// `wiring/audit_sinks.rs` wires the postgres sink, checks included.
async fn replica(pulp: &TestPulp, db: &TestDatabase) -> Console {
    let database = connect(&db.url, None)
        .await
        .expect("the test database, migrated");
    over_upstream(Arc::new(pulp.client()), 25)
        .configure(move |state| {
            state
                .environments(staging_then_production())
                .policy(policy(true))
                .api_callers(Arc::new(tokens()))
                .audit(Arc::new(PgAuditSink::new(database.clone())))
                .replica_lock(Arc::new(PgDeployLock::new(database.clone())))
                .requests(
                    Arc::new(PgRequestStore::new(database.clone())),
                    chrono::Duration::hours(24),
                )
                .checks(Arc::new(PgCheckStore::new(database)))
        })
        .spawn()
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a real Pulp and PostgreSQL"]
async fn two_replicas_receiving_the_same_report_at_once_promote_once() {
    let pulp = required_pulp();
    let db = required_database();
    let _repo = exclusive(REPLICATED).await;
    let production = SeededProduction::at_v1(pulp, REPLICATED);
    let _staged = Staged::at(&production, 3);
    let a = replica(&production.pulp, &db).await;
    let b = replica(&production.pulp, &db).await;
    let before = production.state();
    let (from_a, from_b) = tokio::join!(
        report(&a, REPLICATED, 3, true),
        report(&b, REPLICATED, 3, true)
    );
    assert_eq!(
        (from_a.status, from_b.status),
        (201, 201),
        "{}\n{}",
        from_a.body,
        from_b.body
    );
    let outcomes = [&from_a, &from_b].map(|r| json(r)["promotion"]["outcome"].clone());
    let deployed = outcomes.iter().filter(|o| *o == "deployed").count();
    assert_eq!(deployed, 1, "one replica promotes: {outcomes:?}");
    let after = production.state();
    assert_eq!(after.version, 3);
    assert_eq!(
        after.updates,
        before.updates + 1,
        "Pulp updated production once"
    );
    assert_eq!(
        db.query("SELECT count(*) FROM deploy_audit WHERE outcome = 'deployed'"),
        "1"
    );
    assert_eq!(
        db.query("SELECT count(*) FROM check_reports"),
        "2",
        "both reports kept"
    );
    assert_eq!(db.query("SELECT count(*) FROM promotion_claims"), "1");
    let line = db.query("SELECT line FROM deploy_audit WHERE outcome = 'deployed'");
    assert!(line.contains("\"automation\":true"), "{line}");
}
