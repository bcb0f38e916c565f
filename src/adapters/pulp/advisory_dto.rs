//! Pulp's JSON for advisories as the exposure reads them: the builds of their package lists,
//! and their references (`[{"href", "id": "CVE-…", "title", "type": "cve"}]`).

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::domain::diff::{Evr, Package};
use crate::domain::exposure::{AdvisoryFix, CveId, IndexedAdvisory};

/// The fields asked of an advisory read for its fix.
pub(super) const FIX_FIELDS: &str = "id,pkglist";
/// The fields asked of an advisory read for the CVE index.
pub(super) const REFERENCE_FIELDS: &str = "pulp_href,pulp_created,id,references";

#[derive(Debug, Deserialize)]
pub(super) struct AdvisoryFixDto {
    id: String,
    #[serde(default)]
    pkglist: Vec<CollectionDto>,
}

#[derive(Debug, Deserialize)]
struct CollectionDto {
    #[serde(default)]
    packages: Vec<BuildDto>,
}

#[derive(Debug, Deserialize)]
struct BuildDto {
    name: String,
    #[serde(default)]
    arch: String,
    #[serde(default)]
    epoch: String,
    #[serde(default)]
    version: String,
    #[serde(default)]
    release: String,
}

impl From<AdvisoryFixDto> for AdvisoryFix {
    fn from(a: AdvisoryFixDto) -> Self {
        let builds = a
            .pkglist
            .into_iter()
            .flat_map(|c| c.packages)
            .map(|b| Package {
                name: b.name,
                arch: b.arch,
                evr: Evr::new(Evr::parse_epoch(&b.epoch), b.version, b.release),
            })
            .collect();
        Self { id: a.id, builds }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct AdvisoryIdDto {
    pub id: String,
}

#[derive(Debug, Deserialize)]
pub(super) struct AdvisoryRefsDto {
    pulp_href: String,
    pulp_created: DateTime<Utc>,
    id: String,
    #[serde(default)]
    references: Vec<ReferenceDto>,
}

#[derive(Debug, Deserialize)]
struct ReferenceDto {
    #[serde(default)]
    id: Option<String>,
}

/// Every reference whose id is a CVE identifier counts (whatever its `type` says: some
/// errata list CVEs as `other`).
impl From<AdvisoryRefsDto> for IndexedAdvisory {
    fn from(a: AdvisoryRefsDto) -> Self {
        let cves: BTreeSet<CveId> = a
            .references
            .iter()
            .filter_map(|r| r.id.as_deref())
            .filter_map(|id| CveId::parse(id).ok())
            .collect();
        Self {
            href: a.pulp_href,
            id: a.id,
            created: a.pulp_created,
            cves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_read_as_pulp_answers_them() {
        // As pulp_rpm 3.39 answers `fields=pulp_href,pulp_created,id,references`.
        let dto: AdvisoryRefsDto = serde_json::from_str(
            r#"{"pulp_href":"/pulp/api/v3/content/rpm/advisories/01a2/","pulp_created":"2026-11-26T07:28:32.200004Z",
            "id":"RC-XSA-0001","references":[{"href":"https://cve.example/CVE-2026-0001","id":"CVE-2026-0001",
            "title":"CVE-2026-0001","type":"cve"},{"href":"https://bugs.example/1","id":"1","title":"bug","type":"bugzilla"},
            {"href":"x","id":"cve-2026-0002","title":"","type":"other"},{"href":"y","id":null,"title":null,"type":"self"}]}"#,
        )
        .unwrap();
        let indexed = IndexedAdvisory::from(dto);
        let cves: Vec<&str> = indexed.cves.iter().map(CveId::as_str).collect();
        assert_eq!(cves, ["CVE-2026-0001", "CVE-2026-0002"]);
        assert_eq!(indexed.id, "RC-XSA-0001");
    }

    #[test]
    fn a_fix_reads_the_builds_of_every_collection() {
        let dto: AdvisoryFixDto = serde_json::from_str(
            r#"{"id":"RC-XSA-0001","pkglist":[{"name":"c","packages":[{"arch":"x86_64","epoch":"1",
            "filename":"f","name":"openssl","release":"2.el9","version":"3.0.7","src":"","sum":""}]},
            {"name":"d","packages":[{"arch":"noarch","epoch":"","name":"doc","release":"1","version":"2"}]}]}"#,
        )
        .unwrap();
        let fix = AdvisoryFix::from(dto);
        assert_eq!(fix.builds.len(), 2);
        assert_eq!(fix.builds[0].evr.to_string(), "1:3.0.7-2.el9");
        assert_eq!(fix.builds[1].evr.to_string(), "2-1");
    }
}
