//! Which upstream reads answer the difference between two versions exactly, at the least
//! cost. Measured on a real Pulp with 30,000-package versions
//! (`scripts/bench/realsize/measure_far_apart.py`): the filtered difference (`A AND NOT B`)
//! costs 4–8 s a pair, whatever its size, while what one version added to or removed from
//! its predecessor costs 0.3–0.5 s a version (two requests), and versions never change. So:
//! against an empty side, the other side's plain list; between neighbours, and between
//! versions a few apart, the changes each version in between made, composed; only beyond
//! that the filtered difference each way.

use std::collections::HashMap;
use std::hash::Hash;

use crate::domain::repository::VersionHref;

/// Which of a version's content units to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentRead {
    /// Everything the version holds.
    All,
    /// What the version holds and the other version does not.
    NotIn(VersionHref),
    /// What the version added to the version just before it.
    Added,
    /// What the version just before it held and the version removed.
    Removed,
}

/// One end of a difference: the version, and how many units of the content read it holds
/// when known (a version 0 always holds nothing).
#[derive(Debug, Clone, Copy)]
pub struct DiffEnd<'a> {
    pub href: &'a VersionHref,
    pub count: Option<u64>,
}

impl DiffEnd<'_> {
    fn holds_nothing(&self) -> bool {
        self.count == Some(0) || self.href.number().is_some_and(|n| n.get() == 0)
    }

    fn number(&self) -> Option<u64> {
        self.href.number().map(|n| n.get())
    }
}

/// How the two one-sided parts of a difference are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SideReads {
    /// Each side by one listing (`None`: that side is certainly empty).
    Listed {
        only_new: Option<(VersionHref, ContentRead)>,
        only_old: Option<(VersionHref, ContentRead)>,
    },
    /// Composed from what each of these versions added and removed (oldest first: every
    /// version after the older end, up to the newer end). `backwards` when the difference
    /// goes from the newer version to the older one (a rollback).
    Composed {
        steps: Vec<VersionHref>,
        backwards: bool,
    },
}

/// The reads that give the units only in the new version and only in the old one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffReads {
    pub sides: SideReads,
    /// Both versions hold content, so the builds they share of the names that differ must
    /// be read too (from the new version) to judge the newest build on each side.
    pub shared_from: Option<VersionHref>,
}

/// What one composed step costs upstream, in units of the two versions' sizes: Pulp reads
/// a version's added and removed units in about the time its `AND NOT` filter takes over
/// this many units of the pair (measured with two versions of 30,000 packages: 0.3–0.5 s a
/// step against 4–8 s for the filter, so composing wins up to 14–16 versions apart).
const UNITS_PER_STEP: u64 = 4_000;

/// The most steps composed, whatever the sizes: each costs two requests.
pub const MAX_COMPOSED_STEPS: u64 = 32;

/// The cheapest exact reads of the difference from `old` (none: nothing) to `new`.
pub fn plan_diff_reads(old: Option<DiffEnd<'_>>, new: DiffEnd<'_>) -> DiffReads {
    let read = |end: DiffEnd<'_>, how: ContentRead| Some((end.href.clone(), how));
    let old = old.filter(|o| !o.holds_nothing());
    let Some(old) = old else {
        let only_new = read(new, ContentRead::All).filter(|_| !new.holds_nothing());
        return listed(only_new, None, None);
    };
    if new.holds_nothing() {
        return listed(None, read(old, ContentRead::All), None);
    }
    if let (Some(o), Some(n)) = (old.number(), new.number()) {
        let (low, high) = (o.min(n), o.max(n));
        let steps = high - low;
        let units = old.count.unwrap_or(0) + new.count.unwrap_or(0);
        if steps >= 1
            && (steps == 1 || steps * UNITS_PER_STEP <= units)
            && steps <= MAX_COMPOSED_STEPS
        {
            let later = if n > o { new.href } else { old.href };
            return DiffReads {
                sides: SideReads::Composed {
                    steps: (low + 1..=high).map(|k| numbered(later, k)).collect(),
                    backwards: n < o,
                },
                shared_from: Some(new.href.clone()),
            };
        }
    }
    filtered_reads(old, new)
}

/// The filtered difference each way: exact for any two versions (what a composed plan
/// falls back to when a version between them was deleted).
pub fn filtered_reads(old: DiffEnd<'_>, new: DiffEnd<'_>) -> DiffReads {
    listed(
        Some((new.href.clone(), ContentRead::NotIn(old.href.clone()))),
        Some((old.href.clone(), ContentRead::NotIn(new.href.clone()))),
        Some(new.href.clone()),
    )
}

