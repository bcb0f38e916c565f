//! Identifiers of upstream objects. Each is a newtype whose constructor is the only way in.
//!
//! Upstream addresses ("hrefs") are paths such as
//! `/pulp/api/v3/repositories/<plugin>/<type>/<uuid>/versions/<n>/`; a server may put a prefix
//! (API root, domain) before `/repositories/…`, so parsing looks for the stable suffix. The
//! plugin and type segments (which content type a repository holds) are the Pulp adapter's
//! to read: here they are two segments, whatever they say.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::domain::repository::VersionNumber;

/// The identifier of a repository: a UUID, lower-cased. Parsing is also what keeps
/// arbitrary text (such as `../`) out of upstream URLs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RepoId(String);

/// Why a text is not a repository identifier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a repository identifier (a UUID such as 01a202de-e818-7629-a483-70ecc3240361)"
)]
pub struct InvalidRepoId(pub String);

impl RepoId {
    /// Accepts the canonical hyphenated UUID form (any case) and nothing else.
    pub fn parse(raw: &str) -> Result<Self, InvalidRepoId> {
        let groups: Vec<&str> = raw.split('-').collect();
        let lengths_ok =
            groups.len() == 5 && groups.iter().map(|g| g.len()).eq([8usize, 4, 4, 4, 12]);
        let hex_ok = groups
            .iter()
            .all(|g| g.chars().all(|c| c.is_ascii_hexdigit()));
        if lengths_ok && hex_ok {
            Ok(Self(raw.to_ascii_lowercase()))
        } else {
            Err(InvalidRepoId(raw.chars().take(80).collect()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The repository id inside any href that contains `/repositories/<plugin>/<type>/<uuid>/`.
    pub fn from_href(href: &str) -> Option<Self> {
        Self::parse(repository_segments(href)?.0).ok()
    }
}

impl TryFrom<String> for RepoId {
    type Error = InvalidRepoId;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw)
    }
}

impl From<RepoId> for String {
    fn from(id: RepoId) -> Self {
        id.0
    }
}

impl fmt::Display for RepoId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const REPO_MARKER: &str = "/repositories/";

/// The uuid segment of `…/repositories/<plugin>/<type>/<uuid>/<tail>` and the tail after it.
fn repository_segments(href: &str) -> Option<(&str, &str)> {
    let (_, rest) = href.split_once(REPO_MARKER)?;
    let mut parts = rest.splitn(4, '/');
    let (plugin, kind, uuid) = (parts.next()?, parts.next()?, parts.next()?);
    if plugin.is_empty() || kind.is_empty() {
        return None;
    }
    Some((uuid, parts.next().unwrap_or("")))
}

macro_rules! opaque_href {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            pub fn new(href: impl Into<String>) -> Self {
                Self(href.into())
            }
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

opaque_href!(
    /// The address of a publication (immutable upstream once created).
    PublicationHref
);
opaque_href!(
    /// The address of a distribution.
    DistributionHref
);
opaque_href!(
    /// The address of an upstream task.
    TaskHref
);
opaque_href!(
    /// The address of a remote (the source a repository synchronizes from).
    RemoteHref
);

/// The address of one repository version: `…/repositories/<plugin>/<type>/<uuid>/versions/<n>/`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VersionHref(String);

impl VersionHref {
    pub fn new(href: impl Into<String>) -> Self {
        Self(href.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The trailing version number, when the address ends in `/versions/<n>/`.
    pub fn number(&self) -> Option<VersionNumber> {
        let trimmed = self.0.trim_end_matches('/');
        let (head, last) = trimmed.rsplit_once('/')?;
        if !head.ends_with("/versions") {
            return None;
        }
        last.parse::<u64>().ok().map(VersionNumber::new)
    }

    /// True when this address is a version of repository `repo`
    /// (it contains `/repositories/<plugin>/<type>/<uuid>/versions/`). Allocates nothing:
    /// the dashboard asks it of every distribution for every row.
    pub fn belongs_to(&self, repo: &RepoId) -> bool {
        repository_segments(&self.0).is_some_and(|(uuid, tail)| {
            tail.starts_with("versions/") && uuid.eq_ignore_ascii_case(repo.as_str())
        })
    }
}

impl fmt::Display for VersionHref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "01a202de-e818-7629-a483-70ecc3240361";

    #[test]
    fn repo_id_accepts_a_uuid_in_any_case() {
        assert_eq!(RepoId::parse(ID).unwrap().as_str(), ID);
        assert_eq!(RepoId::parse(&ID.to_uppercase()).unwrap().as_str(), ID);
    }

    #[test]
    fn repo_id_refuses_anything_else() {
        for bad in [
            "",
            "demo",
            "../../etc",
            &format!("{ID}/"),
            &format!("{ID}x"),
            "01a202de-e818-7629-a483-70ecc324036g",
        ] {
            assert!(RepoId::parse(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn repo_id_is_found_inside_an_href_with_any_prefix() {
        let href = format!("/pulp/default/api/v3/repositories/rpm/rpm/{ID}/versions/3/");
        assert_eq!(RepoId::from_href(&href).unwrap().as_str(), ID);
        assert!(RepoId::from_href("/pulp/api/v3/tasks/x/").is_none());
    }

    #[test]
    fn the_content_type_segments_are_read_whatever_they_say() {
        let deb = format!("/pulp/api/v3/repositories/deb/apt/{ID}/versions/3/");
        assert_eq!(RepoId::from_href(&deb).unwrap().as_str(), ID);
        let repo = RepoId::parse(ID).unwrap();
        assert!(VersionHref::new(deb).belongs_to(&repo));
        for short in [
            format!("/pulp/api/v3/repositories/{ID}/versions/3/"),
            format!("/pulp/api/v3/repositories/rpm/{ID}/"),
            format!("/pulp/api/v3/repositories//rpm/{ID}/versions/3/"),
        ] {
            assert!(RepoId::from_href(&short).is_none(), "{short}");
            assert!(!VersionHref::new(short).belongs_to(&repo));
        }
    }

    #[test]
    fn version_number_is_the_trailing_number_of_the_href() {
        let href = VersionHref::new(format!(
            "/pulp/api/v3/repositories/rpm/rpm/{ID}/versions/12/"
        ));
        assert_eq!(href.number(), Some(VersionNumber::new(12)));
        let no_slash =
            VersionHref::new(format!("/pulp/api/v3/repositories/rpm/rpm/{ID}/versions/7"));
        assert_eq!(no_slash.number(), Some(VersionNumber::new(7)));
    }

    #[test]
    fn version_number_is_absent_when_the_href_has_none() {
        for bad in [
            "",
            "/pulp/api/v3/repositories/rpm/rpm/x/versions/",
            "/pulp/api/v3/tasks/12/",
            "/versions/-1/",
        ] {
            assert_eq!(VersionHref::new(bad).number(), None, "{bad}");
        }
    }

    #[test]
    fn version_href_belongs_only_to_its_own_repository() {
        let repo = RepoId::parse(ID).unwrap();
        let other = RepoId::parse("01a202de-e818-7629-a483-70ecc3240362").unwrap();
        let href = VersionHref::new(format!(
            "/pulp/api/v3/repositories/rpm/rpm/{ID}/versions/2/"
        ));
        assert!(href.belongs_to(&repo));
        assert!(!href.belongs_to(&other));
    }
}
