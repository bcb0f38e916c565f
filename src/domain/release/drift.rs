//! A release drifts when what its members' environment serves disagrees with the last
//! promotion of the release there: a member moved on its own since, or the promotion was
//! left half done (a mix, or a member whose state was unknown).

use crate::domain::release::{ReleaseRecord, ServedSet};
use crate::domain::repository::VersionNumber;

/// One member that disagrees, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberDrift {
    pub repository: String,
    /// What the last promotion left it serving (or, half done, its target).
    pub expected: Option<VersionNumber>,
    pub serving: Option<VersionNumber>,
    pub half_done: bool,
}

impl MemberDrift {
    /// What differs, in words.
    pub fn describe(&self) -> String {
        let label =
            |v: Option<VersionNumber>| v.map_or_else(|| "nothing".to_owned(), VersionNumber::label);
        if self.half_done {
            format!(
                "the last promotion of the release was left half done: it serves {}, the set's target was {}",
                label(self.serving),
                label(self.expected)
            )
        } else {
            format!(
                "moved on its own since the last promotion of the release: it serves {}, the promotion left {}",
                label(self.serving),
                label(self.expected)
            )
        }
    }
}

/// The members of `last` (the newest promotion of the release to one environment) whose
/// environment does not serve what it left (`serving`: what each serves now, by name).
pub fn release_drift(
    last: &ReleaseRecord,
    serving: impl Fn(&str) -> Option<VersionNumber>,
) -> Vec<MemberDrift> {
    let half_done = matches!(last.served, ServedSet::Mixed | ServedSet::Unknown);
    last.members
        .iter()
        .filter_map(|member| {
            let now = serving(&member.repository_name);
            let expected = if half_done {
                Some(member.target())
            } else {
                member.serves_after()?
            };
            (now != expected).then(|| MemberDrift {
                repository: member.repository_name.clone(),
                expected,
                serving: now,
                half_done,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::release::record::tests::{member, record};
    use crate::domain::release::MemberOutcome::*;

    fn v(n: u64) -> Option<VersionNumber> {
        Some(VersionNumber::new(n))
    }

    #[test]
    fn a_member_that_moved_on_its_own_is_flagged() {
        let last = record(vec![
            member("baseos", Some(3), 4, Moved),
            member("epel", Some(8), 9, Moved),
        ]);
        assert!(release_drift(&last, |m| if m == "baseos" { v(4) } else { v(9) }).is_empty());
        let drift = release_drift(&last, |m| if m == "baseos" { v(5) } else { v(9) });
        assert_eq!(drift.len(), 1);
        assert_eq!(drift[0].repository, "baseos");
        assert!(!drift[0].half_done);
        assert!(
            drift[0]
                .describe()
                .contains("serves v5, the promotion left v4"),
            "{}",
            drift[0].describe()
        );
    }

    #[test]
    fn a_promotion_left_half_done_flags_every_member_off_its_target() {
        let last = record(vec![
            member("baseos", Some(3), 4, Moved),
            member("epel", Some(8), 9, Unchanged),
        ]);
        let drift = release_drift(&last, |m| if m == "baseos" { v(4) } else { v(8) });
        assert_eq!(drift.len(), 1);
        assert_eq!(drift[0].repository, "epel");
        assert!(drift[0].half_done);
        let restored = record(vec![
            member("baseos", Some(3), 4, Restored),
            member("epel", Some(8), 9, Unchanged),
        ]);
        assert!(release_drift(&restored, |m| if m == "baseos" { v(3) } else { v(8) }).is_empty());
    }
}
