//! The truth rule for a change sent upstream: once upstream may have accepted it, the
//! console says production changed only when upstream shows it did, and says it did not
//! only when upstream proves it did not. Everything else is "unknown".

use crate::domain::deploy::ProductionChanged;
use crate::domain::repository::PublicationHref;

/// How upstream answered a change, without the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteVerdict {
    /// Carried out.
    Applied,
    /// Never accepted (refused, or no connection made).
    Refused,
    /// Accepted; its task ended (failed or canceled) without reporting success.
    Failed,
    /// Maybe accepted; how it ended is not known (it may still land).
    Unknown,
}

/// What a fresh read of the production distribution showed after the change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reread {
    /// It serves this publication (or none).
    Serves(Option<PublicationHref>),
    /// It could not be read.
    Unreadable,
}

/// Whether repointing production from `before` to `target` changed it, given upstream's
/// answer and, when that answer is not conclusive, a fresh read of the distribution.
pub fn production_changed(
    verdict: WriteVerdict,
    reread: &Reread,
    before: Option<&PublicationHref>,
    target: &PublicationHref,
) -> ProductionChanged {
    let serves = |href: Option<&PublicationHref>| matches!(reread, Reread::Serves(now) if now.as_ref() == href);
    match verdict {
        WriteVerdict::Applied => ProductionChanged::Yes,
        WriteVerdict::Refused => ProductionChanged::No,
        _ if serves(Some(target)) => ProductionChanged::Yes,
        // A failed task that left production where it was: proven unchanged.
        WriteVerdict::Failed if serves(before) => ProductionChanged::No,
        // A task that may still run proves nothing by the old publication still being served.
        WriteVerdict::Failed | WriteVerdict::Unknown => ProductionChanged::Unknown,
    }
}

/// Whether the change needs a fresh read of the distribution to be judged.
pub fn needs_reread(verdict: WriteVerdict) -> bool {
    matches!(verdict, WriteVerdict::Failed | WriteVerdict::Unknown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ProductionChanged::{No, Unknown, Yes};

    fn old() -> PublicationHref {
        PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/old/")
    }

    fn new() -> PublicationHref {
        PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/new/")
    }

    fn judge(verdict: WriteVerdict, reread: Reread) -> ProductionChanged {
        production_changed(verdict, &reread, Some(&old()), &new())
    }

    #[test]
    fn an_applied_change_changed_production_and_a_refused_one_did_not() {
        assert_eq!(judge(WriteVerdict::Applied, Reread::Unreadable), Yes);
        assert_eq!(judge(WriteVerdict::Refused, Reread::Unreadable), No);
        assert_eq!(
            judge(WriteVerdict::Refused, Reread::Serves(Some(old()))),
            No
        );
    }

    #[test]
    fn a_failed_task_is_no_only_when_production_still_serves_the_old_publication() {
        assert_eq!(judge(WriteVerdict::Failed, Reread::Serves(Some(old()))), No);
        assert_eq!(
            judge(WriteVerdict::Failed, Reread::Serves(Some(new()))),
            Yes
        );
        assert_eq!(judge(WriteVerdict::Failed, Reread::Unreadable), Unknown);
        let elsewhere = PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/other/");
        assert_eq!(
            judge(WriteVerdict::Failed, Reread::Serves(Some(elsewhere))),
            Unknown
        );
        assert_eq!(judge(WriteVerdict::Failed, Reread::Serves(None)), Unknown);
    }

    #[test]
    fn an_unknown_outcome_is_never_no_even_when_the_old_publication_is_still_served() {
        assert_eq!(
            judge(WriteVerdict::Unknown, Reread::Serves(Some(old()))),
            Unknown
        );
        assert_eq!(judge(WriteVerdict::Unknown, Reread::Unreadable), Unknown);
        assert_eq!(
            judge(WriteVerdict::Unknown, Reread::Serves(Some(new()))),
            Yes
        );
    }

    #[test]
    fn a_production_that_served_nothing_before_is_proven_unchanged_when_it_still_serves_nothing() {
        let changed = production_changed(WriteVerdict::Failed, &Reread::Serves(None), None, &new());
        assert_eq!(changed, No);
    }

    #[test]
    fn only_inconclusive_answers_need_a_reread() {
        assert!(!needs_reread(WriteVerdict::Applied));
        assert!(!needs_reread(WriteVerdict::Refused));
        assert!(needs_reread(WriteVerdict::Failed));
        assert!(needs_reread(WriteVerdict::Unknown));
    }
}
