//! [`PackageCatalog`] and [`AdvisoryCatalog`] for [`InMemoryPulp`], and the content it holds: packages written as
//! `name-version` (release 1, arch noarch: today's test API), as a full
//! `name-[epoch:]version-release.arch` (a known arch last), or as a Debian package's file name
//! without `.deb`, `name_[epoch:]version_arch` (its version in Debian's order), and advisories
//! uploaded by id.

use std::collections::BTreeSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::advisory_units::AdvisoryUnits;
use super::in_memory::InMemoryPulp;
use super::state::{bad_request, State, VersionEntry};
use crate::domain::content::deb::version::DebVersion;
use crate::domain::diff::{Advisory, ContentRead, Evr, Package};
use crate::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use crate::domain::repository::{RepoId, VersionHref, VersionNumber};
use crate::ports::{AdvisoryCatalog, PackageCatalog, Page, PageRequest, UpstreamError};

/// One new version's changes: packages and advisories added and removed.
#[derive(Debug, Clone, Copy, Default)]
pub struct ContentChange<'a> {
    pub add: &'a [&'a str],
    pub remove: &'a [&'a str],
    pub add_advisories: &'a [&'a str],
    pub remove_advisories: &'a [&'a str],
}

/// Reads a package as the in-memory Pulp stores it (see the module's documentation).
pub fn package_of(text: &str) -> Package {
    debian(text)
        .or_else(|| full_nevra(text))
        .unwrap_or_else(|| {
            let (name, version) = text.rsplit_once('-').unwrap_or((text, "0"));
            Package {
                name: name.to_owned(),
                arch: "noarch".to_owned(),
                evr: Evr::new(0, version, "1"),
            }
        })
}

/// `name_version_arch`, as Debian names a package's file: exactly two `_`, a Debian version
/// between them.
fn debian(text: &str) -> Option<Package> {
    let mut parts = text.split('_');
    let (name, version, arch) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || name.is_empty() || arch.is_empty() {
        return None;
    }
    Some(Package {
        name: name.to_owned(),
        arch: arch.to_owned(),
        evr: Evr::debian(&DebVersion::parse(version).ok()?),
    })
}

/// The architectures that mark a full `name-[epoch:]version-release.arch`.
const ARCHES: &[&str] = &[
    "noarch", "x86_64", "i686", "aarch64", "ppc64le", "s390x", "src",
];

fn full_nevra(text: &str) -> Option<Package> {
    let (head, release_arch) = text.rsplit_once('-')?;
    let (release, arch) = release_arch.rsplit_once('.')?;
    if !ARCHES.contains(&arch) {
        return None;
    }
    let (name, epoch_version) = head.rsplit_once('-')?;
    let (epoch, version) = match epoch_version.split_once(':') {
        Some((epoch, version)) => (epoch.parse().ok()?, version),
        None => (0, epoch_version),
    };
    Some(Package {
        name: name.to_owned(),
        arch: arch.to_owned(),
        evr: Evr::new(epoch, version, release),
    })
}

impl InMemoryPulp {
    /// Uploads an advisory (as `POST content/rpm/advisories/`); it is in no version yet.
    pub fn upload_advisory(&self, advisory: Advisory) {
        self.lock().advisories.insert(advisory.id.clone(), advisory);
    }

    /// Adds a version with `change` applied to the latest one (as Pulp's `modify/`);
    /// advisories are named by id and must have been uploaded.
    pub fn add_content_version(&self, id: &RepoId, change: &ContentChange<'_>) -> VersionNumber {
        self.add_content_version_at(id, change, Utc::now())
    }

    /// Like [`Self::add_content_version`], created at `at`.
    pub fn add_content_version_at(
        &self,
        id: &RepoId,
        change: &ContentChange<'_>,
        at: DateTime<Utc>,
    ) -> VersionNumber {
        let owned = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let mut state = self.lock();
        for advisory in change.add_advisories {
            assert!(
                state.advisories.contains_key(*advisory),
                "upload {advisory} first"
            );
        }
        let number = state
            .add_version(id, &owned(change.add), &owned(change.remove), at)
            .expect("known repository");
        let entry = state.repo_mut(id).expect("known repository");
        let version = entry.versions.last_mut().expect("just added");
        for advisory in change.remove_advisories {
            version.advisories.remove(*advisory);
        }
        version.advisories.extend(owned(change.add_advisories));
        VersionNumber::new(number)
    }
}

#[async_trait]
impl PackageCatalog for InMemoryPulp {
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError> {
        let _call = self
            .enter(format!("packages {} {version}", read_name(read)))
            .await;
        let state = self.lock();
        let selected = select(&state, version, read, |v| &v.packages)?;
        Ok(selected.into_iter().map(|p| package_of(p)).collect())
    }

