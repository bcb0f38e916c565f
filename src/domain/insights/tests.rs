//! Hand-made cases for the insights' rules: nearest-rank percentiles, rollbacks that are not
//! deploys, failures within the window, soak, approval wait, checks and weeks.

use chrono::{DateTime, Duration, TimeZone, Utc};

use super::*;
use crate::domain::approval::{Actor, ApprovalRequest, RequestEvent, RequestLog};
use crate::domain::check::{CheckKey, CheckName, CheckReport};
use crate::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord};
use crate::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};

const REPO: &str = "01a202de-e818-7629-a483-70ecc3240361";

fn t(hours: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 2, 0, 0, 0).unwrap() + Duration::hours(hours)
}

fn env(name: &str) -> EnvironmentName {
    EnvironmentName::parse(name).unwrap()
}

fn path() -> EnvironmentPath {
    let environment = |name: &str| Environment {
        name: env(name),
        naming: DistributionNaming::new(
            Some(NamePattern::parse(&format!("{{repo}}-{name}")).unwrap()),
            [],
        ),
        requires_previous: false,
    };
    EnvironmentPath::new(vec![environment("staging"), environment("production")]).unwrap()
}

fn line(at: i64, environment: &str, kind: DeployKind, from: Option<u64>, to: u64) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(format!("d{at}")),
        timestamp: t(at),
        operator: "ada".into(),
        repository_uuid: REPO.into(),
        repository_name: "base".into(),
        previous_version: from,
        target_version: to,
        environment: env(environment),
        distribution: format!("base-{environment}"),
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

fn created_at(hours: i64) -> LineFacts {
    LineFacts {
        version_created: Some(t(hours)),
        ..LineFacts::default()
    }
}

fn scope() -> Scope {
    Scope {
        from: t(-24),
        to: t(24 * 30),
        repositories: None,
        release: None,
        environment: None,
    }
}

fn figures(ledger: &Ledger, window_hours: u32) -> Figures {
    Figures::of(
        ledger,
        &[],
        &scope(),
        RollbackWindow::hours(window_hours),
        &path(),
    )
}

#[test]
fn nearest_rank_takes_the_value_at_rank_ceil_p_n() {
    assert_eq!(nearest_rank(&[], 50), None);
    assert_eq!(nearest_rank(&[7], 50), Some(7));
    assert_eq!(nearest_rank(&[7], 90), Some(7));
    // n = 2: median rank ⌈1⌉ = 1, p90 rank ⌈1.8⌉ = 2.
    assert_eq!(nearest_rank(&[10, 20], 50), Some(10));
    assert_eq!(nearest_rank(&[10, 20], 90), Some(20));
    // n = 10: median rank 5, p90 rank 9.
    let ten: Vec<i64> = (1..=10).collect();
    assert_eq!(nearest_rank(&ten, 50), Some(5));
    assert_eq!(nearest_rank(&ten, 90), Some(9));
    // n = 11: median rank ⌈5.5⌉ = 6, p90 rank ⌈9.9⌉ = 10.
    let eleven: Vec<i64> = (1..=11).collect();
    assert_eq!(nearest_rank(&eleven, 50), Some(6));
    assert_eq!(nearest_rank(&eleven, 90), Some(10));
}

#[test]
fn a_spread_sorts_its_values_first() {
    let spread = Spread::of(vec![30, 10, 20]);
    assert_eq!(spread.median, Some(20));
    assert_eq!(spread.p90, Some(30));
    assert_eq!(Spread::of(vec![]), Spread::default());
}

#[test]
fn a_rollback_is_neither_a_deploy_nor_a_lead_time_and_fails_the_deploy_it_undid() {
    let mut ledger = Ledger::default();
    ledger.fold(
        &line(10, "production", DeployKind::Deploy, Some(1), 2),
        created_at(0),
        &path(),
    );
    ledger.fold(
        &line(14, "production", DeployKind::Rollback, Some(2), 1),
        created_at(-100),
        &path(),
    );
    ledger.fold(
        &line(20, "production", DeployKind::Deploy, Some(1), 3),
        created_at(18),
        &path(),
    );
    let figures = figures(&ledger, 72);
    let production = &figures.environments[0];
    assert_eq!(production.environment, env("production"));
    assert_eq!(production.deploys, 2);
    assert_eq!(production.rollbacks, 1);
    assert_eq!(production.failed_deploys, 1);
    assert_eq!(production.change_failure_rate, Some(0.5));
    assert_eq!(production.lead_times, vec![2 * 3600, 10 * 3600]);
    assert_eq!(production.lead_time_seconds.median, Some(2 * 3600));
    assert_eq!(production.lead_time_seconds.p90, Some(10 * 3600));
    assert_eq!(production.time_to_restore_seconds.median, Some(4 * 3600));
}

