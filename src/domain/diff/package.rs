//! The net package difference between two repository versions, as dnf sees it: for every
//! name and arch whose builds differ, the newest build on each side among **all** the builds
//! of that name and arch in that version (a repository may keep older builds) decides the
//! kind, and the line lists the builds present on one side only. Packages present in both
//! versions are no change, so a package removed in between and added back is not listed.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde::{Deserialize, Serialize};

use crate::domain::diff::Evr;

/// One package build: name, arch and EVR (what upstream identifies it by).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Package {
    pub name: String,
    pub arch: String,
    pub evr: Evr,
}

/// What happened to a package (name and arch) between two versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// No build before, some now.
    Added,
    /// Some builds before, none now.
    Removed,
    /// The newest build went up (or is spelled differently but equal for rpm).
    Upgraded,
    /// The newest build went down.
    Downgraded,
    /// The newest build is the same on both sides: only older builds were added or dropped.
    /// dnf installs the same build.
    OlderBuilds,
}

impl ChangeKind {
    pub const ALL: [ChangeKind; 5] = [
        Self::Added,
        Self::Removed,
        Self::Upgraded,
        Self::Downgraded,
        Self::OlderBuilds,
    ];

    /// The stable hook value (`data-change`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::Removed => "removed",
            Self::Upgraded => "upgraded",
            Self::Downgraded => "downgraded",
            Self::OlderBuilds => "older-builds",
        }
    }

    /// The word shown.
    pub fn label(self) -> &'static str {
        match self {
            Self::OlderBuilds => "older builds",
            other => other.as_str(),
        }
    }

    /// A change dnf sees (the newest build moved, appeared or went away).
    pub fn moves_newest(self) -> bool {
        self != Self::OlderBuilds
    }
}

/// The net change of one package name and arch. `old` holds its builds only in the version
/// production serves, `new` those only in the target, each oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageChange {
    pub name: String,
    pub arch: String,
    pub kind: ChangeKind,
    #[serde(deserialize_with = "crate::domain::diff::exact_vec::exact_vec")]
    pub old: Vec<Evr>,
    #[serde(deserialize_with = "crate::domain::diff::exact_vec::exact_vec")]
    pub new: Vec<Evr>,
    /// Named by a security advisory that the diff adds or drops.
    pub security: bool,
    /// The newest build both versions hold, when it is the newest on a side that has no
    /// build of its own (a newer build added beside it, or the newest dropped down to it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<Evr>,
}

impl PackageChange {
    /// The newest build production's side has: its own newest, or the kept one.
    pub fn old_newest(&self) -> Option<&Evr> {
        newest(self.old.last(), self.kept.as_ref())
    }

    /// The newest build the target's side has: its own newest, or the kept one.
    pub fn new_newest(&self) -> Option<&Evr> {
        newest(self.new.last(), self.kept.as_ref())
    }
}

/// The packages that differ between two versions, and the builds both versions hold of the
/// names that differ (among which the newest build on each side is judged).
#[derive(Debug, Clone, Default)]
pub struct PackageDifference {
    /// Builds in the new version only.
    pub only_new: Vec<Package>,
    /// Builds in the old version only.
    pub only_old: Vec<Package>,
    /// Builds in both versions, of at least every name in `only_new` or `only_old` (builds
    /// of other names are ignored). Empty when one side is empty.
    pub shared: Vec<Package>,
}

impl PackageDifference {
    /// From the one-sided builds and every build the new version holds of the names they
    /// touch (`new_builds`, as read upstream; builds of other names are ignored).
    pub fn from_new_builds(
        only_new: Vec<Package>,
        only_old: Vec<Package>,
        new_builds: Vec<Package>,
    ) -> Self {
        let added: HashSet<&Package> = only_new.iter().collect();
        let shared = new_builds
            .into_iter()
            .filter(|p| !added.contains(p))
            .collect();
        Self {
            only_new,
            only_old,
            shared,
        }
    }

