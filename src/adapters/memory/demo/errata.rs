//! The demo's advisories: rhel9-baseos gets errata of every type over its history, so the
//! deploy of its newest version (production serves v38) shows a security fix arriving.

use chrono::{DateTime, Utc};

use crate::domain::diff::{Advisory, AdvisoryType};
use crate::domain::exposure::AdvisoryFix;

use crate::adapters::memory::content::package_of;
use crate::adapters::memory::in_memory::InMemoryPulp;

/// The security advisory's fix and the CVE its references name (the exposure page's demo:
/// `/exposure?cve=CVE-2026-1111`).
const SECURITY_FIX: (&str, &str, &str) = (
    "RHSA-2026:1234",
    "openssl-3.5.1-2.el9.x86_64",
    "CVE-2026-1111",
);

/// (version step, id, type, severity, title, packages named).
const ERRATA: &[(u64, &str, &str, &str, &str, &str)] = &[
    (
        10,
        "RHBA-2026:0101",
        "bugfix",
        "",
        "bash: fix history expansion in here-documents",
        "bash",
    ),
    (
        20,
        "RHEA-2026:0420",
        "enhancement",
        "",
        "chrony: new NTS server pool",
        "chrony",
    ),
    (
        42,
        "RHSA-2026:1234",
        "security",
        "Important",
        "openssl: fix for CVE-2026-1111 (timing side channel in RSA decryption)",
        "openssl",
    ),
    (
        42,
        "RHBA-2026:1300",
        "bugfix",
        "",
        "systemd: journald no longer loses messages under load",
        "systemd",
    ),
    (
        43,
        "RHEA-2026:1310",
        "enhancement",
        "",
        "curl: HTTP/3 enabled by default",
        "curl",
    ),
];

/// Advisories dropped at a step: (step, id).
const DROPPED: &[(u64, &str)] = &[(44, "RHEA-2026:0420")];

/// The packages the advisories of `step` name: updated at that step, in the version that
/// carries the advisory.
pub fn fixed_at(step: u64) -> impl Iterator<Item = &'static str> {
    ERRATA.iter().filter(move |e| e.0 == step).map(|e| e.5)
}

/// Whether an advisory names `package`: it is updated only with its advisory.
pub fn named_by_advisory(package: &str) -> bool {
    ERRATA.iter().any(|e| e.5 == package)
}

/// Uploads every demo advisory (in no version yet).
pub fn upload_errata(pulp: &InMemoryPulp) {
    for (_, id, kind, severity, title, package) in ERRATA {
        pulp.upload_advisory(Advisory {
            id: (*id).to_owned(),
            kind: AdvisoryType::parse(kind),
            severity: Some((*severity).to_owned()).filter(|s| !s.is_empty()),
            title: (*title).to_owned(),
            packages: vec![(*package).to_owned()],
        });
    }
    let (id, build, cve) = SECURITY_FIX;
    let created: DateTime<Utc> = DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default();
    pulp.upload_advisory_unit(
        AdvisoryFix {
            id: id.to_owned(),
            builds: vec![package_of(build)],
        },
        &[cve],
        created,
    );
}

/// The advisories a step adds and drops.
pub fn errata_of(step: u64) -> (Vec<&'static str>, Vec<&'static str>) {
    let added = ERRATA.iter().filter(|e| e.0 == step).map(|e| e.1).collect();
    let dropped = DROPPED
        .iter()
        .filter(|d| d.0 == step)
        .map(|d| d.1)
        .collect();
    (added, dropped)
}
