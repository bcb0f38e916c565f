//! What a release promotion did to each member's environment, and what the environment
//! serves as a whole after it. The console never says a member is back where it was unless
//! Pulp proved it: a member whose move or restore could not be settled is `Unknown`.

use serde::{Deserialize, Serialize};

use crate::domain::deploy::{ProductionChanged, WriteVerdict};
use crate::domain::repository::PublicationHref;

/// One member's environment after the promotion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemberOutcome {
    /// It serves the member's target now (also: it served it already, and nothing moved).
    Moved,
    /// It was moved (or maybe moved), then the console's restore put it back on what it
    /// served before: Pulp applied the restore, or shows the old publication after it.
    Restored,
    /// Never moved: Pulp proved its distribution was not changed, or shows it on its old
    /// publication after a failed move and a restore Pulp refused (nothing was put back).
    Unchanged,
    /// Whether it serves the old or the new version is not known (a move or a restore
    /// whose end Pulp did not tell): what to check is said beside it.
    Unknown,
}

impl MemberOutcome {
    /// The word pages and the API use (`data-member-outcome`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Moved => "moved",
            Self::Restored => "restored",
            Self::Unchanged => "unchanged",
            Self::Unknown => "unknown",
        }
    }

    /// A member whose step failed, by what its step proved about the distribution: a
    /// distribution that may have moved is then restored (see [`after_restore`]).
    pub fn of_failed_move(changed: ProductionChanged) -> Self {
        match changed {
            ProductionChanged::No => Self::Unchanged,
            ProductionChanged::Yes => Self::Moved,
            ProductionChanged::Unknown => Self::Unknown,
        }
    }

    /// Whether the member's distribution must be put back when the promotion stops.
    pub fn needs_restore(self) -> bool {
        matches!(self, Self::Moved | Self::Unknown)
    }
}

/// A moved (or maybe moved) member (`before`: its move's outcome) after the attempt to put
/// its distribution back on `old` (what it served before; it was moved to `new`), as Pulp
/// answered the restore (`restore`) and as the distribution reads again (`now`, `None`
/// when it could not be read).
///
/// `Restored` is said only when the console's restore was carried out: Pulp applied it, or
/// the distribution shows `old` again and the restore may have done it. A restore Pulp
/// refused, or whose task failed, put nothing back: a distribution that shows `old` after it
/// never moved (`Unchanged`), unless its move was proven (then someone else moved it back:
/// `Unknown`). A distribution that serves neither was moved by someone else meanwhile:
/// unknown.
pub fn after_restore(
    restore: WriteVerdict,
    before: MemberOutcome,
    now: Option<Option<&PublicationHref>>,
    old: Option<&PublicationHref>,
    new: &PublicationHref,
) -> MemberOutcome {
    let carried_out = restore == WriteVerdict::Applied;
    let put_nothing_back = matches!(restore, WriteVerdict::Refused | WriteVerdict::Failed);
    match now {
        Some(serving) if serving == old && put_nothing_back => match before {
            MemberOutcome::Moved => MemberOutcome::Unknown,
            _ => MemberOutcome::Unchanged,
        },
        Some(serving) if serving == old => MemberOutcome::Restored,
        Some(Some(serving)) if serving == new => MemberOutcome::Moved,
        Some(_) => MemberOutcome::Unknown,
        None if carried_out => MemberOutcome::Restored,
        None => MemberOutcome::Unknown,
    }
}

/// What the environment serves of the release after a promotion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ServedSet {
    /// Every member serves what it served before (each unchanged or restored, proven).
    Old,
    /// Every member serves its target.
    New,
    /// Some members serve their target and others what they served before (proven).
    Mixed,
    /// At least one member's state is not known.
    Unknown,
}

impl ServedSet {
    /// The set of `outcomes`, one per member.
    pub fn of(outcomes: impl IntoIterator<Item = MemberOutcome>) -> Self {
        let (mut new, mut old, mut unknown) = (false, false, false);
        for outcome in outcomes {
            match outcome {
                MemberOutcome::Moved => new = true,
                MemberOutcome::Restored | MemberOutcome::Unchanged => old = true,
                MemberOutcome::Unknown => unknown = true,
            }
        }
        match (unknown, new, old) {
            (true, _, _) => Self::Unknown,
            (false, true, true) => Self::Mixed,
            (false, true, false) => Self::New,
            (false, false, _) => Self::Old,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Old => "old",
            Self::New => "new",
            Self::Mixed => "mixed",
            Self::Unknown => "unknown",
        }
    }

