//! Pulp's `retain_repo_versions`: Pulp keeps only the newest N versions of a repository
//! and deletes older ones as new versions are made. The console warns before that deletes
//! the version production serves, or the one it served before (the rollback target).

use crate::domain::repository::VersionNumber;

/// New versions (syncs that change something) the warning looks ahead.
pub const SYNCS_AHEAD: u64 = 3;

/// A version production needs that Pulp will delete soon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionRisk {
    /// The versions Pulp keeps.
    pub retain: u64,
    /// The live version, when it is at risk.
    pub serving: Option<VersionNumber>,
    /// The previous production version, when it is at risk.
    pub previous: Option<VersionNumber>,
}

/// Whether `version` is gone after `SYNCS_AHEAD` more versions (with `latest` the newest
/// now, Pulp keeping the newest `retain`): it is when `latest + SYNCS_AHEAD - version`
/// reaches `retain`. Version 0 never counts (it is not a deployable version).
fn deleted_soon(retain: u64, latest: VersionNumber, version: VersionNumber) -> bool {
    let age = latest.get().saturating_sub(version.get());
    version.get() > 0 && age.saturating_add(SYNCS_AHEAD) >= retain
}

/// The risk, if any, for a repository keeping `retain` versions (`None`: all are kept).
pub fn retention_risk(
    retain: Option<u64>,
    latest: Option<VersionNumber>,
    serving: Option<VersionNumber>,
    previous: Option<VersionNumber>,
) -> Option<RetentionRisk> {
    let (retain, latest) = (retain.filter(|r| *r > 0)?, latest?);
    let at_risk = |v: Option<VersionNumber>| v.filter(|v| deleted_soon(retain, latest, *v));
    let risk = RetentionRisk {
        retain,
        serving: at_risk(serving),
        previous: at_risk(previous),
    };
    (risk.serving.is_some() || risk.previous.is_some()).then_some(risk)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: u64) -> Option<VersionNumber> {
        Some(VersionNumber::new(n))
    }

    #[test]
    fn no_retention_or_no_versions_is_no_risk() {
        assert_eq!(retention_risk(None, v(10), v(1), None), None);
        assert_eq!(retention_risk(Some(0), v(10), v(1), None), None);
        assert_eq!(retention_risk(Some(5), None, v(1), None), None);
    }

    #[test]
    fn a_version_within_the_next_syncs_of_the_edge_is_at_risk() {
        // Keeping 5 with v10 newest: v6..v10 kept; 3 syncs later v9..v13: v8 is gone.
        let risk = retention_risk(Some(5), v(10), v(8), v(7)).unwrap();
        assert_eq!((risk.serving, risk.previous), (v(8), v(7)));
        assert_eq!(
            retention_risk(Some(5), v(10), v(9), None),
            None,
            "v9 survives 3 syncs"
        );
        let previous_only = retention_risk(Some(5), v(10), v(10), v(8)).unwrap();
        assert_eq!(
            (previous_only.serving, previous_only.previous),
            (None, v(8))
        );
    }

    #[test]
    fn with_few_versions_kept_even_the_latest_is_at_risk() {
        assert!(retention_risk(Some(2), v(4), v(4), None).is_some());
        assert_eq!(
            retention_risk(Some(4), v(4), v(4), v(0)),
            None,
            "v0 is not deployable"
        );
    }
}
