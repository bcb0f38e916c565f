//! The `CheckStore` contract, run against every store: in memory and the JSON Lines file
//! (tests/api/check_store.rs), PostgreSQL (tests/real_pulp/postgres.rs). The in-memory store
//! is the reference behaviour.

#![allow(dead_code)] // each binary uses its own part

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use futures::future::join_all;
use repo_console::domain::check::{CheckKey, CheckName, CheckReport, PromotionKey, RunUrl};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::repository::RepoId;
use repo_console::ports::CheckStore;

pub const REPO_A: &str = "0199a1b2-0000-7000-8000-0000000000ca";
pub const REPO_B: &str = "0199a1b2-0000-7000-8000-0000000000cb";

pub fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-10T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::minutes(minutes)
}

/// Check `name` of version `version` of `repo` in `env`, reported `minutes` after 09:00.
pub fn report(
    repo: &str,
    env: &str,
    version: u64,
    name: &str,
    passed: bool,
    minutes: i64,
) -> CheckReport {
    CheckReport {
        key: CheckKey {
            repository_uuid: repo.into(),
            environment: EnvironmentName::parse(env).unwrap(),
            version,
            name: CheckName::parse(name).unwrap(),
        },
        repository_name: "base-os".into(),
        passed,
        url: Some(RunUrl::parse(&format!("https://ci.example.com/runs/{minutes}")).unwrap()),
        reporter: "ci-staging".into(),
        at: at(minutes),
    }
}

fn repo(text: &str) -> RepoId {
    RepoId::parse(text).unwrap()
}

fn summary(reports: &[CheckReport]) -> Vec<String> {
    reports
        .iter()
        .map(|r| {
            format!(
                "{}/v{}/{}={}",
                r.key.environment,
                r.key.version,
                r.key.name,
                r.state().as_str()
            )
        })
        .collect()
}

/// Reports are kept as made and read back per repository (of one version when asked), the
/// latest of each check replacing the earlier, in key order.
pub async fn the_latest_report_of_each_check_counts(store: &dyn CheckStore) {
    let made = [
        report(REPO_A, "staging", 7, "smoke", false, 0),
        report(REPO_A, "staging", 7, "smoke", true, 5),
        report(REPO_A, "staging", 7, "e2e", true, 1),
        report(REPO_A, "testing", 7, "smoke", true, 2),
        report(REPO_A, "staging", 6, "smoke", false, 3),
        report(REPO_B, "staging", 7, "smoke", false, 4),
    ];
    for report in &made {
        store.record(report).await.unwrap();
    }
    let all = store.latest(&repo(REPO_A), None).await.unwrap();
    assert_eq!(
        summary(&all),
        [
            "staging/v6/smoke=failed",
            "staging/v7/e2e=passed",
            "staging/v7/smoke=passed",
            "testing/v7/smoke=passed"
        ]
    );
    let smoke = all
        .iter()
        .find(|r| {
            r.key.version == 7
                && r.key.name.as_str() == "smoke"
                && r.key.environment.as_str() == "staging"
        })
        .unwrap();
    assert_eq!(smoke, &made[1], "every field as made");
    let seven = store.latest(&repo(REPO_A), Some(7)).await.unwrap();
    assert_eq!(seven.len(), 3);
    assert!(seven.iter().all(|r| r.key.version == 7));
    let other = store.latest(&repo(REPO_B), None).await.unwrap();
    assert_eq!(summary(&other), ["staging/v7/smoke=failed"]);
    assert!(store
        .latest(&repo(REPO_B), Some(6))
        .await
        .unwrap()
        .is_empty());
    let later = report(REPO_A, "staging", 7, "smoke", false, 9);
    store.record(&later).await.unwrap();
    let seven = store.latest(&repo(REPO_A), Some(7)).await.unwrap();
    assert!(
        summary(&seven).contains(&"staging/v7/smoke=failed".to_owned()),
        "a later report replaces"
    );
}

fn promotion(version: u64) -> PromotionKey {
    PromotionKey {
        repository_uuid: REPO_A.into(),
        environment: EnvironmentName::production(),
        version,
    }
}

