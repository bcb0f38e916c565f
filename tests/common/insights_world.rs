//! A generated history for the insights (issue 50): 20 repositories, 5,000 versions created
//! over two years, each deployed to staging then to production (10,000 deploys), one
//! production deploy in ten rolled back (some within the 72-hour window, some after), one
//! in three approved after a wait. [`Expected`] holds the same figures computed directly
//! here, from what was generated, with a nearest-rank percentile of its own.

#![allow(dead_code)] // each binary uses its own part

use chrono::{DateTime, Duration, TimeZone, Utc};
use repo_console::adapters::memory::InMemoryPulp;
use repo_console::domain::approval::{ApprovalRequest, RequestEvent};
use repo_console::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::ids::RequestId;
use repo_console::domain::repository::RepoId;

/// The clock of the test: every line is before it, within 730 days.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 0, 0, 0).unwrap()
}

pub const REPOSITORIES: usize = 20;
pub const VERSIONS_PER_REPOSITORY: usize = 250;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// An approval to keep in the request store: the request, and its approval.
pub struct Approval {
    pub request: ApprovalRequest,
    pub approved: RequestEvent,
}

/// What was generated: the audit's lines in the order written, the approvals, and the
/// figures expected.
pub struct World {
    pub lines: Vec<DeployRecord>,
    pub approvals: Vec<Approval>,
    pub expected: Vec<Expected>,
    pub first_repository: (RepoId, String),
    pub first_repository_deploys: (u64, u64),
}

/// One environment's figures, computed directly.
#[derive(Debug, Default)]
pub struct Expected {
    pub environment: &'static str,
    pub deploys: u64,
    pub lead: Vec<i64>,
    pub failed: u64,
    pub restore: Vec<i64>,
    pub approval: Vec<i64>,
    pub soak: Vec<i64>,
}

/// The nearest-rank percentile, written again here: rank ⌈p·n/100⌉.
pub fn percentile(values: &[i64], p: usize) -> Option<i64> {
    let mut sorted = values.to_vec();
    sorted.sort();
    if sorted.is_empty() {
        return None;
    }
    let rank = (p * sorted.len()).div_ceil(100);
    Some(sorted[rank.max(1) - 1])
}

fn line(
    id: String,
    repo: &(RepoId, String),
    environment: &str,
    kind: DeployKind,
    from: Option<u64>,
    to: u64,
    at: DateTime<Utc>,
) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(id),
        timestamp: at,
        operator: "gen".into(),
        repository_uuid: repo.0.to_string(),
        repository_name: repo.1.clone(),
        previous_version: from,
        target_version: to,
        environment: EnvironmentName::parse(environment).unwrap(),
        distribution: format!("{}-{environment}", repo.1),
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

