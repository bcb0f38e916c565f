//! The releases the console knows: each names its members (repositories, by name) in the
//! order their distributions move. A repository belongs to one release at most, and a
//! release has at least one member.

use std::collections::BTreeMap;

use crate::domain::ids::ReleaseName;

/// One release: its name and its members, in the order a promotion moves them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    pub name: ReleaseName,
    members: Vec<String>,
}

impl Release {
    /// The members, in the order the configuration lists them (never empty).
    pub fn members(&self) -> &[String] {
        &self.members
    }

    pub fn has_member(&self, repository: &str) -> bool {
        self.members.iter().any(|m| m == repository)
    }
}

/// Why the releases as configured cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRelease {
    #[error("lists no repository: name the repositories promoted together, e.g. [\"rhel9-baseos\", \"rhel9-appstream\"]")]
    Empty,
    #[error("lists {0:?} twice")]
    Repeated(String),
    #[error("lists {repository:?}, which release {other} lists too: a repository belongs to one release at most")]
    InTwo {
        repository: String,
        other: ReleaseName,
    },
    #[error("lists a blank repository name")]
    Blank,
}

/// Every release, by name, and the release of each member.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Releases {
    by_name: BTreeMap<ReleaseName, Release>,
    of_member: BTreeMap<String, ReleaseName>,
}

impl Releases {
    /// The releases of `(name, members)` pairs, in name order; the first fault found is
    /// answered with the release it is in.
    pub fn new(
        releases: impl IntoIterator<Item = (ReleaseName, Vec<String>)>,
    ) -> Result<Self, (ReleaseName, InvalidRelease)> {
        let mut all = Self::default();
        let mut sorted: Vec<_> = releases.into_iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, members) in sorted {
            let fault = |why| (name.clone(), why);
            if members.is_empty() {
                return Err(fault(InvalidRelease::Empty));
            }
            for (i, member) in members.iter().enumerate() {
                if member.trim().is_empty() {
                    return Err(fault(InvalidRelease::Blank));
                }
                if members[..i].contains(member) {
                    return Err(fault(InvalidRelease::Repeated(member.clone())));
                }
                if let Some(other) = all.of_member.get(member) {
                    return Err(fault(InvalidRelease::InTwo {
                        repository: member.clone(),
                        other: other.clone(),
                    }));
                }
            }
            for member in &members {
                all.of_member.insert(member.clone(), name.clone());
            }
            all.by_name.insert(name.clone(), Release { name, members });
        }
        Ok(all)
    }

    pub fn get(&self, name: &str) -> Option<&Release> {
        let name = ReleaseName::parse(name).ok()?;
        self.by_name.get(&name)
    }

    /// The release `repository` (by name) belongs to, if any.
    pub fn of_member(&self, repository: &str) -> Option<&Release> {
        self.by_name.get(self.of_member.get(repository)?)
    }

    /// Every release, by name.
    pub fn iter(&self) -> impl Iterator<Item = &Release> {
        self.by_name.values()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> ReleaseName {
        ReleaseName::parse(text).unwrap()
    }

    fn members(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn members_keep_their_order_and_know_their_release() {
        let releases = Releases::new([
            (name("rhel9"), members(&["baseos", "appstream", "epel9"])),
            (name("rhel8"), members(&["baseos8"])),
        ])
        .unwrap();
        let rhel9 = releases.get("rhel9").unwrap();
        assert_eq!(rhel9.members(), ["baseos", "appstream", "epel9"]);
        assert_eq!(releases.of_member("epel9").unwrap().name, name("rhel9"));
        assert!(releases.of_member("other").is_none());
        assert!(releases.get("RHEL9").is_none());
        let names: Vec<_> = releases.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["rhel8", "rhel9"]);
    }

    #[test]
    fn a_repository_in_two_releases_an_empty_list_and_repeats_are_refused() {
        let twice = Releases::new([
            (name("a"), members(&["baseos"])),
            (name("b"), members(&["epel", "baseos"])),
        ]);
        assert_eq!(
            twice,
            Err((
                name("b"),
                InvalidRelease::InTwo {
                    repository: "baseos".into(),
                    other: name("a")
                }
            ))
        );
        assert_eq!(
            Releases::new([(name("a"), vec![])]),
            Err((name("a"), InvalidRelease::Empty))
        );
        assert_eq!(
            Releases::new([(name("a"), members(&["x", "x"]))]),
            Err((name("a"), InvalidRelease::Repeated("x".into())))
        );
        assert_eq!(
            Releases::new([(name("a"), members(&[" "]))]),
            Err((name("a"), InvalidRelease::Blank))
        );
    }
}