/// A promotion is claimed once until given back; claims of other versions are their own.
pub async fn a_promotion_is_claimed_once_until_given_back(store: &dyn CheckStore) {
    assert!(store.claim_promotion(&promotion(7)).await.unwrap());
    assert!(
        !store.claim_promotion(&promotion(7)).await.unwrap(),
        "claimed already"
    );
    assert!(
        store.claim_promotion(&promotion(8)).await.unwrap(),
        "another version"
    );
    store.release_promotion(&promotion(7)).await.unwrap();
    assert!(
        store.claim_promotion(&promotion(7)).await.unwrap(),
        "given back"
    );
    assert!(!store.claim_promotion(&promotion(7)).await.unwrap());
    store.release_promotion(&promotion(99)).await.unwrap();
}

/// Of `callers` claiming one promotion at once through `stores` (replicas, or processes on
/// one file), exactly one wins.
pub async fn one_of_many_concurrent_claimers_wins(stores: &[Arc<dyn CheckStore>], callers: usize) {
    let key = promotion(42);
    let claims = (0..callers).map(|i| {
        let store = stores[i % stores.len()].clone();
        let key = key.clone();
        async move { store.claim_promotion(&key).await.unwrap() }
    });
    let won = join_all(claims)
        .await
        .into_iter()
        .filter(|won| *won)
        .count();
    assert_eq!(won, 1, "one claim of {callers} wins");
}

/// Retention (issue 43): only reports a later one of the same check replaced, and older than
/// the retention, go; the latest of each check stays however old, and so do the claims.
pub async fn only_old_superseded_reports_are_pruned(store: &dyn CheckStore) {
    let reports = [
        report(REPO_A, "testing", 7, "smoke", false, 0),
        report(REPO_A, "testing", 7, "smoke", true, 10),
        report(REPO_A, "testing", 7, "e2e", true, 0),
        report(REPO_A, "testing", 8, "smoke", false, 20),
        report(REPO_A, "testing", 8, "smoke", true, 120),
    ];
    for r in &reports {
        store.record(r).await.unwrap();
    }
    let key = PromotionKey {
        repository_uuid: REPO_A.into(),
        environment: EnvironmentName::parse("staging").unwrap(),
        version: 7,
    };
    assert!(store.claim_promotion(&key).await.unwrap());
    let before = store.latest(&repo(REPO_A), None).await.unwrap();
    assert_eq!(
        store.prune(at(0)).await,
        Ok(0),
        "nothing older than the retention"
    );
    assert_eq!(
        store.prune(at(60)).await,
        Ok(2),
        "v7 smoke's first, v8 smoke's first"
    );
    assert_eq!(store.prune(at(60)).await, Ok(0), "once");
    assert_eq!(
        store.latest(&repo(REPO_A), None).await.unwrap(),
        before,
        "the latest of each check is what it was"
    );
    assert!(
        !store.claim_promotion(&key).await.unwrap(),
        "the claim is kept"
    );
    assert_eq!(
        store.prune(at(1000)).await,
        Ok(0),
        "the latest of each check stays"
    );
}

/// The insights' read (issue 50): every report made in a half-open range, of every
/// repository, in the order made, re-runs included; the ends of the range as stated.
pub async fn the_reports_of_a_range_are_read_in_the_order_made(store: &dyn CheckStore) {
    let reports = [
        report(REPO_A, "testing", 7, "smoke", false, 0),
        report(REPO_B, "production", 3, "smoke", true, 30),
        report(REPO_A, "testing", 7, "smoke", true, 10),
        report(REPO_A, "production", 7, "e2e", false, 20),
        report(REPO_A, "staging", 8, "smoke", true, 60),
    ];
    for r in &reports {
        store.record(r).await.unwrap();
    }
    let between = store.reported_between(at(10), at(60)).await.unwrap();
    assert_eq!(
        summary(&between),
        [
            "testing/v7/smoke=passed",
            "production/v7/e2e=failed",
            "production/v3/smoke=passed"
        ],
        "from included, to left out, in the order made: {between:?}"
    );
    assert_eq!(
        store.reported_between(at(0), at(61)).await.unwrap().len(),
        5
    );
    assert!(store
        .reported_between(at(61), at(1000))
        .await
        .unwrap()
        .is_empty());
}
