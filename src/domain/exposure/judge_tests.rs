use std::collections::BTreeSet;

use super::judge::{judge_advisories, judge_package, AdvisoryFix};
use super::query::EvrBound;
use super::state::ExposureState::{self, *};
use crate::domain::diff::{Evr, Package};

fn build(name: &str, arch: &str, epoch: u64, version: &str, release: &str) -> Package {
    Package {
        name: name.into(),
        arch: arch.into(),
        evr: Evr::new(epoch, version, release),
    }
}

fn below(text: &str) -> EvrBound {
    EvrBound::parse(text).unwrap()
}

fn state_for(builds: &[Package], bound: &str) -> ExposureState {
    judge_package(builds, "openssl", None, Some(&below(bound))).state
}

#[test]
fn without_a_bound_a_package_is_served_or_absent() {
    let builds = [
        build("openssl", "x86_64", 0, "3.0.7", "1"),
        build("bash", "x86_64", 0, "5", "1"),
    ];
    let served = judge_package(&builds, "openssl", None, None);
    assert_eq!(served.state, Served);
    assert_eq!(served.packages, [builds[0].clone()]);
    assert_eq!(judge_package(&builds, "zlib", None, None).state, Absent);
    assert_eq!(
        judge_package(&builds, "openssl", Some("aarch64"), None).state,
        Absent
    );
}

#[test]
fn epochs_decide_before_versions_as_rpm_does() {
    let epoch_one = [build("openssl", "x86_64", 1, "1.0", "1")];
    assert_eq!(
        state_for(&epoch_one, "3.0.7"),
        Fixed,
        "1:1.0 is above 0:3.0.7"
    );
    assert_eq!(
        state_for(&epoch_one, "2:0.1"),
        Affected,
        "1:1.0 is below 2:0.1"
    );
    let tilde = [build("openssl", "x86_64", 0, "3.0.7~rc2", "1")];
    assert_eq!(
        state_for(&tilde, "3.0.7"),
        Affected,
        "a pre-release is older"
    );
    let caret = [build("openssl", "x86_64", 0, "3.0.7^20260101", "1")];
    assert_eq!(
        state_for(&caret, "3.0.7"),
        Fixed,
        "a snapshot after is newer"
    );
    assert_eq!(state_for(&caret, "3.0.8"), Affected);
    let release = [build("openssl", "x86_64", 0, "3.0.7", "24.el9")];
    assert_eq!(state_for(&release, "3.0.7-25.el9"), Affected);
    assert_eq!(
        state_for(&release, "3.0.7"),
        Fixed,
        "no release in the bound: not compared"
    );
}

#[test]
fn the_newest_build_of_a_name_is_judged_and_older_ones_listed() {
    let builds = [
        build("openssl", "x86_64", 0, "3.0.1", "1"),
        build("openssl", "x86_64", 0, "3.0.9", "1"),
        build("openssl", "x86_64", 0, "3.0.5", "1"),
    ];
    let judged = judge_package(&builds, "openssl", None, Some(&below("3.0.7")));
    assert_eq!(judged.state, Fixed, "dnf installs 3.0.9");
    assert_eq!(judged.packages, [builds[1].clone()]);
    assert_eq!(
        judged.older_builds_served,
        [builds[0].clone(), builds[2].clone()]
    );
}

#[test]
fn each_arch_is_judged_on_its_own_newest_build() {
    let builds = [
        build("openssl", "x86_64", 0, "3.0.9", "1"),
        build("openssl", "aarch64", 0, "3.0.2", "1"),
        build("openssl", "src", 0, "1.0", "1"),
    ];
    assert_eq!(state_for(&builds, "3.0.7"), Affected, "aarch64 is behind");
    let x86 = judge_package(&builds, "openssl", Some("x86_64"), Some(&below("3.0.7")));
    assert_eq!(x86.state, Fixed);
    let all = judge_package(&builds, "openssl", None, None);
    assert_eq!(
        all.packages.len(),
        2,
        "source packages are not installed: {all:?}"
    );
    let src = judge_package(&builds, "openssl", Some("src"), Some(&below("3.0.7")));
    assert_eq!(
        src.state, Affected,
        "asked for by arch, a source package is judged"
    );
}

