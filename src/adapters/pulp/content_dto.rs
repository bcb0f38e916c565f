//! Pulp's JSON for content units (packages, advisories), as far as the diff reads it.

use serde::Deserialize;

use crate::domain::content::deb::version::DebVersion;
use crate::domain::content::kind::ContentType;
use crate::domain::diff::{Advisory, AdvisoryType, Evr, Package};

/// The fields asked of an advisory (`pkglist` names the packages it fixes).
pub(super) const ADVISORY_FIELDS: &str = "id,type,severity,title,pkglist";

/// A package of either plugin, with the fields its table asks for (`plugins.rs`): pulp_rpm's
/// `name, epoch, version, release, arch`, pulp_deb's `package, version, architecture` (the
/// whole Debian version in `version`).
#[derive(Debug, Deserialize)]
pub(super) struct PackageDto {
    #[serde(alias = "package")]
    name: String,
    #[serde(default)]
    epoch: String,
    version: String,
    #[serde(default)]
    release: String,
    #[serde(alias = "architecture")]
    arch: String,
}

impl PackageDto {
    /// The package, its version read by the rules of its content type: a Debian version's
    /// epoch, upstream version and revision go where RPM keeps epoch, version and release.
    pub(super) fn into_package(self, content_type: ContentType) -> Package {
        let evr = match content_type {
            ContentType::Rpm => Evr::new(Evr::parse_epoch(&self.epoch), self.version, self.release),
            ContentType::Deb => match DebVersion::parse(&self.version) {
                Ok(v) => Evr::debian(&v),
                // Pulp stored it, so dpkg read it: kept as written rather than dropped.
                Err(_) => Evr::new(0, self.version, ""),
            },
        };
        Package {
            name: self.name,
            arch: self.arch,
            evr,
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
        let p = dto.into_package(ContentType::Rpm);
        assert_eq!((p.name.as_str(), p.arch.as_str()), ("hello", "noarch"));
        assert_eq!(p.evr.to_string(), "2:1.2-1");
    }

    #[test]
    fn a_debian_package_reads_its_whole_version_as_epoch_upstream_and_revision() {
        // As pulp_deb 3.11 answers `fields=package,version,architecture`.
        let read = |json: &str| {
            serde_json::from_str::<PackageDto>(json)
                .unwrap()
                .into_package(ContentType::Deb)
        };
        let p = read(r#"{"package":"rcdeb-hello","version":"1:0.9-1","architecture":"all"}"#);
        assert_eq!((p.name.as_str(), p.arch.as_str()), ("rcdeb-hello", "all"));
        assert_eq!(p.evr, Evr::debian(&DebVersion::parse("1:0.9-1").unwrap()));
        assert_eq!(
            (p.evr.epoch, p.evr.version.as_str(), p.evr.release.as_str()),
            (1, "0.9", "1")
        );
        assert_eq!(p.evr.to_string(), "1:0.9-1");
        let native = read(r#"{"package":"base-files","version":"12.4","architecture":"amd64"}"#);
        assert_eq!(
            (native.evr.version.as_str(), native.evr.release.as_str()),
            ("12.4", "")
        );
        assert_eq!(
            native.evr.to_string(),
            "12.4",
            "a native version has no revision"
        );
        let dashes = read(r#"{"package":"x","version":"2.0-beta-3","architecture":"amd64"}"#);
        assert_eq!(
            (dashes.evr.version.as_str(), dashes.evr.release.as_str()),
            ("2.0-beta", "3")
        );
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
