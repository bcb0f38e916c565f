//! How long superseded check reports are kept (`policy.check_retention_days`): a report that
//! a later report of the same check (repository, environment, version and name) replaced, and
//! that is older than the retention, is pruned from the check store. The latest report of each
//! check is never pruned, however old: it is what the deploy gates and automatic promotion
//! read (as [`super::report::latest_of`] chooses it). Claims of promotions are kept.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::report::{CheckKey, CheckReport};

/// The positions in `reports` (in the order kept) of those that may be pruned when the
/// retention keeps what was reported at or after `kept_from`.
pub fn prunable(reports: &[CheckReport], kept_from: DateTime<Utc>) -> Vec<usize> {
    let mut latest: HashMap<&CheckKey, usize> = HashMap::new();
    for (i, report) in reports.iter().enumerate() {
        match latest.get(&report.key) {
            Some(&kept) if reports[kept].at > report.at => {}
            _ => {
                latest.insert(&report.key, i);
            }
        }
    }
    reports
        .iter()
        .enumerate()
        .filter(|(i, report)| report.at < kept_from && latest.get(&report.key) != Some(i))
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::domain::check::CheckName;
    use crate::domain::environment::EnvironmentName;

    #[test]
    fn only_old_reports_a_later_one_of_the_same_check_replaced_are_pruned() {
        let old = |env: &str, version, name: &str, passed, days: i64| CheckReport {
            key: CheckKey {
                repository_uuid: "0199a1b2-0000-7000-8000-0000000000aa".into(),
                environment: EnvironmentName::parse(env).unwrap(),
                version,
                name: CheckName::parse(name).unwrap(),
            },
            repository_name: "base-os".into(),
            passed,
            url: None,
            reporter: "ci".into(),
            at: DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z")
                .unwrap()
                .with_timezone(&Utc)
                + Duration::days(days),
        };
        let reports = [
            old("testing", 7, "smoke", false, 0),
            old("testing", 7, "smoke", true, 1),
            old("testing", 7, "e2e", true, 0),
            old("testing", 8, "smoke", false, 0),
            old("testing", 8, "smoke", true, 200),
        ];
        let kept_from = DateTime::parse_from_rfc3339("2026-03-01T00:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            prunable(&reports, kept_from),
            [0, 3],
            "superseded and old; the latest of each check is kept, however old"
        );
        assert_eq!(
            prunable(&reports, reports[0].at),
            Vec::<usize>::new(),
            "nothing old enough"
        );
    }
}