#[test]
fn a_rollback_after_the_window_does_not_fail_the_deploy() {
    let mut ledger = Ledger::default();
    ledger.fold(
        &line(0, "production", DeployKind::Deploy, Some(1), 2),
        created_at(0),
        &path(),
    );
    ledger.fold(
        &line(5, "production", DeployKind::Rollback, Some(2), 1),
        LineFacts::default(),
        &path(),
    );
    assert_eq!(
        figures(&ledger, 4).environments[0].change_failure_rate,
        Some(0.0)
    );
    assert_eq!(
        figures(&ledger, 4).environments[0].time_to_restore_seconds,
        Spread::default()
    );
    assert_eq!(
        figures(&ledger, 5).environments[0].change_failure_rate,
        Some(1.0)
    );
}

#[test]
fn a_rollback_fails_only_the_deploy_of_the_version_it_rolled_back_from() {
    let mut ledger = Ledger::default();
    ledger.fold(
        &line(0, "production", DeployKind::Deploy, Some(1), 2),
        created_at(0),
        &path(),
    );
    ledger.fold(
        &line(1, "staging", DeployKind::Deploy, Some(2), 3),
        created_at(0),
        &path(),
    );
    ledger.fold(
        &line(2, "production", DeployKind::Rollback, Some(9), 1),
        LineFacts::default(),
        &path(),
    );
    let figures = figures(&ledger, 72);
    assert!(figures.environments.iter().all(|e| e.failed_deploys == 0));
}

#[test]
fn soak_runs_from_the_arrival_in_the_environment_before() {
    let mut ledger = Ledger::default();
    ledger.fold(
        &line(0, "staging", DeployKind::Deploy, None, 2),
        created_at(0),
        &path(),
    );
    ledger.fold(
        &line(30, "production", DeployKind::Deploy, None, 2),
        created_at(0),
        &path(),
    );
    let figures = figures(&ledger, 72);
    assert_eq!(figures.environments[0].environment, env("staging"));
    assert_eq!(figures.environments[0].soak_seconds, Spread::default());
    assert_eq!(figures.environments[1].soak_seconds.median, Some(30 * 3600));
}

#[test]
fn approval_wait_runs_from_the_request_to_the_approval_that_completed_it() {
    let request: ApprovalRequest = serde_json::from_value(serde_json::json!({
        "id": "r1", "repository_uuid": REPO, "repository_name": "base",
        "environment": "production", "target_version": 2, "asked_against": 1,
        "requester": "ada", "reason": null,
        "created": "2026-11-02T00:00:00Z", "expires": "2026-11-09T00:00:00Z"
    }))
    .unwrap();
    let actor: Actor = serde_json::from_value(serde_json::json!({"by": "bob"})).unwrap();
    let log = RequestLog {
        request,
        events: vec![
            RequestEvent::Approved {
                actor: actor.clone(),
                at: t(2),
            },
            RequestEvent::Approved {
                actor: actor.clone(),
                at: t(5),
            },
            RequestEvent::Executed {
                deploy_id: DeployId::new("d"),
                outcome: crate::domain::approval::ExecutionOutcome::Deployed,
                at: t(5),
            },
            RequestEvent::Approved { actor, at: t(50) },
        ],
    };
    assert_eq!(approval_wait(&log), Some(5 * 3600));
}

