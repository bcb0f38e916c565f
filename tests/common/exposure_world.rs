//! The exposure tests' world in the in-memory upstream (issue 37), on the demo's path
//! (`{repo}-testing`, `{repo}-staging`, `{repo}-prod`). Included with `#[path]`.
//!
//! - `web`: v1 openssl 3.0.1 (x86_64 and aarch64), bash 5.1; v2 openssl 3.0.7-2 on both arches
//!   (3.0.1 x86_64 kept: an older build served), bash 5.2. web-testing serves v2, web-staging
//!   and web-prod v1.
//! - `db`: v1 postgresql 15; db-prod serves v1 (none of web's packages).
//! - Advisories: RHSA-2026:0001 (openssl 3.0.7-2 on both arches) and RHSA-2026:0002 (bash
//!   5.2), both naming CVE-2026-1111; RHSA-2026:0001 also names CVE-2026-2222.

#![allow(dead_code)] // each binary uses its own part

use chrono::{DateTime, Duration, Utc};
use repo_console::adapters::memory::{package_of, ContentChange, InMemoryPulp};
use repo_console::domain::exposure::AdvisoryFix;
use repo_console::domain::repository::{RepoId, VersionNumber};

pub struct ExposureWorld {
    pub web: RepoId,
    pub db: RepoId,
}

/// When the advisories were created.
pub fn advisories_created() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-20T08:00:00Z")
        .unwrap()
        .to_utc()
}

pub fn fix(id: &str, builds: &[&str]) -> AdvisoryFix {
    AdvisoryFix {
        id: id.into(),
        builds: builds.iter().map(|b| package_of(b)).collect(),
    }
}

pub fn exposure_world(memory: &InMemoryPulp) -> ExposureWorld {
    let at = advisories_created();
    memory.upload_advisory_unit(
        fix(
            "RHSA-2026:0001",
            &["openssl-3.0.7-2.x86_64", "openssl-3.0.7-2.aarch64"],
        ),
        &["CVE-2026-1111", "CVE-2026-2222"],
        at,
    );
    memory.upload_advisory_unit(
        fix("RHSA-2026:0002", &["bash-5.2-1.x86_64"]),
        &["CVE-2026-1111"],
        at + Duration::minutes(1),
    );
    let web = memory.add_repo("web", crate::verified::verified());
    memory.add_version(
        &web,
        &[
            "openssl-3.0.1-1.x86_64",
            "openssl-3.0.1-1.aarch64",
            "bash-5.1-1.x86_64",
        ],
        &[],
    );
    memory.add_content_version(
        &web,
        &ContentChange {
            add: &[
                "openssl-3.0.7-2.x86_64",
                "openssl-3.0.7-2.aarch64",
                "bash-5.2-1.x86_64",
            ],
            remove: &["openssl-3.0.1-1.aarch64", "bash-5.1-1.x86_64"],
            add_advisories: &["RHSA-2026:0001", "RHSA-2026:0002"],
            remove_advisories: &[],
        },
    );
    let v1 = memory.publish(&web, VersionNumber::new(1));
    let v2 = memory.publish(&web, VersionNumber::new(2));
    memory.add_distribution("web-testing", Some(&v2));
    memory.add_distribution("web-staging", Some(&v1));
    memory.add_distribution("web-prod", Some(&v1));
    let db = memory.add_repo("db", crate::verified::verified());
    memory.add_version(&db, &["postgresql-15.4-1.x86_64"], &[]);
    let db1 = memory.publish(&db, VersionNumber::new(1));
    memory.add_distribution("db-prod", Some(&db1));
    ExposureWorld { web, db }
}
