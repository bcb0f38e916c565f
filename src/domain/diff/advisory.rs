//! Advisories (errata) and what a deploy adds or drops of them.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

/// An advisory's type, as pulp_rpm names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AdvisoryType {
    Security,
    Bugfix,
    Enhancement,
    /// Any other type upstream holds (e.g. `newpackage`), kept verbatim.
    Other(String),
}

impl AdvisoryType {
    pub fn parse(raw: &str) -> Self {
        match raw.trim().to_ascii_lowercase().as_str() {
            "security" => Self::Security,
            "bugfix" => Self::Bugfix,
            "enhancement" => Self::Enhancement,
            _ => Self::Other(raw.trim().to_owned()),
        }
    }

    /// The stable hook value (`data-advisory-type`) and the word shown.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Security => "security",
            Self::Bugfix => "bugfix",
            Self::Enhancement => "enhancement",
            Self::Other(raw) => raw,
        }
    }
}

/// One advisory: what an operator reads about it, and the packages it names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Advisory {
    pub id: String,
    pub kind: AdvisoryType,
    /// Upstream's severity (`Critical`, `Important`…); absent or blank when it has none.
    pub severity: Option<String>,
    pub title: String,
    /// Names of the packages it lists.
    pub packages: Vec<String>,
}

/// The advisories the target holds that production's version does not (`added`), and the
/// reverse (`dropped`). An advisory whose id is on both sides was re-issued (`updated`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdvisoryDiff {
    pub added: Vec<Advisory>,
    pub dropped: Vec<Advisory>,
    pub updated: Vec<Advisory>,
}

impl AdvisoryDiff {
    /// From the advisories only in the target and only in the other version; each list is
    /// sorted security first, then by id.
    pub fn new(only_new: Vec<Advisory>, only_old: Vec<Advisory>) -> Self {
        let old_ids: HashSet<String> = only_old.iter().map(|a| a.id.clone()).collect();
        let new_ids: HashSet<String> = only_new.iter().map(|a| a.id.clone()).collect();
        let (mut updated, mut added): (Vec<_>, Vec<_>) =
            only_new.into_iter().partition(|a| old_ids.contains(&a.id));
        let mut dropped: Vec<_> = only_old
            .into_iter()
            .filter(|a| !new_ids.contains(&a.id))
            .collect();
        for list in [&mut added, &mut dropped, &mut updated] {
            list.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.id.cmp(&b.id)));
        }
        Self {
            added,
            dropped,
            updated,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.dropped.is_empty() && self.updated.is_empty()
    }

    /// A regression: the deploy takes away a security advisory production has now.
    pub fn drops_security(&self) -> bool {
        self.dropped
            .iter()
            .any(|a| a.kind == AdvisoryType::Security)
    }

    /// The names of packages listed by the security advisories added or dropped.
    pub fn security_packages(&self) -> HashSet<String> {
        self.added
            .iter()
            .chain(&self.dropped)
            .chain(&self.updated)
            .filter(|a| a.kind == AdvisoryType::Security)
            .flat_map(|a| a.packages.iter().cloned())
            .collect()
    }
}

/// Counts by type, in words: "2 security, 1 bugfix" (security first); "none" when empty.
pub fn count_by_type(advisories: &[Advisory]) -> String {
    let mut counts: HashMap<&AdvisoryType, usize> = HashMap::new();
    for a in advisories {
        *counts.entry(&a.kind).or_default() += 1;
    }
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort();
    if counts.is_empty() {
        return "none".to_owned();
    }
    counts
        .iter()
        .map(|(kind, n)| format!("{n} {}", kind.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn advisory(id: &str, kind: &str, packages: &[&str]) -> Advisory {
        Advisory {
            id: id.into(),
            kind: AdvisoryType::parse(kind),
            severity: None,
            title: format!("{id} title"),
            packages: packages.iter().map(|p| (*p).to_owned()).collect(),
        }
    }

    #[test]
    fn counts_by_type_security_first() {
        let list = [
            advisory("B-1", "bugfix", &[]),
            advisory("S-1", "security", &[]),
            advisory("S-2", "Security", &[]),
            advisory("N-1", "newpackage", &[]),
        ];
        assert_eq!(count_by_type(&list), "2 security, 1 bugfix, 1 newpackage");
        assert_eq!(count_by_type(&[]), "none");
    }

    #[test]
    fn dropping_a_security_advisory_is_a_regression_and_adding_one_is_not() {
        let adds = AdvisoryDiff::new(vec![advisory("S-1", "security", &["zlib"])], vec![]);
        assert!(!adds.drops_security());
        assert_eq!(adds.security_packages(), HashSet::from(["zlib".to_owned()]));
        let drops = AdvisoryDiff::new(vec![], vec![advisory("S-1", "security", &[])]);
        assert!(drops.drops_security());
        let bugfix = AdvisoryDiff::new(vec![], vec![advisory("B-1", "bugfix", &["bash"])]);
        assert!(!bugfix.drops_security());
        assert!(bugfix.security_packages().is_empty());
    }

    #[test]
    fn an_id_on_both_sides_is_an_update_not_an_add_and_a_drop() {
        let diff = AdvisoryDiff::new(
            vec![
                advisory("S-1", "security", &[]),
                advisory("E-1", "enhancement", &[]),
            ],
            vec![advisory("S-1", "security", &[])],
        );
        let ids = |l: &[Advisory]| l.iter().map(|a| a.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&diff.added), ["E-1"]);
        assert_eq!(ids(&diff.updated), ["S-1"]);
        assert!(diff.dropped.is_empty() && !diff.drops_security());
    }
}
