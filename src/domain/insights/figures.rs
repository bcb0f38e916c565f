//! The figures of a [`Scope`], per environment, read from a [`Ledger`]: what the page draws,
//! the JSON and CSV exports answer, and the metrics count.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use crate::domain::check::CheckReport;
use crate::domain::environment::{EnvironmentName, EnvironmentPath};
use crate::domain::insights::ledger::{Arrival, ArrivalKind, Ledger};
use crate::domain::insights::percentile::Spread;
use crate::domain::insights::scope::{RollbackWindow, Scope};
use crate::domain::insights::week::{week_start, weeks_between};

/// The figures of every environment of the scope, in the path's order (an environment the
/// audit names that the path no longer holds comes after, by name).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Figures {
    pub environments: Vec<EnvironmentFigures>,
}

/// One environment's figures over the scope.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnvironmentFigures {
    pub environment: EnvironmentName,
    /// Deploys that arrived (rollbacks not counted).
    pub deploys: u64,
    /// Rollbacks that arrived.
    pub rollbacks: u64,
    /// Deploys a rollback undid within the window.
    pub failed_deploys: u64,
    pub lead_time_seconds: Spread,
    /// `failed_deploys / deploys`; null without deploys.
    pub change_failure_rate: Option<f64>,
    pub time_to_restore_seconds: Spread,
    pub approval_wait_seconds: Spread,
    /// Passed over reported, of the check reports made in the range in this environment
    /// (every report, a re-run included); null without reports.
    pub check_pass_rate: Option<f64>,
    pub checks_reported: u64,
    pub soak_seconds: Spread,
    /// Every week of the range, in order, also those without a deploy.
    pub weeks: Vec<WeekFigures>,
    /// Every lead time measured, ascending (the page's distribution).
    pub lead_times: Vec<i64>,
}

/// One week of one environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WeekFigures {
    /// The week's Monday (UTC).
    pub week: NaiveDate,
    pub deploys: u64,
    pub rollbacks: u64,
    pub lead_time_median_seconds: Option<i64>,
}

impl Figures {
    /// The figures of `scope` from `ledger` and the check reports `checks` (those outside the
    /// scope are left out); a deploy failed when a rollback undid it within `window`.
    pub fn of(
        ledger: &Ledger,
        checks: &[CheckReport],
        scope: &Scope,
        window: RollbackWindow,
        path: &EnvironmentPath,
    ) -> Self {
        let in_scope = |arrival: &&Arrival| {
            scope.covers(arrival.at, &arrival.repository_uuid, &arrival.environment)
                && scope
                    .release
                    .as_ref()
                    .is_none_or(|r| arrival.release.as_ref() == Some(r))
        };
        let mut by_env: BTreeMap<EnvironmentName, Vec<&Arrival>> = BTreeMap::new();
        for arrival in ledger.arrivals().iter().filter(in_scope) {
            by_env
                .entry(arrival.environment.clone())
                .or_default()
                .push(arrival);
        }
        let released: Option<Vec<&str>> = scope.release.as_ref().map(|_| {
            by_env
                .values()
                .flatten()
                .map(|a| a.repository_uuid.as_str())
                .collect()
        });
        let mut reported_in: BTreeMap<EnvironmentName, (u64, u64)> = BTreeMap::new();
        for report in checks {
            let key = &report.key;
            let of_release = released
                .as_ref()
                .is_none_or(|repos| repos.contains(&key.repository_uuid.as_str()));
            if of_release && scope.covers(report.at, &key.repository_uuid, &key.environment) {
                let (passed, reported) = reported_in.entry(key.environment.clone()).or_default();
                *passed += u64::from(report.passed);
                *reported += 1;
            }
        }
        let mut names: Vec<EnvironmentName> =
            by_env.keys().chain(reported_in.keys()).cloned().collect();
        names.sort_by_key(|name| (path.position(name).unwrap_or(usize::MAX), name.clone()));
        names.dedup();
        let weeks = weeks_between(scope.from, scope.to);
        let environments = names
            .into_iter()
            .map(|name| {
                let arrivals = by_env.remove(&name).unwrap_or_default();
                let (passed, reported) = reported_in.get(&name).copied().unwrap_or_default();
                EnvironmentFigures::of(name, &arrivals, (passed, reported), window, &weeks)
            })
            .collect();
        Self { environments }
    }
}

impl EnvironmentFigures {
    fn of(
        environment: EnvironmentName,
        arrivals: &[&Arrival],
        (passed, reported): (u64, u64),
        window: RollbackWindow,
        weeks: &[NaiveDate],
    ) -> Self {
        let deploys: Vec<&Arrival> = arrivals
            .iter()
            .copied()
            .filter(|a| a.kind == ArrivalKind::Deploy)
            .collect();
        let failed: Vec<&Arrival> = deploys
            .iter()
            .copied()
            .filter(|a| a.failed_within(window.seconds()))
            .collect();
        let mut lead_times: Vec<i64> = deploys.iter().filter_map(|a| a.lead_seconds).collect();
        lead_times.sort_unstable();
        let rate = |part: u64, whole: u64| (whole > 0).then(|| part as f64 / whole as f64);
        Self {
            environment,
            deploys: deploys.len() as u64,
            rollbacks: (arrivals.len() - deploys.len()) as u64,
            failed_deploys: failed.len() as u64,
            lead_time_seconds: Spread::of(lead_times.clone()),
            change_failure_rate: rate(failed.len() as u64, deploys.len() as u64),
            time_to_restore_seconds: Spread::of(
                failed
                    .iter()
                    .filter_map(|a| a.undone_after_seconds)
                    .collect(),
            ),
            approval_wait_seconds: Spread::of(
                arrivals
                    .iter()
                    .filter_map(|a| a.approval_wait_seconds)
                    .collect(),
            ),
            check_pass_rate: rate(passed, reported),
            checks_reported: reported,
            soak_seconds: Spread::of(deploys.iter().filter_map(|a| a.soak_seconds).collect()),
            weeks: weekly(arrivals, weeks),
            lead_times,
        }
    }
}

/// Each week's deploys, rollbacks and median lead time.
fn weekly(arrivals: &[&Arrival], weeks: &[NaiveDate]) -> Vec<WeekFigures> {
    let mut by_week: BTreeMap<NaiveDate, (u64, u64, Vec<i64>)> = BTreeMap::new();
    for arrival in arrivals {
        let (deploys, rollbacks, leads) = by_week.entry(week_start(arrival.at)).or_default();
        match arrival.kind {
            ArrivalKind::Deploy => {
                *deploys += 1;
                leads.extend(arrival.lead_seconds);
            }
            ArrivalKind::Rollback => *rollbacks += 1,
        }
    }
    weeks
        .iter()
        .map(|week| {
            let (deploys, rollbacks, leads) = by_week.remove(week).unwrap_or_default();
            WeekFigures {
                week: *week,
                deploys,
                rollbacks,
                lead_time_median_seconds: Spread::of(leads).median,
            }
        })
        .collect()
}