/// Generates the world into `memory` (its repositories and versions, with their creation
/// times), with names starting `prefix`.
pub fn generate(memory: &InMemoryPulp, prefix: &str) -> World {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let start = now() - Duration::days(729);
    let span = Duration::days(715).num_seconds() as u64;
    let window = Duration::hours(72).num_seconds();
    let mut staging = Expected {
        environment: "staging",
        ..Expected::default()
    };
    let mut production = Expected {
        environment: "production",
        ..Expected::default()
    };
    let mut lines: Vec<DeployRecord> = Vec::new();
    let mut approvals = Vec::new();
    let mut first_repository = None;
    let mut first_deploys = (0, 0);
    for r in 0..REPOSITORIES {
        let name = format!("{prefix}{r:02}");
        let id = memory.add_repo(
            &name,
            repo_console::domain::repository::RepoVerification::default(),
        );
        let repo = (id.clone(), name);
        let mut created: Vec<DateTime<Utc>> = (0..VERSIONS_PER_REPOSITORY)
            .map(|_| start + Duration::seconds(rng.below(span) as i64))
            .collect();
        created.sort();
        for (k, c) in created.into_iter().enumerate() {
            let package = format!("p-{k}");
            let number = memory
                .add_version_at(&id, &[package.as_str()], &[], c)
                .get();
            let to_staging = Duration::seconds(60 + rng.below(48 * 3600) as i64);
            let soak = Duration::seconds(3600 + rng.below(96 * 3600) as i64);
            let at_staging = c + to_staging;
            let at_production = at_staging + soak;
            lines.push(line(
                format!("{}-{number}-s", repo.1),
                &repo,
                "staging",
                DeployKind::Deploy,
                number.checked_sub(1),
                number,
                at_staging,
            ));
            staging.deploys += 1;
            staging.lead.push(to_staging.num_seconds());
            let mut deploy = line(
                format!("{}-{number}-p", repo.1),
                &repo,
                "production",
                DeployKind::Deploy,
                number.checked_sub(1),
                number,
                at_production,
            );
            if rng.below(3) == 0 {
                let wait = 300 + rng.below(72 * 3600) as i64;
                let request_id = format!("{}-{number}", repo.1);
                let asked_at = at_production - Duration::seconds(wait + 30);
                let request: ApprovalRequest = serde_json::from_value(serde_json::json!({
                    "id": request_id, "repository_uuid": repo.0.to_string(), "repository_name": repo.1,
                    "environment": "production", "target_version": number, "asked_against": number.checked_sub(1),
                    "requester": "ada", "reason": null,
                    "created": asked_at.to_rfc3339(), "expires": (asked_at + Duration::days(30)).to_rfc3339()
                }))
                .unwrap();
                let approved: RequestEvent = serde_json::from_value(serde_json::json!({
                    "event": "approved", "by": "bob", "at": (at_production - Duration::seconds(30)).to_rfc3339()
                }))
                .unwrap();
                deploy.request = Some(serde_json::from_value(serde_json::json!({
                    "request_id": RequestId::parse(&request_id).unwrap(), "requester": "ada", "approvers": ["bob"]
                }))
                .unwrap());
                approvals.push(Approval { request, approved });
                production.approval.push(wait);
            }
            lines.push(deploy);
            production.deploys += 1;
            production.lead.push((at_production - c).num_seconds());
            production.soak.push(soak.num_seconds());
            if r == 0 {
                first_deploys.0 += 1;
                first_deploys.1 += 1;
            }
            if rng.below(10) == 0 {
                let after = 600 + rng.below(120 * 3600) as i64;
                let at = at_production + Duration::seconds(after);
                lines.push(line(
                    format!("{}-{number}-r", repo.1),
                    &repo,
                    "production",
                    DeployKind::Rollback,
                    Some(number),
                    number.saturating_sub(1),
                    at,
                ));
                if after <= window {
                    production.failed += 1;
                    production.restore.push(after);
                }
            }
        }
        if first_repository.is_none() {
            first_repository = Some(repo);
        }
    }
    lines.sort_by_key(|l| l.timestamp);
    World {
        lines,
        approvals,
        expected: vec![staging, production],
        first_repository: first_repository.unwrap(),
        first_repository_deploys: first_deploys,
    }
}

/// Checks the API's answer against `expected`, each duration within a second.
pub fn assert_figures_equal(body: &serde_json::Value, expected: &[Expected]) {
    let environments = body["environments"].as_array().expect("environments");
    assert_eq!(environments.len(), expected.len(), "{body}");
    let close = |got: &serde_json::Value, want: Option<i64>, what: &str| match (got.as_i64(), want)
    {
        (Some(got), Some(want)) => assert!((got - want).abs() <= 1, "{what}: {got} against {want}"),
        (None, None) => {}
        (got, want) => panic!("{what}: {got:?} against {want:?}"),
    };
    for (got, want) in environments.iter().zip(expected) {
        let env = want.environment;
        assert_eq!(got["environment"], env);
        assert_eq!(got["deploys"], want.deploys, "{env} deploys");
        close(
            &got["lead_time_seconds"]["median"],
            percentile(&want.lead, 50),
            "lead median",
        );
        close(
            &got["lead_time_seconds"]["p90"],
            percentile(&want.lead, 90),
            "lead p90",
        );
        let rate = want.failed as f64 / want.deploys as f64;
        let got_rate = got["change_failure_rate"].as_f64().expect("a rate");
        assert!(
            (got_rate - rate).abs() < 1e-9,
            "{env} change failure rate {got_rate} against {rate}"
        );
        close(
            &got["time_to_restore_seconds"]["median"],
            percentile(&want.restore, 50),
            "restore median",
        );
        close(
            &got["time_to_restore_seconds"]["p90"],
            percentile(&want.restore, 90),
            "restore p90",
        );
        close(
            &got["approval_wait_seconds"]["median"],
            percentile(&want.approval, 50),
            "approval median",
        );
        close(
            &got["approval_wait_seconds"]["p90"],
            percentile(&want.approval, 90),
            "approval p90",
        );
        close(
            &got["soak_seconds"]["median"],
            percentile(&want.soak, 50),
            "soak median",
        );
        close(
            &got["soak_seconds"]["p90"],
            percentile(&want.soak, 90),
            "soak p90",
        );
        let weekly: u64 = got["weeks"]
            .as_array()
            .expect("weeks")
            .iter()
            .map(|w| w["deploys"].as_u64().unwrap())
            .sum();
        assert_eq!(
            weekly, want.deploys,
            "{env}: the weeks add up to the deploys"
        );
    }
}
