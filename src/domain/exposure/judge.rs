//! The judgement of one served version: of its builds of the packages asked about, the
//! newest of each name and arch is what dnf would install, and that build alone is judged.
//! Older builds still served are listed (`older_builds_served`), never judged. Source
//! packages are not installed: they are left out unless asked for by arch.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::domain::diff::{Evr, Package};

use super::query::EvrBound;
use super::state::ExposureState;

/// Arches dnf never installs.
const SOURCE_ARCHES: [&str; 2] = ["src", "nosrc"];

/// An advisory as far as a judgement needs it: its id and the builds its package list names
/// (those that fix it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdvisoryFix {
    pub id: String,
    pub builds: Vec<Package>,
}

impl AdvisoryFix {
    /// The names of the packages it lists, each once.
    pub fn names(&self) -> BTreeSet<&str> {
        self.builds.iter().map(|b| b.name.as_str()).collect()
    }

    /// The build that fixes `name` on `arch`: of that arch, else `noarch`, else the newest of
    /// that name on any arch.
    fn fix_for(&self, name: &str, arch: &str) -> Option<&Evr> {
        let of_name = || self.builds.iter().filter(move |b| b.name == name);
        let newest_of = |arch: Option<&str>| {
            of_name()
                .filter(|b| arch.is_none_or(|a| b.arch == a))
                .map(|b| &b.evr)
                .max_by(|a, b| a.total_cmp(b))
        };
        newest_of(Some(arch))
            .or_else(|| newest_of(Some("noarch")))
            .or_else(|| newest_of(None))
    }
}

/// One cell's answer: its state, the newest build of each name and arch judged (or shown),
/// and the older builds served beside them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Judgement {
    pub state: ExposureState,
    pub packages: Vec<Package>,
    pub older_builds_served: Vec<Package>,
}

impl Judgement {
    /// Nothing served (an environment serving no version of the repository).
    pub fn absent() -> Self {
        Self::nothing_in(ExposureState::Absent)
    }

    /// A question that does not apply to the repository's type (see
    /// [`ExposureState::NotApplicable`]).
    pub fn not_applicable() -> Self {
        Self::nothing_in(ExposureState::NotApplicable)
    }

    fn nothing_in(state: ExposureState) -> Self {
        Self {
            state,
            packages: Vec::new(),
            older_builds_served: Vec::new(),
        }
    }
}

/// The builds of `builds` that `keep` selects, split into the newest of each name and arch
/// and the older ones, each sorted by name, arch and EVR.
fn newest_and_older(
    builds: &[Package],
    keep: impl Fn(&Package) -> bool,
) -> (Vec<Package>, Vec<Package>) {
    let mut by_key: BTreeMap<(&str, &str), Vec<&Package>> = BTreeMap::new();
    for build in builds.iter().filter(|b| keep(b)) {
        by_key
            .entry((build.name.as_str(), build.arch.as_str()))
            .or_default()
            .push(build);
    }
    let (mut newest, mut older) = (Vec::new(), Vec::new());
    for (_, mut same) in by_key {
        same.sort_by(|a, b| a.evr.total_cmp(&b.evr));
        same.dedup();
        if let Some(last) = same.pop() {
            newest.push(last.clone());
        }
        older.extend(same.into_iter().cloned());
    }
    (newest, older)
}

fn installable(build: &Package, arch: Option<&str>) -> bool {
    match arch {
        Some(arch) => build.arch == arch,
        None => !SOURCE_ARCHES.contains(&build.arch.as_str()),
    }
}

/// A package question on one version's builds (of any names: others are ignored): `served`
/// or `absent` without a bound; with one, `affected` where a newest build is below it,
/// `fixed` where every newest build reaches it.
pub fn judge_package(
    builds: &[Package],
    name: &str,
    arch: Option<&str>,
    below: Option<&EvrBound>,
) -> Judgement {
    let (packages, older_builds_served) =
        newest_and_older(builds, |b| b.name == name && installable(b, arch));
    let state = match below {
        _ if packages.is_empty() => ExposureState::Absent,
        None => ExposureState::Served,
        Some(bound) if packages.iter().any(|p| !bound.reached_by(&p.evr)) => {
            ExposureState::Affected
        }
        Some(_) => ExposureState::Fixed,
    };
    Judgement {
        state,
        packages,
        older_builds_served,
    }
}

/// An advisory question (one advisory, or every advisory naming a CVE) on one version's
/// builds: `affected` where, for some advisory the version does not hold, the newest served
/// build of a package it names is older than its fix; `absent` where none of their packages
/// is served; `fixed` otherwise. `held`: the ids of those advisories the version holds.
pub fn judge_advisories(
    builds: &[Package],
    advisories: &[AdvisoryFix],
    held: &BTreeSet<String>,
) -> Judgement {
    let names: BTreeSet<&str> = advisories.iter().flat_map(AdvisoryFix::names).collect();
    let (packages, older_builds_served) = newest_and_older(builds, |b| {
        names.contains(b.name.as_str()) && installable(b, None)
    });
    let affected = advisories
        .iter()
        .filter(|a| !held.contains(&a.id))
        .any(|advisory| {
            packages.iter().any(|served| {
                advisory
                    .fix_for(&served.name, &served.arch)
                    .is_some_and(|fix| served.evr.version_cmp(fix) == Ordering::Less)
            })
        });
    let any_held = advisories.iter().any(|a| held.contains(&a.id));
    let state = if affected {
        ExposureState::Affected
    } else if packages.is_empty() && !any_held {
        ExposureState::Absent
    } else {
        ExposureState::Fixed
    };
    Judgement {
        state,
        packages,
        older_builds_served,
    }
}
