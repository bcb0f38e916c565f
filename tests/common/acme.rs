//! The "acme" repository: versions whose net diff from production (v2) to v5 holds every
//! kind of change, a package removed and added back (no change), and an advisory of each
//! type; production's security advisory is dropped (a regression). The same story as the
//! `rc-changes` repository that scripts/pulp/seed.sh builds in the real Pulp.
//! Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

use repo_console::adapters::memory::{ContentChange, InMemoryPulp};
use repo_console::domain::diff::{Advisory, AdvisoryType};
use repo_console::domain::repository::{RepoId, RepoVerification, VersionNumber};

pub const ACME: &str = "acme";

/// The net package changes the confirm step shows from production (v2) to v5, as (kind,
/// name), in order: security-relevant first (named by a security advisory added or
/// dropped), then by name. acme-e (removed in v3, back in v4) and acme-f (unchanged) are no
/// change.
pub const NET_PACKAGE_CHANGES: [(&str, &str); 4] = [
    ("removed", "acme-b"),
    ("upgraded", "acme-c"),
    ("added", "acme-a"),
    ("downgraded", "acme-d"),
];

fn advisory(id: &str, kind: &str, severity: Option<&str>, package: &str) -> Advisory {
    Advisory {
        id: id.to_owned(),
        kind: AdvisoryType::parse(kind),
        severity: severity.map(str::to_owned),
        title: format!("{id}: {kind} update for {package}"),
        packages: vec![package.to_owned()],
    }
}

/// Adds "acme" (v1..v5, production "acme-prod" serves v2) and answers its id.
pub fn add_acme(pulp: &InMemoryPulp, verification: RepoVerification) -> RepoId {
    for a in [
        advisory("RC-SA-OLD", "security", Some("Moderate"), "acme-b"),
        advisory("RC-BA-KEEP", "bugfix", None, "acme-f"),
        advisory("RC-SA-0001", "security", Some("Critical"), "acme-c"),
        advisory("RC-BA-0001", "bugfix", None, "acme-a"),
        advisory("RC-EA-0001", "enhancement", None, "acme-a"),
    ] {
        pulp.upload_advisory(a);
    }
    let id = pulp.add_repo(ACME, verification);
    let steps: [ContentChange; 5] = [
        ContentChange {
            add: &["acme-b-1", "acme-c-1", "acme-d-2", "acme-e-1"],
            add_advisories: &["RC-SA-OLD"],
            ..Default::default()
        },
        ContentChange {
            add: &["acme-f-1"],
            add_advisories: &["RC-BA-KEEP"],
            ..Default::default()
        },
        ContentChange {
            add: &["acme-a-1"],
            remove: &["acme-e-1"],
            ..Default::default()
        },
        ContentChange {
            add: &["acme-e-1", "acme-c-2"],
            remove: &["acme-b-1", "acme-c-1"],
            add_advisories: &["RC-SA-0001", "RC-BA-0001", "RC-EA-0001"],
            ..Default::default()
        },
        ContentChange {
            add: &["acme-d-1"],
            remove: &["acme-d-2"],
            remove_advisories: &["RC-SA-OLD"],
            ..Default::default()
        },
    ];
    for step in &steps {
        pulp.add_content_version(&id, step);
    }
    let live = pulp.publish(&id, VersionNumber::new(2));
    pulp.add_distribution("acme-prod", Some(&live));
    id
}
