//! Required checks: which checks a version must have passed on the previous environment
//! before it may go to an environment (`[policy.<env>] required_checks`), and when a passing
//! check promotes a version by itself (`auto_promote`, acting as `[policy] automation`).
//! Pure rules over the reports read from the check store: the deploy's gate calls
//! [`judge`] as a step of its own, and automatic promotion asks [`promotion_due`] before it
//! goes through that same gate.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::domain::check::{CheckName, CheckReport, CheckState, RunUrl, Unmet};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::PersonName;
use crate::domain::repository::VersionNumber;

/// What the policy says about checks, per environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckPolicy {
    /// The checks a version needs passed on the previous environment to go to each
    /// environment (never the first: there is no previous one).
    required: BTreeMap<EnvironmentName, Vec<CheckName>>,
    /// The environments a version is promoted to by itself once its required checks pass.
    auto_promote: BTreeSet<EnvironmentName>,
    /// Who automatic promotions act as (`[policy] automation = "user:<name>"`).
    automation: Option<PersonName>,
}

impl CheckPolicy {
    /// The policy as configured (checked at start: see `wiring/sections/policy.rs`).
    pub fn new(
        required: BTreeMap<EnvironmentName, Vec<CheckName>>,
        auto_promote: BTreeSet<EnvironmentName>,
        automation: Option<PersonName>,
    ) -> Self {
        Self {
            required,
            auto_promote,
            automation,
        }
    }

    /// The checks a deploy to `environment` needs (none: empty).
    pub fn required(&self, environment: &EnvironmentName) -> &[CheckName] {
        self.required.get(environment).map_or(&[], Vec::as_slice)
    }

    /// Whether versions are promoted to `environment` by themselves.
    pub fn auto_promotes(&self, environment: &EnvironmentName) -> bool {
        self.auto_promote.contains(environment)
    }

    /// Who automatic promotions act as.
    pub fn automation(&self) -> Option<&PersonName> {
        self.automation.as_ref()
    }
}

/// One required check of one version, as it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    pub name: CheckName,
    pub state: CheckState,
    /// The run of its latest report, when it named one.
    pub url: Option<RunUrl>,
}

/// The required checks of a version going to an environment, each as it stands on the
/// environment before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecksVerdict {
    /// Where the checks must have passed.
    pub checked_in: EnvironmentName,
    pub version: u64,
    pub standings: Vec<Standing>,
}

impl ChecksVerdict {
    /// Every required check passed (also when none is required).
    pub fn all_passed(&self) -> bool {
        self.standings.iter().all(|s| s.state == CheckState::Passed)
    }

    /// The required checks not passed, with how they stand.
    pub fn unmet(&self) -> Unmet {
        Unmet(
            self.standings
                .iter()
                .filter(|s| s.state != CheckState::Passed)
                .map(|s| (s.name.clone(), s.state))
                .collect(),
        )
    }
}

/// How the `required` checks of `version` stand on `checked_in` (the environment before the
/// one deployed to), by the latest of `reports` (reports of other versions or environments
/// are left out).
pub fn judge(
    required: &[CheckName],
    checked_in: &EnvironmentName,
    version: u64,
    reports: &[CheckReport],
) -> ChecksVerdict {
    let latest = crate::domain::check::latest_of(
        reports
            .iter()
            .filter(|r| &r.key.environment == checked_in && r.key.version == version)
            .cloned(),
    );
    let standings = required
        .iter()
        .map(|name| {
            let report = latest.iter().find(|r| &r.key.name == name);
            Standing {
                name: name.clone(),
                state: report.map_or(CheckState::Missing, CheckReport::state),
                url: report.and_then(|r| r.url.clone()),
            }
        })
        .collect();
    ChecksVerdict {
        checked_in: checked_in.clone(),
        version,
        standings,
    }
}

/// Why a check report promotes nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum NotDue {
    #[error("no environment after {0} promotes by itself (auto_promote)")]
    NoAutoPromotion(EnvironmentName),
    #[error("the check failed")]
    Failed,
    #[error("{name} is not one of the checks {environment} requires")]
    NotRequired {
        name: CheckName,
        environment: EnvironmentName,
    },
    #[error("required checks still unmet: {unmet}")]
    StillUnmet { unmet: String },
    #[error("{environment} serves v{serving} already, not older than v{version}: a promotion never moves an environment backwards")]
    NotNewer {
        environment: EnvironmentName,
        serving: u64,
        version: u64,
    },
}

