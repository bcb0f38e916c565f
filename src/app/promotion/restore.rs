//! Putting a moved member back: its distribution pointed at the publication it served before
//! the promotion, then read again, so that "restored" is said only when the restore was
//! carried out (Pulp applied it, or shows the old publication after it); a restore Pulp
//! refused put nothing back (see [`after_restore`]).

use std::time::Duration;

use crate::domain::release::{after_restore, MemberOutcome};
use crate::domain::repository::{Distribution, PublicationHref};
use crate::ports::{RepositoryManager, WriteOutcome};

/// A member after the attempt, and what an operator reads about it.
pub(crate) struct Restored {
    pub outcome: MemberOutcome,
    pub detail: String,
}

/// Puts `distribution` (as it was before the promotion) back, from `moved_to`, within
/// `budget`; `before` is what the member's move proved (moved, or unknown).
pub(crate) async fn restore(
    manager: &dyn RepositoryManager,
    distribution: &Distribution,
    moved_to: &PublicationHref,
    before: MemberOutcome,
    budget: Duration,
) -> Restored {
    let name = &distribution.name;
    let Some(old) = &distribution.publication else {
        return Restored {
            outcome: before,
            detail: format!(
                "{name} served nothing before the promotion, and the console cannot point it \
                 back at nothing: clear its publication in Pulp, or promote the set again"
            ),
        };
    };
    let attempt = async {
        let written = manager.point_distribution(&distribution.href, old).await;
        let now = manager.get_distribution(&distribution.href).await.ok();
        (written, now)
    };
    let Ok((written, now)) = tokio::time::timeout(budget, attempt).await else {
        return Restored {
            outcome: MemberOutcome::Unknown,
            detail: format!(
                "putting {name} back on {old} did not end in time; it may still land: check \
                 the distribution {name} and its newest task in Pulp"
            ),
        };
    };
    let serving = now.as_ref().map(|d| d.publication.as_ref());
    let outcome = after_restore(written.verdict(), before, serving, Some(old), moved_to);
    let why = match &written {
        WriteOutcome::Applied(()) => String::new(),
        WriteOutcome::Refused(e) => format!(" (Pulp refused the restore: {e})"),
        WriteOutcome::Failed { error, task } => {
            format!(" (the restore's task {task} failed: {error})")
        }
        WriteOutcome::Unknown { error, task } => match task {
            Some(task) => format!(" (the restore's end is not known: {error}; Pulp task {task})"),
            None => format!(" (the restore's end is not known: {error})"),
        },
    };
    let detail = match outcome {
        MemberOutcome::Restored => {
            format!("put back: {name} serves {old} again, as before the promotion")
        }
        MemberOutcome::Moved => {
            format!("{name} still serves the new version: it could not be put back{why}")
        }
        MemberOutcome::Unchanged => format!(
            "{name} serves {old} as before the promotion: its move never landed, and the \
             console put nothing back{why}"
        ),
        MemberOutcome::Unknown if serving == Some(Some(old)) => format!(
            "{name} serves {old} again, but not by the console's restore{why}: someone else \
             moved it meanwhile; check the distribution {name} and its history in Pulp"
        ),
        MemberOutcome::Unknown => format!(
            "whether {name} serves the old or the new version is not known{why}: check the \
             distribution {name} in Pulp"
        ),
    };
    Restored { outcome, detail }
}