    async fn package_builds(
        &self,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Vec<Package>, UpstreamError> {
        let _call = self
            .enter(format!("package_builds {version} ({} names)", names.len()))
            .await;
        let state = self.lock();
        let wanted: BTreeSet<&str> = names.iter().map(String::as_str).collect();
        Ok(entry(&state, version)?
            .packages
            .iter()
            .map(|p| package_of(p))
            .filter(|p| wanted.contains(p.name.as_str()))
            .collect())
    }
}

#[async_trait]
impl AdvisoryCatalog for InMemoryPulp {
    async fn advisories(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        let _call = self
            .enter(format!("advisories {} {version}", read_name(read)))
            .await;
        let state = self.lock();
        let selected = select(&state, version, read, |v| &v.advisories)?;
        Ok(selected
            .into_iter()
            .filter_map(|id| state.advisories.get(id).cloned())
            .collect())
    }

    async fn advisory_fixes(&self, ids: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError> {
        self.fixes(ids).await
    }

    async fn advisories_held(
        &self,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Vec<String>, UpstreamError> {
        self.held(version, ids).await
    }

    async fn advisory_references(
        &self,
        page: PageRequest,
    ) -> Result<Page<IndexedAdvisory>, UpstreamError> {
        self.references(page).await
    }
}

/// How a read is named in the recorded calls: `all`, `not-in <href>`, `added`, `removed`.
fn read_name(read: &ContentRead) -> String {
    match read {
        ContentRead::All => "all".into(),
        ContentRead::NotIn(other) => format!("not-in {other}"),
        ContentRead::Added => "added".into(),
        ContentRead::Removed => "removed".into(),
    }
}

/// The members of `version` (as `members` picks them) that `read` selects; a version's
/// predecessor is the version before it that still exists, as in Pulp (deleting a version
/// folds its changes into the next one).
fn select<'s>(
    state: &'s State,
    version: &VersionHref,
    read: &ContentRead,
    members: impl Fn(&'s VersionEntry) -> &'s BTreeSet<String>,
) -> Result<Vec<&'s String>, UpstreamError> {
    let this = entry(state, version)?;
    let difference = |a: &'s BTreeSet<String>, b: Option<&BTreeSet<String>>| {
        a.iter()
            .filter(|m| b.is_none_or(|b| !b.contains(*m)))
            .collect()
    };
    Ok(match read {
        ContentRead::All => members(this).iter().collect(),
        ContentRead::NotIn(other) => difference(members(this), Some(members(entry(state, other)?))),
        ContentRead::Added => difference(members(this), predecessor(state, version)?.map(&members)),
        ContentRead::Removed => match predecessor(state, version)? {
            Some(before) => difference(members(before), Some(members(this))),
            None => Vec::new(),
        },
    })
}

/// The version just before `href` that still exists.
fn predecessor<'s>(
    state: &'s State,
    href: &VersionHref,
) -> Result<Option<&'s VersionEntry>, UpstreamError> {
    let number = entry(state, href)?.number;
    let repo = RepoId::from_href(href.as_str()).expect("checked by entry");
    let versions = &state.repo(&repo).expect("checked by entry").versions;
    Ok(versions
        .iter()
        .filter(|v| v.number < number)
        .max_by_key(|v| v.number))
}

/// A version by its address, answered as Pulp answers an unknown one in a filter.
fn entry<'s>(state: &'s State, href: &VersionHref) -> Result<&'s VersionEntry, UpstreamError> {
    let unknown = || bad_request("q", &format!("URI {href} not found for repositoryversion."));
    let repo = RepoId::from_href(href.as_str()).ok_or_else(unknown)?;
    let number = href.number().ok_or_else(unknown)?.get();
    let entry = state.repo(&repo).map_err(|_| unknown())?;
    entry
        .versions
        .iter()
        .find(|v| v.number == number)
        .ok_or_else(unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_read_in_the_short_and_the_full_form() {
        let short = package_of("bash-5.1");
        assert_eq!(
            (short.name.as_str(), short.arch.as_str()),
            ("bash", "noarch")
        );
        assert_eq!(short.evr, Evr::new(0, "5.1", "1"));
        let dashed = package_of("ca-certificates-2024.2");
        assert_eq!(dashed.name, "ca-certificates");
        let nvra = package_of("ca-certificates-2024.2-1.el9.noarch");
        assert_eq!(nvra.name, "ca-certificates");
        assert_eq!(nvra.evr, Evr::new(0, "2024.2", "1.el9"));
        let full = package_of("acme-c-1:2.0-3.el9.x86_64");
        assert_eq!(
            (full.name.as_str(), full.arch.as_str()),
            ("acme-c", "x86_64")
        );
        assert_eq!(full.evr, Evr::new(1, "2.0", "3.el9"));
        let deb = package_of("rcdeb-hello_1:0.9-1_all");
        assert_eq!(
            (deb.name.as_str(), deb.arch.as_str()),
            ("rcdeb-hello", "all")
        );
        assert_eq!(deb.evr, Evr::debian(&DebVersion::parse("1:0.9-1").unwrap()));
    }
}