    /// The package names whose builds differ, each once, in order: the names whose other
    /// builds must be read to judge the newest on each side.
    pub fn touched_names(only_new: &[Package], only_old: &[Package]) -> Vec<String> {
        let names: BTreeSet<&str> = only_new
            .iter()
            .chain(only_old)
            .map(|p| p.name.as_str())
            .collect();
        names.into_iter().map(str::to_owned).collect()
    }
}

/// One name and arch: its builds on one side only, and the newest build both sides hold.
#[derive(Default)]
struct Sides {
    old: Vec<Evr>,
    new: Vec<Evr>,
    newest_shared: Option<Evr>,
}

/// Pairs the one-sided builds by (name, arch); the kind compares the newest build on each
/// side, one-sided and shared builds alike, as dnf would pick it (rpm-equal builds spelled
/// differently count as upgraded). Sorted with packages in `security_names` first, then by
/// name and arch.
pub fn diff_packages(
    difference: PackageDifference,
    security_names: &HashSet<String>,
) -> Vec<PackageChange> {
    let mut by_key: BTreeMap<(String, String), Sides> = BTreeMap::new();
    for p in difference.only_old {
        by_key.entry((p.name, p.arch)).or_default().old.push(p.evr);
    }
    for p in difference.only_new {
        by_key.entry((p.name, p.arch)).or_default().new.push(p.evr);
    }
    for p in difference.shared {
        if let Some(sides) = by_key.get_mut(&(p.name, p.arch)) {
            sides.newest_shared = newer(sides.newest_shared.take(), p.evr);
        }
    }
    let mut changes: Vec<PackageChange> = by_key
        .into_iter()
        .map(|((name, arch), mut sides)| {
            sides.old.sort_by(Evr::total_cmp);
            sides.new.sort_by(Evr::total_cmp);
            let shared = sides.newest_shared.as_ref();
            let kind = kind_of(
                newest(sides.old.last(), shared),
                newest(sides.new.last(), shared),
            );
            let security = security_names.contains(&name);
            // The kept build matters where a side has none of its own, or is older than it.
            let kept = sides.newest_shared.filter(|_| kind.moves_newest());
            PackageChange {
                name,
                arch,
                kind,
                old: sides.old,
                new: sides.new,
                security,
                kept,
            }
        })
        .collect();
    changes.sort_by(security_first);
    changes
}

fn newer(held: Option<Evr>, candidate: Evr) -> Option<Evr> {
    match held {
        Some(held) if held.total_cmp(&candidate) != Ordering::Less => Some(held),
        _ => Some(candidate),
    }
}

fn newest<'a>(a: Option<&'a Evr>, b: Option<&'a Evr>) -> Option<&'a Evr> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if a.total_cmp(b) == Ordering::Less {
            b
        } else {
            a
        }),
        (a, b) => a.or(b),
    }
}

/// Security-relevant first, then by name and arch.
fn security_first(a: &PackageChange, b: &PackageChange) -> Ordering {
    b.security
        .cmp(&a.security)
        .then_with(|| a.name.cmp(&b.name))
        .then_with(|| a.arch.cmp(&b.arch))
}

/// The kind from the newest build on each side. A key is only here when its builds differ,
/// so two identical newest builds mean the difference is below them.
fn kind_of(old: Option<&Evr>, new: Option<&Evr>) -> ChangeKind {
    match (old, new) {
        (None, _) => ChangeKind::Added,
        (Some(_), None) => ChangeKind::Removed,
        (Some(old), Some(new)) if old == new => ChangeKind::OlderBuilds,
        (Some(old), Some(new)) => match new.version_cmp(old) {
            Ordering::Less => ChangeKind::Downgraded,
            Ordering::Equal | Ordering::Greater => ChangeKind::Upgraded,
        },
    }
}

/// How many changes of each kind, in [`ChangeKind::ALL`] order.
pub fn count_kinds(changes: &[PackageChange]) -> [(ChangeKind, usize); 5] {
    let mut counts = ChangeKind::ALL.map(|kind| (kind, 0));
    for change in changes {
        if let Some((_, n)) = counts.iter_mut().find(|(k, _)| *k == change.kind) {
            *n += 1;
        }
    }
    counts
}

#[cfg(test)]
#[path = "package_tests.rs"]
mod tests;