/// Whether the passing `report` completes the required checks of its version for `next`
/// (the environment after the report's, which promotes by itself), so that the version is
/// promoted there: the report passed, its check is one `next` requires, every required
/// check now passes (`verdict`), and the version is newer than what `next` serves (a
/// promotion never moves an environment backwards).
pub fn promotion_due(
    report: &CheckReport,
    next: &EnvironmentName,
    verdict: &ChecksVerdict,
    next_serves: Option<VersionNumber>,
) -> Result<(), NotDue> {
    if !report.passed {
        return Err(NotDue::Failed);
    }
    if !verdict.standings.iter().any(|s| s.name == report.key.name) {
        return Err(NotDue::NotRequired {
            name: report.key.name.clone(),
            environment: next.clone(),
        });
    }
    if !verdict.all_passed() {
        return Err(NotDue::StillUnmet {
            unmet: verdict.unmet().to_string(),
        });
    }
    match next_serves {
        Some(serving) if serving.get() >= report.key.version => Err(NotDue::NotNewer {
            environment: next.clone(),
            serving: serving.get(),
            version: report.key.version,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::check::CheckKey;

    fn env(name: &str) -> EnvironmentName {
        EnvironmentName::parse(name).unwrap()
    }

    fn name(text: &str) -> CheckName {
        CheckName::parse(text).unwrap()
    }

    fn report(env_name: &str, version: u64, check: &str, passed: bool, minute: u32) -> CheckReport {
        CheckReport {
            key: CheckKey {
                repository_uuid: "0199a1b2-0000-7000-8000-0000000000aa".into(),
                environment: env(env_name),
                version,
                name: name(check),
            },
            repository_name: "base-os".into(),
            passed,
            url: None,
            reporter: "ci".into(),
            at: chrono::DateTime::parse_from_rfc3339(&format!("2026-12-01T10:{minute:02}:00Z"))
                .unwrap()
                .into(),
        }
    }

    fn required() -> Vec<CheckName> {
        vec![name("smoke"), name("e2e")]
    }

    #[test]
    fn each_required_check_stands_passed_failed_or_missing_on_the_previous_environment() {
        let reports = [
            report("staging", 7, "smoke", true, 1),
            report("staging", 7, "e2e", false, 1),
            report("testing", 7, "e2e", true, 2),
            report("staging", 6, "e2e", true, 2),
        ];
        let verdict = judge(&required(), &env("staging"), 7, &reports);
        let states: Vec<CheckState> = verdict.standings.iter().map(|s| s.state).collect();
        assert_eq!(states, [CheckState::Passed, CheckState::Failed]);
        assert!(!verdict.all_passed());
        assert_eq!(verdict.unmet().to_string(), "e2e failed");
        let nothing = judge(&required(), &env("staging"), 8, &reports);
        assert_eq!(nothing.unmet().to_string(), "smoke missing, e2e missing");
        assert!(
            judge(&[], &env("staging"), 8, &[]).all_passed(),
            "none required"
        );
    }

    #[test]
    fn the_latest_report_decides_a_check_that_failed_then_passed() {
        let reports = [
            report("staging", 7, "smoke", false, 1),
            report("staging", 7, "smoke", true, 2),
        ];
        let verdict = judge(&[name("smoke")], &env("staging"), 7, &reports);
        assert!(verdict.all_passed());
        let reports = [
            report("staging", 7, "smoke", true, 1),
            report("staging", 7, "smoke", false, 2),
        ];
        assert!(!judge(&[name("smoke")], &env("staging"), 7, &reports).all_passed());
    }

    #[test]
    fn the_last_required_check_passing_promotes_and_nothing_else_does() {
        let production = env("production");
        let smoke = report("staging", 7, "smoke", true, 1);
        let e2e = report("staging", 7, "e2e", true, 2);
        let half = judge(
            &required(),
            &env("staging"),
            7,
            std::slice::from_ref(&smoke),
        );
        assert!(matches!(
            promotion_due(&smoke, &production, &half, None),
            Err(NotDue::StillUnmet { .. })
        ));
        let both = [smoke.clone(), e2e.clone()];
        let whole = judge(&required(), &env("staging"), 7, &both);
        assert_eq!(
            promotion_due(&e2e, &production, &whole, Some(VersionNumber::new(5))),
            Ok(())
        );
        assert_eq!(promotion_due(&e2e, &production, &whole, None), Ok(()));
        let failed = report("staging", 7, "e2e", false, 3);
        assert_eq!(
            promotion_due(&failed, &production, &whole, None),
            Err(NotDue::Failed)
        );
        let lint = report("staging", 7, "lint", true, 3);
        assert!(matches!(
            promotion_due(&lint, &production, &whole, None),
            Err(NotDue::NotRequired { .. })
        ));
    }

    #[test]
    fn a_promotion_never_moves_an_environment_backwards_nor_redeploys() {
        let production = env("production");
        let e2e = report("staging", 7, "e2e", true, 2);
        let both = [report("staging", 7, "smoke", true, 1), e2e.clone()];
        let whole = judge(&required(), &env("staging"), 7, &both);
        for serving in [7, 9] {
            assert!(matches!(
                promotion_due(&e2e, &production, &whole, Some(VersionNumber::new(serving))),
                Err(NotDue::NotNewer { .. })
            ));
        }
    }
}
