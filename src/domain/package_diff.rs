//! The net package difference between two repository versions: from the packages only in
//! the target and those only in the other version, paired by (name, arch) into added,
//! removed, upgraded and downgraded. Packages present in both versions are no change, so a
//! package removed in between and added back is not listed.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use super::evr::Evr;

/// One package build: name, arch and EVR (what upstream identifies it by).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Package {
    pub name: String,
    pub arch: String,
    pub evr: Evr,
}

/// What happened to a package (name and arch) between two versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Removed,
    Upgraded,
    Downgraded,
}

impl ChangeKind {
    pub const ALL: [ChangeKind; 4] = [Self::Added, Self::Removed, Self::Upgraded, Self::Downgraded];

    /// The stable hook value (`data-change`) and the word shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::Removed => "removed",
            Self::Upgraded => "upgraded",
            Self::Downgraded => "downgraded",
        }
    }
}

/// The net change of one package name and arch. `old` holds its builds only in the version
/// production serves, `new` those only in the target, each oldest first (a repository may
/// hold several builds of one package).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageChange {
    pub name: String,
    pub arch: String,
    pub kind: ChangeKind,
    #[serde(deserialize_with = "super::exact_vec::exact_vec")]
    pub old: Vec<Evr>,
    #[serde(deserialize_with = "super::exact_vec::exact_vec")]
    pub new: Vec<Evr>,
    /// Named by a security advisory that the diff adds or drops.
    pub security: bool,
}

/// Pairs the packages only in the target (`only_new`) with those only in the other version
/// (`only_old`) by (name, arch). The kind compares the newest build on each side, as dnf
/// would pick it (rpm-equal builds spelled differently count as upgraded). Sorted with
/// packages in `security_names` first, then by name and arch.
pub fn diff_packages(
    only_new: Vec<Package>,
    only_old: Vec<Package>,
    security_names: &HashSet<String>,
) -> Vec<PackageChange> {
    type Sides = (Vec<Evr>, Vec<Evr>);
    let mut by_key: BTreeMap<(String, String), Sides> = BTreeMap::new();
    for p in only_old {
        by_key.entry((p.name, p.arch)).or_default().0.push(p.evr);
    }
    for p in only_new {
        by_key.entry((p.name, p.arch)).or_default().1.push(p.evr);
    }
    let mut changes: Vec<PackageChange> = by_key
        .into_iter()
        .map(|((name, arch), (mut old, mut new))| {
            old.sort_by(Evr::rpm_cmp);
            new.sort_by(Evr::rpm_cmp);
            let kind = kind_of(old.last(), new.last());
            let security = security_names.contains(&name);
            PackageChange {
                name,
                arch,
                kind,
                old,
                new,
                security,
            }
        })
        .collect();
    changes.sort_by(security_first);
    changes
}

/// Security-relevant first, then by name and arch.
fn security_first(a: &PackageChange, b: &PackageChange) -> Ordering {
    b.security
        .cmp(&a.security)
        .then_with(|| a.name.cmp(&b.name))
        .then_with(|| a.arch.cmp(&b.arch))
}

fn kind_of(old: Option<&Evr>, new: Option<&Evr>) -> ChangeKind {
    match (old, new) {
        (None, _) => ChangeKind::Added,
        (Some(_), None) => ChangeKind::Removed,
        (Some(old), Some(new)) => match new.rpm_cmp(old) {
            Ordering::Less => ChangeKind::Downgraded,
            Ordering::Equal | Ordering::Greater => ChangeKind::Upgraded,
        },
    }
}

/// How many changes of each kind, in [`ChangeKind::ALL`] order.
pub fn count_kinds(changes: &[PackageChange]) -> [(ChangeKind, usize); 4] {
    ChangeKind::ALL.map(|kind| (kind, changes.iter().filter(|c| c.kind == kind).count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg(name: &str, version: &str) -> Package {
        Package {
            name: name.into(),
            arch: "x86_64".into(),
            evr: Evr::new(0, version, "1"),
        }
    }

    fn shown(changes: &[PackageChange]) -> Vec<String> {
        let evrs = |v: &[Evr]| v.iter().map(Evr::to_string).collect::<Vec<_>>().join(",");
        changes
            .iter()
            .map(|c| {
                let (old, new) = (evrs(&c.old), evrs(&c.new));
                format!("{} {} {old}>{new}", c.kind.as_str(), c.name)
            })
            .collect()
    }

    #[test]
    fn pairs_by_name_into_the_four_kinds() {
        let changes = diff_packages(
            vec![pkg("acme-a", "1"), pkg("acme-c", "2"), pkg("acme-d", "1")],
            vec![
                pkg("acme-b", "1"),
                pkg("acme-c", "1"),
                pkg("acme-d", "1.10"),
            ],
            &HashSet::new(),
        );
        assert_eq!(
            shown(&changes),
            [
                "added acme-a >1-1",
                "removed acme-b 1-1>",
                "upgraded acme-c 1-1>2-1",
                "downgraded acme-d 1.10-1>1-1"
            ]
        );
        let counts = count_kinds(&changes);
        assert!(counts.iter().all(|(_, n)| *n == 1), "{counts:?}");
    }

    #[test]
    fn the_same_name_on_another_arch_is_another_package() {
        let mut i686 = pkg("glibc", "2");
        i686.arch = "i686".into();
        let changes = diff_packages(vec![i686], vec![pkg("glibc", "1")], &HashSet::new());
        let kinds: Vec<_> = changes.iter().map(|c| (c.kind, c.arch.as_str())).collect();
        assert_eq!(
            kinds,
            [(ChangeKind::Added, "i686"), (ChangeKind::Removed, "x86_64")]
        );
    }

    #[test]
    fn the_newest_build_on_each_side_decides_and_every_build_is_kept() {
        let changes = diff_packages(
            vec![pkg("hello", "1.10"), pkg("hello", "1.9")],
            vec![pkg("hello", "1.2")],
            &HashSet::new(),
        );
        assert_eq!(shown(&changes), ["upgraded hello 1.2-1>1.9-1,1.10-1"]);
    }

    #[test]
    fn security_relevant_packages_come_first_then_names() {
        let security = HashSet::from(["zlib".to_owned()]);
        let changes = diff_packages(
            vec![pkg("zlib", "2"), pkg("bash", "2"), pkg("acl", "1")],
            vec![pkg("zlib", "1")],
            &security,
        );
        let order: Vec<_> = changes
            .iter()
            .map(|c| (c.name.as_str(), c.security))
            .collect();
        assert_eq!(order, [("zlib", true), ("acl", false), ("bash", false)]);
    }

    #[test]
    fn no_difference_is_no_change() {
        assert!(diff_packages(vec![], vec![], &HashSet::new()).is_empty());
    }
}
