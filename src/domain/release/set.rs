//! The set an environment would receive: for the first environment of the path, each
//! member's newest version; for the others, what the environment before serves.

use std::collections::BTreeMap;

use crate::domain::repository::VersionNumber;

/// The set, or the members that have nothing to give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProposedSet {
    /// One version per member, by repository name; `moves` is false when every member
    /// already serves it.
    Ready {
        versions: BTreeMap<String, VersionNumber>,
        moves: bool,
    },
    /// The source serves nothing of these members (or they could not be read).
    Incomplete { missing: Vec<String> },
}

/// The set of `members` from `source` (the version each member's source gives), against
/// what the environment serves now (`serving`).
pub fn proposed_set(
    members: &[String],
    source: impl Fn(&str) -> Option<VersionNumber>,
    serving: impl Fn(&str) -> Option<VersionNumber>,
) -> ProposedSet {
    let missing: Vec<String> = members
        .iter()
        .filter(|m| source(m).is_none())
        .cloned()
        .collect();
    if !missing.is_empty() {
        return ProposedSet::Incomplete { missing };
    }
    let versions: BTreeMap<String, VersionNumber> = members
        .iter()
        .filter_map(|m| Some((m.clone(), source(m)?)))
        .collect();
    let moves = versions.iter().any(|(m, v)| serving(m) != Some(*v));
    ProposedSet::Ready { versions, moves }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: u64) -> Option<VersionNumber> {
        Some(VersionNumber::new(n))
    }

    #[test]
    fn the_set_comes_whole_from_the_source_or_names_what_is_missing() {
        let members = vec!["baseos".to_owned(), "epel".to_owned()];
        let staging = |m: &str| if m == "baseos" { v(4) } else { v(9) };
        let production = |m: &str| if m == "baseos" { v(3) } else { v(9) };
        match proposed_set(&members, staging, production) {
            ProposedSet::Ready { versions, moves } => {
                assert_eq!(versions["baseos"], VersionNumber::new(4));
                assert!(moves);
            }
            other => panic!("{other:?}"),
        }
        let same = proposed_set(&members, staging, staging);
        assert!(matches!(same, ProposedSet::Ready { moves: false, .. }));
        let half = |m: &str| if m == "baseos" { v(4) } else { None };
        assert_eq!(
            proposed_set(&members, half, production),
            ProposedSet::Incomplete {
                missing: vec!["epel".into()]
            }
        );
    }
}