    /// The sentence an operator reads about `environment`.
    pub fn sentence(self, environment: &str) -> String {
        match self {
            Self::Old => format!("{environment} serves the old set: every member is back where it was, as Pulp confirmed"),
            Self::New => format!("{environment} serves the new set"),
            Self::Mixed => format!("{environment} serves a mix of the old and the new set: see each member below and promote or roll back the set again"),
            Self::Unknown => format!("what {environment} serves is not known for every member: check each member marked unknown in Pulp (its distribution and task) before promoting again"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MemberOutcome::*;
    use super::*;

    #[test]
    fn the_set_is_new_old_mixed_or_unknown_and_never_old_without_proof() {
        assert_eq!(ServedSet::of([Moved, Moved, Moved]), ServedSet::New);
        assert_eq!(
            ServedSet::of([Restored, Restored, Unchanged]),
            ServedSet::Old
        );
        assert_eq!(ServedSet::of([Unchanged, Unchanged]), ServedSet::Old);
        assert_eq!(
            ServedSet::of([Moved, Restored, Unchanged]),
            ServedSet::Mixed
        );
        assert_eq!(
            ServedSet::of([Restored, Unknown, Unchanged]),
            ServedSet::Unknown
        );
        assert_eq!(ServedSet::of([Moved, Unknown]), ServedSet::Unknown);
    }

    #[test]
    fn a_failed_move_is_restored_unless_pulp_proved_it_did_not_move() {
        assert_eq!(
            MemberOutcome::of_failed_move(ProductionChanged::No),
            Unchanged
        );
        assert!(!Unchanged.needs_restore());
        assert!(MemberOutcome::of_failed_move(ProductionChanged::Yes).needs_restore());
        assert!(MemberOutcome::of_failed_move(ProductionChanged::Unknown).needs_restore());
    }

    #[test]
    fn a_restore_counts_only_when_pulp_shows_or_says_it() {
        use WriteVerdict::{Applied, Refused};
        let old = PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/old/");
        let new = PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/new/");
        let other = PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/other/");
        let seen = |p: &PublicationHref| Some(Some(p)).map(|s| s.cloned());
        let after = |restore, before, now: Option<Option<PublicationHref>>| {
            after_restore(
                restore,
                before,
                now.as_ref().map(Option::as_ref),
                Some(&old),
                &new,
            )
        };
        let maybe = WriteVerdict::Unknown;
        assert_eq!(after(Applied, Moved, seen(&old)), Restored);
        assert_eq!(
            after(maybe, Moved, seen(&old)),
            Restored,
            "shown: the restore landed"
        );
        assert_eq!(after(Applied, Moved, seen(&new)), Moved, "shown still new");
        assert_eq!(
            after(maybe, Unknown, seen(&other)),
            Unknown,
            "someone else moved it"
        );
        assert_eq!(
            after(Applied, Moved, None),
            Restored,
            "Pulp said it carried it out"
        );
        assert_eq!(after(maybe, Moved, None), Unknown);
        assert_eq!(after(Refused, Unknown, None), Unknown);
        let from_nothing = after_restore(Applied, Moved, Some(None), None, &new);
        assert_eq!(from_nothing, Restored);
    }

    #[test]
    fn a_refused_restore_put_nothing_back_so_the_old_publication_means_never_moved() {
        let old = PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/old/");
        let new = PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/new/");
        for restore in [WriteVerdict::Refused, WriteVerdict::Failed] {
            let on_old =
                |before| after_restore(restore, before, Some(Some(&old)), Some(&old), &new);
            assert_eq!(
                on_old(Unknown),
                Unchanged,
                "{restore:?}: its move never landed"
            );
            assert_eq!(
                on_old(Moved),
                Unknown,
                "{restore:?}: it moved, and someone else put it back"
            );
            let on_new = after_restore(restore, Moved, Some(Some(&new)), Some(&old), &new);
            assert_eq!(on_new, Moved, "{restore:?}");
        }
    }
}