#[test]
fn the_check_pass_rate_counts_every_report_of_the_range_in_the_environment_it_ran_in() {
    let report = |environment: &str, version: u64, name: &str, passed: bool, at: i64| CheckReport {
        key: CheckKey {
            repository_uuid: REPO.into(),
            environment: env(environment),
            version,
            name: CheckName::parse(name).unwrap(),
        },
        repository_name: "base".into(),
        passed,
        url: None,
        reporter: "ci".into(),
        at: t(at),
    };
    let checks = vec![
        // Before the range: not counted.
        report("staging", 1, "smoke", false, -48),
        report("staging", 2, "smoke", false, 1),
        // A re-run of the same check counts too: the rate is of reports, not of checks.
        report("staging", 2, "smoke", true, 2),
        report("staging", 2, "e2e", true, 2),
        // Production has checks of its own, reported after the last deploy there.
        report("production", 2, "smoke", true, 30),
        report("production", 2, "e2e", false, 31),
        report("production", 3, "smoke", true, 200),
        report("production", 3, "e2e", true, 201),
        // After the range: not counted.
        report("production", 4, "smoke", false, 24 * 31),
    ];
    let mut ledger = Ledger::default();
    ledger.fold(
        &line(3, "production", DeployKind::Deploy, None, 2),
        LineFacts::default(),
        &path(),
    );
    let figures = Figures::of(
        &ledger,
        &checks,
        &scope(),
        RollbackWindow::default(),
        &path(),
    );
    let names: Vec<&str> = figures
        .environments
        .iter()
        .map(|e| e.environment.as_str())
        .collect();
    assert_eq!(names, ["staging", "production"], "in the path's order");
    let staging = &figures.environments[0];
    assert_eq!(staging.checks_reported, 3);
    assert_eq!(staging.check_pass_rate, Some(2.0 / 3.0));
    assert_eq!(staging.deploys, 0, "checks alone make no deploy");
    let production = &figures.environments[1];
    assert_eq!(production.checks_reported, 4);
    assert_eq!(production.check_pass_rate, Some(0.75));

    let only_staging = Scope {
        environment: Some(env("staging")),
        ..scope()
    };
    let figures = Figures::of(
        &ledger,
        &checks,
        &only_staging,
        RollbackWindow::default(),
        &path(),
    );
    assert_eq!(figures.environments.len(), 1);
    assert_eq!(figures.environments[0].checks_reported, 3);
    let another = Scope {
        repositories: Some(vec!["0199a1b2-0000-7000-8000-0000000000ff".into()]),
        ..scope()
    };
    let figures = Figures::of(
        &ledger,
        &checks,
        &another,
        RollbackWindow::default(),
        &path(),
    );
    assert!(
        figures.environments.is_empty(),
        "another repository's view counts none"
    );
}

#[test]
fn weeks_run_monday_to_monday_and_keep_the_empty_ones() {
    // 2026-11-02 is a Monday.
    assert_eq!(week_start(t(24 * 6 + 23)), t(0).date_naive());
    assert_eq!(week_start(t(24 * 7)), t(24 * 7).date_naive());
    let mut ledger = Ledger::default();
    ledger.fold(
        &line(1, "production", DeployKind::Deploy, None, 2),
        created_at(0),
        &path(),
    );
    ledger.fold(
        &line(24 * 14, "production", DeployKind::Deploy, None, 3),
        created_at(24 * 14 - 3),
        &path(),
    );
    let weeks = &figures(&ledger, 72).environments[0].weeks;
    let deploys: Vec<u64> = weeks.iter().map(|w| w.deploys).collect();
    assert_eq!(&deploys[..4], &[0, 1, 0, 1]);
    assert_eq!(weeks[3].lead_time_median_seconds, Some(3 * 3600));
}

#[test]
fn a_scope_keeps_its_repositories_environment_and_range() {
    let mut ledger = Ledger::default();
    ledger.fold(
        &line(1, "staging", DeployKind::Deploy, None, 2),
        created_at(0),
        &path(),
    );
    ledger.fold(
        &line(2, "production", DeployKind::Deploy, None, 2),
        created_at(0),
        &path(),
    );
    let mut scope = scope();
    scope.environment = Some(env("production"));
    let only = Figures::of(&ledger, &[], &scope, RollbackWindow::default(), &path());
    assert_eq!(only.environments.len(), 1);
    scope.repositories = Some(vec!["another".into()]);
    assert!(
        Figures::of(&ledger, &[], &scope, RollbackWindow::default(), &path())
            .environments
            .is_empty()
    );
    let mut early = self::scope();
    early.to = t(2);
    let early = Figures::of(&ledger, &[], &early, RollbackWindow::default(), &path());
    assert_eq!(early.environments.len(), 1, "the range's end is not inside");
}
