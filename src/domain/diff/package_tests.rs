//! The package diff's rule, by example and against a model of dnf's view computed from the
//! two versions' whole package sets.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use proptest::prelude::*;

use super::*;
use crate::domain::diff::parse_kind;

fn pkg(name: &str, version: &str) -> Package {
    Package {
        name: name.into(),
        arch: "x86_64".into(),
        evr: Evr::new(0, version, "1"),
    }
}

fn one_sided(only_new: Vec<Package>, only_old: Vec<Package>) -> PackageDifference {
    PackageDifference {
        only_new,
        only_old,
        shared: vec![],
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
        one_sided(
            vec![pkg("acme-a", "1"), pkg("acme-c", "2"), pkg("acme-d", "1")],
            vec![
                pkg("acme-b", "1"),
                pkg("acme-c", "1"),
                pkg("acme-d", "1.10"),
            ],
        ),
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
    assert!(
        counts
            .iter()
            .all(|(k, n)| *n == usize::from(k.moves_newest())),
        "{counts:?}"
    );
}

fn deb(name: &str, version: &str) -> Package {
    let version = crate::domain::content::deb::version::DebVersion::parse(version).unwrap();
    Package {
        name: name.into(),
        arch: "all".into(),
        evr: Evr::debian(&version),
    }
}

#[test]
fn debian_packages_are_told_up_from_down_in_dpkg_s_order() {
    let changes = diff_packages(
        one_sided(
            vec![
                deb("epoch", "1:0.9-1"),
                deb("tilde", "2.0~rc1-1"),
                deb("binnmu", "2.0-1+b1"),
                deb("separators", "1.0+1"),
            ],
            vec![
                deb("epoch", "2.0-1"),
                deb("tilde", "2.0-1"),
                deb("binnmu", "2.0-1"),
                deb("separators", "1.0.1"),
            ],
        ),
        &HashSet::new(),
    );
    assert_eq!(
        shown(&changes),
        [
            "upgraded binnmu 2.0-1>2.0-1+b1",
            "upgraded epoch 2.0-1>1:0.9-1",
            // rpm holds these equal (both read 1, 0, 1); dpkg sorts "+" before ".".
            "downgraded separators 1.0.1>1.0+1",
            "downgraded tilde 2.0-1>2.0~rc1-1",
        ]
    );
    let rpm = |v: &str| Evr::new(0, v, "1");
    assert_eq!(rpm("1.0+1").rpm_cmp(&rpm("1.0.1")), Ordering::Equal);
}

#[test]
fn the_same_name_on_another_arch_is_another_package() {
    let mut i686 = pkg("glibc", "2");
    i686.arch = "i686".into();
    let changes = diff_packages(
        one_sided(vec![i686], vec![pkg("glibc", "1")]),
        &HashSet::new(),
    );
    let kinds: Vec<_> = changes.iter().map(|c| (c.kind, c.arch.as_str())).collect();
    assert_eq!(
        kinds,
        [(ChangeKind::Added, "i686"), (ChangeKind::Removed, "x86_64")]
    );
}

#[test]
fn the_newest_build_on_each_side_decides_and_every_one_sided_build_is_listed() {
    let changes = diff_packages(
        one_sided(
            vec![pkg("hello", "1.10"), pkg("hello", "1.9")],
            vec![pkg("hello", "1.2")],
        ),
        &HashSet::new(),
    );
    assert_eq!(shown(&changes), ["upgraded hello 1.2-1>1.9-1,1.10-1"]);
}

#[test]
fn a_newer_build_added_beside_kept_builds_is_an_upgrade() {
    let changes = diff_packages(
        PackageDifference {
            only_new: vec![pkg("foo", "3")],
            only_old: vec![],
            shared: vec![pkg("foo", "1"), pkg("foo", "2"), pkg("other", "9")],
        },
        &HashSet::new(),
    );
    assert_eq!(shown(&changes), ["upgraded foo >3-1"]);
    assert_eq!(
        changes[0].kept,
        Some(Evr::new(0, "2", "1")),
        "what it upgrades from"
    );
    assert_eq!(changes[0].old_newest(), Some(&Evr::new(0, "2", "1")));
}

#[test]
fn dropping_only_the_newest_build_is_a_downgrade_to_the_kept_one() {
    let changes = diff_packages(
        PackageDifference {
            only_new: vec![],
            only_old: vec![pkg("foo", "3")],
            shared: vec![pkg("foo", "2")],
        },
        &HashSet::new(),
    );
    assert_eq!(shown(&changes), ["downgraded foo 3-1>"]);
}

#[test]
fn older_builds_changing_below_the_same_newest_build_are_not_a_change_dnf_sees() {
    let changes = diff_packages(
        PackageDifference {
            only_new: vec![pkg("bar", "0.9")],
            only_old: vec![pkg("foo", "1")],
            shared: vec![pkg("foo", "2"), pkg("bar", "1")],
        },
        &HashSet::new(),
    );
    assert_eq!(
        shown(&changes),
        ["older-builds bar >0.9-1", "older-builds foo 1-1>"]
    );
    assert!(changes.iter().all(|c| !c.kind.moves_newest()));
    assert_eq!(count_kinds(&changes)[4], (ChangeKind::OlderBuilds, 2));
}

#[test]
fn shared_builds_come_from_what_the_new_version_holds_of_the_touched_names() {
    let only_new = vec![pkg("foo", "3")];
    let difference = PackageDifference::from_new_builds(
        only_new.clone(),
        vec![pkg("foo", "2")],
        vec![pkg("foo", "1"), pkg("foo", "3")],
    );
    assert_eq!(difference.shared, [pkg("foo", "1")]);
    assert_eq!(
        PackageDifference::touched_names(&only_new, &[pkg("bar", "1"), pkg("foo", "1")]),
        ["bar", "foo"]
    );
}

#[test]
fn security_relevant_packages_come_first_then_names() {
    let security = HashSet::from(["zlib".to_owned()]);
    let changes = diff_packages(
        one_sided(
            vec![pkg("zlib", "2"), pkg("bash", "2"), pkg("acl", "1")],
            vec![pkg("zlib", "1")],
        ),
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
    assert!(diff_packages(PackageDifference::default(), &HashSet::new()).is_empty());
}

#[test]
fn kinds_read_back_from_their_hook_values() {
    for kind in ChangeKind::ALL {
        assert_eq!(parse_kind(Some(kind.as_str())), Ok(Some(kind)));
    }
    assert!(parse_kind(Some("changed")).is_err());
    assert_eq!(ChangeKind::OlderBuilds.label(), "older builds");
}

// The model: dnf's view of each version, computed from its whole package set.

type Key = (String, String);

/// The newest build of each name and arch in a whole version.
fn dnf_view(version: &HashSet<Package>) -> BTreeMap<Key, Evr> {
    let mut view: BTreeMap<Key, Evr> = BTreeMap::new();
    for p in version {
        let key = (p.name.clone(), p.arch.clone());
        let newer = view
            .get(&key)
            .is_none_or(|held| p.evr.total_cmp(held) == Ordering::Greater);
        if newer {
            view.insert(key, p.evr.clone());
        }
    }
    view
}

/// What dnf sees change for one name and arch: `None` when its newest build is the same.
fn dnf_kind(old: Option<&Evr>, new: Option<&Evr>) -> Option<ChangeKind> {
    match (old, new) {
        (None, None) => None,
        (None, Some(_)) => Some(ChangeKind::Added),
        (Some(_), None) => Some(ChangeKind::Removed),
        (Some(o), Some(n)) if o == n => None,
        (Some(o), Some(n)) if n.rpm_cmp(o) == Ordering::Less => Some(ChangeKind::Downgraded),
        _ => Some(ChangeKind::Upgraded),
    }
}

fn builds_of(set: &HashSet<&Package>, key: &Key) -> Vec<Evr> {
    let mut evrs: Vec<Evr> = set
        .iter()
        .filter(|p| p.name == key.0 && p.arch == key.1)
        .map(|p| p.evr.clone())
        .collect();
    evrs.sort_by(Evr::total_cmp);
    evrs
}

/// A version: up to 12 builds over 3 names, 2 arches and a few EVRs (epochs, rpm-equal
/// spellings such as `1.0` and `1.00`, tildes), so that names keep several builds.
fn version_set() -> impl Strategy<Value = HashSet<Package>> {
    let name = prop::sample::select(vec!["foo", "bar", "baz"]);
    let arch = prop::sample::select(vec!["x86_64", "noarch"]);
    let version = prop::sample::select(vec!["1.0", "1.00", "1.1", "2", "2~rc1", "10"]);
    let build = (name, arch, 0u64..2, version, 1u8..3).prop_map(|(n, a, e, v, r)| Package {
        name: n.into(),
        arch: a.into(),
        evr: Evr::new(e, v, r.to_string()),
    });
    prop::collection::hash_set(build, 0..12)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn kinds_are_dnfs_view_of_the_whole_versions(old in version_set(), new in version_set()) {
        let only_new: Vec<Package> = new.difference(&old).cloned().collect();
        let only_old: Vec<Package> = old.difference(&new).cloned().collect();
        let touched = PackageDifference::touched_names(&only_new, &only_old);
        // What the console reads upstream: the new version's builds of the touched names.
        let new_builds: Vec<Package> =
            new.iter().filter(|p| touched.contains(&p.name)).cloned().collect();
        let changes = diff_packages(
            PackageDifference::from_new_builds(only_new, only_old, new_builds),
            &HashSet::new(),
        );

        let (old_view, new_view) = (dnf_view(&old), dnf_view(&new));
        let only_old: HashSet<&Package> = old.difference(&new).collect();
        let only_new: HashSet<&Package> = new.difference(&old).collect();
        let keys: BTreeSet<Key> = only_old
            .iter()
            .chain(&only_new)
            .map(|p| (p.name.clone(), p.arch.clone()))
            .collect();
        // One line per name and arch whose builds differ, no other.
        let lines: Vec<Key> = changes.iter().map(|c| (c.name.clone(), c.arch.clone())).collect();
        prop_assert_eq!(lines.iter().cloned().collect::<BTreeSet<_>>(), keys.clone());
        prop_assert_eq!(lines.len(), keys.len());
        for change in &changes {
            let key = (change.name.clone(), change.arch.clone());
            let expected = dnf_kind(old_view.get(&key), new_view.get(&key))
                .unwrap_or(ChangeKind::OlderBuilds);
            prop_assert_eq!(change.kind, expected, "{:?}", key);
            if change.kind.moves_newest() {
                prop_assert_eq!(change.old_newest(), old_view.get(&key), "{:?}", key);
                prop_assert_eq!(change.new_newest(), new_view.get(&key), "{:?}", key);
            }
            prop_assert_eq!(&change.old, &builds_of(&only_old, &key));
            prop_assert_eq!(&change.new, &builds_of(&only_new, &key));
        }
        // The counts of the kinds dnf sees are dnf's.
        let all_keys: BTreeSet<&Key> = old_view.keys().chain(new_view.keys()).collect();
        for kind in ChangeKind::ALL.into_iter().filter(|k| k.moves_newest()) {
            let model = all_keys
                .iter()
                .filter(|k| dnf_kind(old_view.get(**k), new_view.get(**k)) == Some(kind))
                .count();
            let counted = count_kinds(&changes).iter().find(|(k, _)| *k == kind).unwrap().1;
            prop_assert_eq!(counted, model, "{:?}", kind);
        }
    }
}
