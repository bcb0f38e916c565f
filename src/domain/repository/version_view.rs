//! The view of one version that the versions page shows.

use std::cmp::Ordering;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::domain::repository::{newest_first, Badge, RepoVersion, VersionNumber};

/// One row of the versions page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VersionView {
    pub number: Option<VersionNumber>,
    pub created: DateTime<Utc>,
    pub package_count: u64,
    /// Net change of packages against the previous version: added minus removed.
    pub change: i64,
    pub added: u64,
    pub removed: u64,
    pub badge: Badge,
    pub deployed: bool,
    /// The version before this one (the next older that upstream has), when known.
    pub previous: Option<VersionNumber>,
}

impl VersionView {
    /// `v<n>`, or `v?` when upstream gave no number.
    pub fn label(&self) -> String {
        self.number
            .map_or_else(|| "v?".to_owned(), VersionNumber::label)
    }

    /// The deploy button rule: verification passed and not the deployed version.
    pub fn can_deploy(&self) -> bool {
        self.badge.allows_deploy() && !self.deployed && self.number.is_some()
    }
}

/// The signed form an operator reads: `+3`, `-2`, `0`.
pub fn signed(change: i64) -> String {
    match change.cmp(&0) {
        Ordering::Greater => format!("+{change}"),
        Ordering::Less => format!("\u{2212}{}", change.unsigned_abs()),
        Ordering::Equal => "0".to_owned(),
    }
}

/// Builds the rows of the versions page: newest first, each with its badge, deployed flag
/// and the version before it. `versions` may hold one version more than the rows to show
/// (the one before the last row, read only to name it): at most `rows` are built.
pub fn build_version_views(
    versions: &[RepoVersion],
    badge: Badge,
    deployed: Option<VersionNumber>,
    rows: usize,
) -> Vec<VersionView> {
    let mut sorted: Vec<&RepoVersion> = versions.iter().collect();
    sorted.sort_by(|a, b| newest_first(a.number(), b.number()));
    let previous = sorted.iter().skip(1).map(|v| v.number()).chain([None]);
    sorted
        .iter()
        .zip(previous)
        .take(rows)
        .map(|(v, previous)| VersionView {
            number: v.number(),
            created: v.created,
            package_count: v.package_count,
            change: v.net_change(),
            added: v.added,
            removed: v.removed,
            badge,
            deployed: deployed.is_some() && v.number() == deployed,
            previous,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::repository::VersionHref;

    fn version(href: &str, packages: u64, added: u64, removed: u64) -> RepoVersion {
        RepoVersion {
            href: VersionHref::new(href),
            created: DateTime::parse_from_rfc3339("2026-11-01T10:00:00Z")
                .unwrap()
                .into(),
            package_count: packages,
            added,
            removed,
        }
    }

    const BASE: &str =
        "/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/";

    #[test]
    fn versions_are_listed_newest_first_even_with_gaps() {
        let vs = [2, 10, 0, 7].map(|n| version(&format!("{BASE}{n}/"), 1, 0, 0));
        let views = build_version_views(&vs, Badge::Verified, None, 10);
        let labels: Vec<String> = views.iter().map(VersionView::label).collect();
        assert_eq!(labels, ["v10", "v7", "v2", "v0"]);
    }

    #[test]
    fn null_version_sorts_as_zero() {
        let vs = [
            version("/odd/", 0, 0, 0),
            version(&format!("{BASE}3/"), 1, 1, 0),
        ];
        let views = build_version_views(&vs, Badge::Verified, None, 10);
        assert_eq!(views[0].number, Some(VersionNumber::new(3)));
        assert_eq!(views[1].number, None);
        assert_eq!(views[1].label(), "v?");
        assert_eq!(
            newest_first(None, Some(VersionNumber::new(0))),
            Ordering::Equal
        );
    }

    #[test]
    fn change_is_added_minus_removed() {
        let views = build_version_views(
            &[version(&format!("{BASE}4/"), 9, 1, 3)],
            Badge::Verified,
            None,
            10,
        );
        assert_eq!(views[0].change, -2);
    }

    #[test]
    fn rows_name_their_previous_version_and_the_extra_one_is_not_shown() {
        let vs = [7, 9, 4].map(|n| version(&format!("{BASE}{n}/"), 1, 0, 0));
        let views = build_version_views(&vs, Badge::Verified, None, 2);
        let shown: Vec<_> = views.iter().map(|v| (v.label(), v.previous)).collect();
        assert_eq!(
            shown,
            [
                ("v9".to_owned(), Some(VersionNumber::new(7))),
                ("v7".to_owned(), Some(VersionNumber::new(4))),
            ]
        );
        let all = build_version_views(&vs, Badge::Verified, None, 3);
        assert_eq!(all[2].previous, None, "the oldest has none");
    }

    #[test]
    fn signed_change_shows_plus_minus_or_zero() {
        assert_eq!(signed(3), "+3");
        assert_eq!(signed(-2), "\u{2212}2");
        assert_eq!(signed(0), "0");
    }

    #[test]
    fn only_the_deployed_number_is_flagged_deployed() {
        let vs = [1, 2, 3].map(|n| version(&format!("{BASE}{n}/"), 1, 0, 0));
        let views = build_version_views(&vs, Badge::Verified, Some(VersionNumber::new(2)), 10);
        let flags: Vec<bool> = views.iter().map(|v| v.deployed).collect();
        assert_eq!(flags, [false, true, false]);
    }

    #[test]
    fn deploy_is_allowed_only_for_verified_not_deployed_versions() {
        let vs = [1, 2].map(|n| version(&format!("{BASE}{n}/"), 1, 0, 0));
        let verified = build_version_views(&vs, Badge::Verified, Some(VersionNumber::new(2)), 10);
        assert!(verified[1].can_deploy());
        assert!(
            !verified[0].can_deploy(),
            "the deployed version cannot be deployed again"
        );
        for badge in [Badge::Partial, Badge::Unverified] {
            let views = build_version_views(&vs, badge, None, 10);
            assert!(views.iter().all(|v| !v.can_deploy()), "{badge:?}");
        }
    }
}
