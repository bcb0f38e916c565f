//! What a set of diffs (a release's members, each with its own) changes as a whole, beyond
//! each member's packages: the advisories the environment gains and loses over the set.

use std::collections::BTreeMap;

use crate::domain::diff::{Advisory, VersionDiff};

/// The advisories gained and lost over every member's diff, by id. A member whose type carries
/// no advisories adds nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangesOverSet {
    pub advisories_gained: Vec<Advisory>,
    pub advisories_lost: Vec<Advisory>,
}

impl ChangesOverSet {
    /// Over `diffs`: an advisory added by one member and dropped by another is both (each
    /// member's change is shown with it).
    pub fn of<'a>(diffs: impl IntoIterator<Item = &'a VersionDiff>) -> Self {
        let mut gained: BTreeMap<String, Advisory> = BTreeMap::new();
        let mut lost: BTreeMap<String, Advisory> = BTreeMap::new();
        for diff in diffs {
            for advisory in &diff.advisories.added {
                gained
                    .entry(advisory.id.clone())
                    .or_insert_with(|| advisory.clone());
            }
            for advisory in &diff.advisories.dropped {
                lost.entry(advisory.id.clone())
                    .or_insert_with(|| advisory.clone());
            }
        }
        Self {
            advisories_gained: gained.into_values().collect(),
            advisories_lost: lost.into_values().collect(),
        }
    }
}
