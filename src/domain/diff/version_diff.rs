//! What a deploy (or any pair of versions) changes: packages and advisories.

use serde::{Deserialize, Serialize};

use crate::domain::content::Advisories;
use crate::domain::diff::{
    diff_packages, Advisory, AdvisoryDiff, PackageChange, PackageDifference,
};

/// The content only in one version and only in the other, as upstream answers it: the
/// packages, and the advisories when the repository's type carries them.
#[derive(Debug, Clone)]
pub struct ContentDifference {
    pub packages: PackageDifference,
    pub advisories: Advisories<AdvisorySides>,
}

/// The advisories only in the new version and only in the old one.
#[derive(Debug, Clone, Default)]
pub struct AdvisorySides {
    pub only_new: Vec<Advisory>,
    pub only_old: Vec<Advisory>,
}

/// The net difference from one version (`old`, e.g. production's) to another (`new`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionDiff {
    /// Security-relevant first, then by name.
    pub packages: Vec<PackageChange>,
    pub advisories: AdvisoryDiff,
}

impl VersionDiff {
    pub fn new(content: ContentDifference) -> Self {
        // A type without advisories changes none: its diff's advisories stay empty, and
        // pages say why from the repository's type.
        let advisories = content
            .advisories
            .carried()
            .map(|sides| AdvisoryDiff::new(sides.only_new, sides.only_old))
            .unwrap_or_default();
        let security = advisories.security_packages();
        let packages = diff_packages(content.packages, &security);
        Self {
            packages,
            advisories,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.packages.is_empty() && self.advisories.is_empty()
    }
}

/// Which diff: from which version (none: an empty repository) to which. A version's href
/// names its repository's uuid, so a key is unique across one Pulp; versions never change,
/// so neither does the diff a key names.
pub type DiffKey = (
    Option<crate::domain::repository::VersionHref>,
    crate::domain::repository::VersionHref,
);

impl VersionDiff {
    /// Gives back the spare capacity of every list it holds (a list built by pushing, or
    /// read from JSON, keeps room for 4 builds where most changes hold one, 3 × 56 bytes
    /// lost): a diff kept in memory costs what it holds.
    pub fn shrink_to_fit(&mut self) {
        self.packages.shrink_to_fit();
        for change in &mut self.packages {
            change.old.shrink_to_fit();
            change.new.shrink_to_fit();
        }
        let a = &mut self.advisories;
        for list in [&mut a.added, &mut a.dropped, &mut a.updated] {
            list.shrink_to_fit();
            for advisory in list.iter_mut() {
                advisory.packages.shrink_to_fit();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::{AdvisoryType, ChangeKind, Evr, Package};

    #[test]
    fn packages_named_by_a_changed_security_advisory_sort_first() {
        let pkg = |name: &str, v: &str| Package {
            name: name.into(),
            arch: "noarch".into(),
            evr: Evr::new(0, v, "1"),
        };
        let diff = VersionDiff::new(ContentDifference {
            packages: PackageDifference {
                only_new: vec![pkg("aaa", "1"), pkg("zzz", "2")],
                only_old: vec![pkg("zzz", "1")],
                shared: vec![],
            },
            advisories: Advisories::Carried(AdvisorySides {
                only_new: vec![Advisory {
                    id: "RC-SA-1".into(),
                    kind: AdvisoryType::Security,
                    severity: Some("Critical".into()),
                    title: "zzz fix".into(),
                    packages: vec!["zzz".into()],
                }],
                only_old: vec![],
            }),
        });
        let order: Vec<_> = diff
            .packages
            .iter()
            .map(|c| (c.name.as_str(), c.kind))
            .collect();
        assert_eq!(
            order,
            [("zzz", ChangeKind::Upgraded), ("aaa", ChangeKind::Added)]
        );
        assert!(!diff.is_empty() && !diff.advisories.drops_security());
        assert!(VersionDiff::default().is_empty());
        let json = serde_json::to_string(&diff).unwrap();
        let back: VersionDiff = serde_json::from_str(&json).unwrap();
        assert_eq!(back, diff, "read back as written");
    }
}