fn fix(id: &str, builds: &[Package]) -> AdvisoryFix {
    AdvisoryFix {
        id: id.into(),
        builds: builds.to_vec(),
    }
}

#[test]
fn an_advisory_is_fixed_when_each_package_it_names_reaches_its_build() {
    let advisory = fix(
        "RHSA-1",
        &[
            build("openssl", "x86_64", 0, "3.0.7", "2"),
            build("openssl-libs", "x86_64", 0, "3.0.7", "2"),
        ],
    );
    let none = BTreeSet::new();
    let fixed = [
        build("openssl", "x86_64", 0, "3.0.7", "2"),
        build("openssl-libs", "x86_64", 0, "3.0.8", "1"),
    ];
    assert_eq!(
        judge_advisories(&fixed, std::slice::from_ref(&advisory), &none).state,
        Fixed
    );
    let one_behind = [
        build("openssl", "x86_64", 0, "3.0.7", "2"),
        build("openssl-libs", "x86_64", 0, "3.0.7", "1"),
    ];
    assert_eq!(
        judge_advisories(&one_behind, std::slice::from_ref(&advisory), &none).state,
        Affected
    );
    let held = BTreeSet::from(["RHSA-1".to_owned()]);
    assert_eq!(
        judge_advisories(&one_behind, std::slice::from_ref(&advisory), &held).state,
        Fixed,
        "a version holding the advisory is fixed"
    );
    let other = [build("bash", "x86_64", 0, "5", "1")];
    assert_eq!(judge_advisories(&other, &[advisory], &none).state, Absent);
}

#[test]
fn every_advisory_of_a_cve_must_be_fixed() {
    let el8 = fix("RHSA-8", &[build("openssl", "x86_64", 1, "1.1.1k", "9")]);
    let el9 = fix("RHSA-9", &[build("openssl", "x86_64", 1, "3.0.7", "2")]);
    let none = BTreeSet::new();
    let both = [el8.clone(), el9.clone()];
    let old = [build("openssl", "x86_64", 1, "3.0.1", "1")];
    assert_eq!(
        judge_advisories(&old, &both, &none).state,
        Affected,
        "below el9's fix"
    );
    let new = [build("openssl", "x86_64", 1, "3.0.7", "2")];
    assert_eq!(
        judge_advisories(&new, &both, &none).state,
        Fixed,
        "above both"
    );
    let only_libs = fix("RHSA-L", &[build("libssh", "x86_64", 0, "0.10", "1")]);
    assert_eq!(
        judge_advisories(&new, &[el9, only_libs], &none).state,
        Fixed,
        "an advisory whose packages are not served does not make the version affected"
    );
    assert_eq!(judge_advisories(&new, &[], &none).state, Absent);
}

#[test]
fn an_advisory_is_judged_per_arch_with_noarch_as_fallback() {
    let advisory = fix(
        "RHSA-2",
        &[
            build("kernel", "x86_64", 0, "5.14", "400"),
            build("kernel", "aarch64", 0, "5.14", "410"),
            build("kernel-doc", "noarch", 0, "5.14", "400"),
        ],
    );
    let none = BTreeSet::new();
    let served = [
        build("kernel", "x86_64", 0, "5.14", "400"),
        build("kernel", "aarch64", 0, "5.14", "405"),
    ];
    assert_eq!(
        judge_advisories(&served, std::slice::from_ref(&advisory), &none).state,
        Affected,
        "aarch64's fix is 410"
    );
    let x86_only = [build("kernel", "x86_64", 0, "5.14", "400")];
    assert_eq!(
        judge_advisories(&x86_only, std::slice::from_ref(&advisory), &none).state,
        Fixed
    );
    let doc = [build("kernel-doc", "noarch", 0, "5.14", "399")];
    assert_eq!(judge_advisories(&doc, &[advisory], &none).state, Affected);
}