fn listed(
    only_new: Option<(VersionHref, ContentRead)>,
    only_old: Option<(VersionHref, ContentRead)>,
    shared_from: Option<VersionHref>,
) -> DiffReads {
    DiffReads {
        sides: SideReads::Listed { only_new, only_old },
        shared_from,
    }
}

/// Version `number` of the repository `sibling` is a version of.
fn numbered(sibling: &VersionHref, number: u64) -> VersionHref {
    let text = sibling.as_str().trim_end_matches('/');
    let head = text.rsplit_once('/').map_or(text, |(head, _)| head);
    VersionHref::new(format!("{head}/{number}/"))
}

/// The net change over consecutive versions, from what each one added and removed (oldest
/// first): `(only in the last, only before the first)`, each in the order first met. A unit
/// removed and later put back, or added and later removed, is in neither. Exact because a
/// version holds a unit at most once, so each step adds only what its predecessor lacked
/// and removes only what it held.
pub fn compose_steps<T: Eq + Hash + Clone>(
    steps: impl IntoIterator<Item = (Vec<T>, Vec<T>)>,
) -> (Vec<T>, Vec<T>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Net {
        OnlyNew,
        OnlyOld,
        Neither,
    }
    let mut units: Vec<(T, Net)> = Vec::new();
    let mut index: HashMap<T, usize> = HashMap::new();
    let mut step = |unit: T, arrives: bool| {
        let (toward, cancels) = if arrives {
            (Net::OnlyNew, Net::OnlyOld)
        } else {
            (Net::OnlyOld, Net::OnlyNew)
        };
        match index.get(&unit) {
            Some(&i) => {
                let net = &mut units[i].1;
                *net = if *net == cancels {
                    Net::Neither
                } else {
                    toward
                };
            }
            None => {
                index.insert(unit.clone(), units.len());
                units.push((unit, toward));
            }
        }
    };
    for (added, removed) in steps {
        for unit in removed {
            step(unit, false);
        }
        for unit in added {
            step(unit, true);
        }
    }
    let mut only_new = Vec::new();
    let mut only_old = Vec::new();
    for (unit, net) in units {
        match net {
            Net::OnlyNew => only_new.push(unit),
            Net::OnlyOld => only_old.push(unit),
            Net::Neither => {}
        }
    }
    (only_new, only_old)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn href(n: u64) -> VersionHref {
        VersionHref::new(format!("/pulp/api/v3/repositories/rpm/rpm/r/versions/{n}/"))
    }

    fn end(href: &VersionHref, count: u64) -> DiffEnd<'_> {
        DiffEnd {
            href,
            count: Some(count),
        }
    }

    fn composed(steps: &[u64], backwards: bool, shared_from: u64) -> DiffReads {
        DiffReads {
            sides: SideReads::Composed {
                steps: steps.iter().map(|&n| href(n)).collect(),
                backwards,
            },
            shared_from: Some(href(shared_from)),
        }
    }

    #[test]
    fn against_nothing_the_new_versions_whole_list() {
        let (v0, v3) = (href(0), href(3));
        let expected = listed(Some((v3.clone(), ContentRead::All)), None, None);
        assert_eq!(plan_diff_reads(None, end(&v3, 30_000)), expected);
        let v0_unknown = DiffEnd {
            href: &v0,
            count: None,
        };
        assert_eq!(
            plan_diff_reads(Some(v0_unknown), end(&v3, 30_000)),
            expected,
            "version 0 is always empty"
        );
        let (v2, v7) = (href(2), href(7));
        assert_eq!(
            plan_diff_reads(Some(end(&v2, 0)), end(&v7, 5)),
            listed(Some((v7.clone(), ContentRead::All)), None, None),
            "an emptied version holds nothing whatever its number"
        );
        assert_eq!(plan_diff_reads(None, end(&v0, 0)), listed(None, None, None));
    }

    #[test]
    fn to_an_empty_version_the_old_versions_whole_list() {
        let (v4, v5) = (href(4), href(5));
        assert_eq!(
            plan_diff_reads(Some(end(&v4, 10)), end(&v5, 0)),
            listed(None, Some((v4.clone(), ContentRead::All)), None)
        );
    }

    #[test]
    fn between_neighbours_what_the_later_one_changed_either_way() {
        let (v4, v5) = (href(4), href(5));
        assert_eq!(
            plan_diff_reads(Some(end(&v4, 10)), end(&v5, 11)),
            composed(&[5], false, 5)
        );
        assert_eq!(
            plan_diff_reads(Some(end(&v5, 11)), end(&v4, 10)),
            composed(&[5], true, 4),
            "a rollback by one version"
        );
        let unknown = |href| DiffEnd { href, count: None };
        assert_eq!(
            plan_diff_reads(Some(unknown(&v4)), unknown(&v5)),
            composed(&[5], false, 5),
            "neighbours compose whatever their size"
        );
    }

    #[test]
    fn a_few_versions_apart_the_changes_in_between_composed_when_cheaper() {
        let (v2, v9) = (href(2), href(9));
        assert_eq!(
            plan_diff_reads(Some(end(&v2, 30_000)), end(&v9, 30_044)),
            composed(&[3, 4, 5, 6, 7, 8, 9], false, 9),
            "7 steps cost less than the filter over 60,044 units (15 would too, 16 not)"
        );
        assert_eq!(
            plan_diff_reads(Some(end(&v9, 30_044)), end(&v2, 30_000)),
            composed(&[3, 4, 5, 6, 7, 8, 9], true, 2),
            "a rollback over the same versions"
        );
        assert_eq!(
            plan_diff_reads(Some(end(&v2, 100)), end(&v9, 100)),
            filtered_reads(end(&v2, 100), end(&v9, 100)),
            "small versions: one filter is cheaper than 7 steps"
        );
        let unknown = |href| DiffEnd { href, count: None };
        assert_eq!(
            plan_diff_reads(Some(unknown(&v2)), unknown(&v9)),
            filtered_reads(unknown(&v2), unknown(&v9)),
            "sizes unknown: the filter, whose cost is bounded"
        );
        let (v1, v100) = (href(1), href(100));
        assert_eq!(
            plan_diff_reads(Some(end(&v1, 1_000_000)), end(&v100, 1_000_000)),
            filtered_reads(end(&v1, 1_000_000), end(&v100, 1_000_000)),
            "never more than MAX_COMPOSED_STEPS steps"
        );
    }

    #[test]
    fn far_apart_the_filtered_difference_each_way() {
        let (v2, v9) = (href(2), href(9));
        assert_eq!(
            filtered_reads(end(&v2, 10), end(&v9, 11)),
            listed(
                Some((v9.clone(), ContentRead::NotIn(v2.clone()))),
                Some((v2.clone(), ContentRead::NotIn(v9.clone()))),
                Some(v9.clone()),
            )
        );
        assert_eq!(
            plan_diff_reads(Some(end(&v9, 10)), end(&v9, 10)),
            filtered_reads(end(&v9, 10), end(&v9, 10)),
            "a version against itself is read, and is empty"
        );
    }

    #[test]
    fn a_unit_that_comes_back_cancels_out() {
        let steps = vec![
            (vec!["b"], vec!["a"]),      // v1: +b -a
            (vec!["a", "c"], vec!["b"]), // v2: +a +c -b
            (vec!["d"], vec!["c", "x"]), // v3: +d -c -x
        ];
        assert_eq!(compose_steps(steps), (vec!["d"], vec!["x"]));
    }

    proptest! {
        /// Composing each step's changes equals comparing the first and last sets, as
        /// Pulp's filter does.
        #[test]
        fn composed_steps_equal_the_difference_of_the_ends(
            start in proptest::collection::btree_set(0u8..40, 0..30),
            versions in proptest::collection::vec(proptest::collection::btree_set(0u8..40, 0..30), 1..8),
        ) {
            let mut steps = Vec::new();
            let mut previous = start.clone();
            for version in &versions {
                let added: Vec<u8> = version.difference(&previous).copied().collect();
                let removed: Vec<u8> = previous.difference(version).copied().collect();
                steps.push((added, removed));
                previous = version.clone();
            }
            let last = versions.last().unwrap();
            let (mut only_new, mut only_old) = compose_steps(steps);
            only_new.sort_unstable();
            only_old.sort_unstable();
            prop_assert_eq!(only_new, last.difference(&start).copied().collect::<Vec<_>>());
            prop_assert_eq!(only_old, start.difference(last).copied().collect::<Vec<_>>());
        }
    }
}
