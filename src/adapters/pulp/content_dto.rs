//! Pulp's JSON for content units (packages, advisories), as far as the diff reads it.

use serde::Deserialize;

use crate::domain::diff::{Advisory, AdvisoryType, Evr, Package};

/// The fields asked of a package: nothing more is shown.
pub(super) const PACKAGE_FIELDS: &str = "name,epoch,version,release,arch";
/// The fields asked of an advisory (`pkglist` names the packages it fixes).
pub(super) const ADVISORY_FIELDS: &str = "id,type,severity,title,pkglist";

#[derive(Debug, Deserialize)]
pub(super) struct PackageDto {
    name: String,
    #[serde(default)]
    epoch: String,
    version: String,
    release: String,
    arch: String,
}

impl From<PackageDto> for Package {
    fn from(p: PackageDto) -> Self {
        Self {
            name: p.name,
            arch: p.arch,
            evr: Evr::new(Evr::parse_epoch(&p.epoch), p.version, p.release),
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct AdvisoryDto {
    id: String,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    severity: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    pkglist: Vec<CollectionDto>,
}

#[derive(Debug, Deserialize)]
struct CollectionDto {
    #[serde(default)]
    packages: Vec<NamedDto>,
}

#[derive(Debug, Deserialize)]
struct NamedDto {
    name: String,
}

impl From<AdvisoryDto> for Advisory {
    fn from(a: AdvisoryDto) -> Self {
        let mut packages: Vec<String> = a
            .pkglist
            .into_iter()
            .flat_map(|c| c.packages.into_iter().map(|p| p.name))
            .collect();
        packages.sort();
        packages.dedup();
        Self {
            id: a.id,
            kind: AdvisoryType::parse(a.kind.as_deref().unwrap_or("")),
            severity: a.severity.filter(|s| !s.trim().is_empty()),
            title: a.title.unwrap_or_default(),
            packages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_reads_its_evr_with_a_string_epoch() {
        let dto: PackageDto = serde_json::from_str(
            r#"{"name":"hello","epoch":"2","version":"1.2","release":"1","arch":"noarch"}"#,
        )
        .unwrap();
        let p = Package::from(dto);
        assert_eq!((p.name.as_str(), p.arch.as_str()), ("hello", "noarch"));
        assert_eq!(p.evr.to_string(), "2:1.2-1");
    }

    #[test]
    fn an_advisory_reads_as_pulp_answers_it() {
        // As pulp_rpm 3.39 answers `fields=id,type,severity,title,pkglist`.
        let dto: AdvisoryDto = serde_json::from_str(
            r#"{"id":"RC-PROBE-0001","title":"Probe security fix for hello","type":"security",
            "severity":"Important","pkglist":[{"name":"collection","shortname":"c","module":null,
            "packages":[{"arch":"noarch","epoch":"0","filename":"hello-1.2-1.noarch.rpm",
            "name":"hello","reboot_suggested":false,"release":"1","src":"","sum":"",
            "sum_type":"unknown","version":"1.2"}]}]}"#,
        )
        .unwrap();
        let a = Advisory::from(dto);
        assert_eq!(a.kind, AdvisoryType::Security);
        assert_eq!(a.severity.as_deref(), Some("Important"));
        assert_eq!(a.packages, ["hello"]);
        let bare: AdvisoryDto = serde_json::from_str(r#"{"id":"X","severity":""}"#).unwrap();
        let bare = Advisory::from(bare);
        assert_eq!(
            (bare.severity, bare.kind),
            (None, AdvisoryType::Other(String::new()))
        );
    }
}
