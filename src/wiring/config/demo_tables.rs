//! The demo's release and policy, written as an operator would write `[releases]` and
//! `[policy]`: the configuration applies them only on the demo's own environments, when
//! neither is configured (see `checks.rs`).

use std::collections::BTreeMap;

use crate::wiring::sections::policy::RawEnvironmentPolicy;
use crate::wiring::sections::releases::RawRelease;

/// The demo's release: the three repositories a RHEL 9 host uses, promoted together.
pub(crate) fn releases() -> BTreeMap<String, RawRelease> {
    let repositories = ["rhel9-baseos", "rhel9-appstream", "epel9-appstream"]
        .map(str::to_owned)
        .to_vec();
    BTreeMap::from([("rhel9".to_owned(), RawRelease { repositories })])
}

/// The demo's policy: a deploy to staging needs one approval, which the demo's operator (the
/// placeholder `operator`) may give; every other environment is open.
pub(crate) fn policy() -> BTreeMap<String, RawEnvironmentPolicy> {
    let staging = RawEnvironmentPolicy {
        approvers: Some(vec!["user:operator".to_owned()]),
        approvals: Some(1),
        ..RawEnvironmentPolicy::default()
    };
    BTreeMap::from([("staging".to_owned(), staging)])
}
