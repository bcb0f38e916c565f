//! Diffs computed before anyone asks: when a page or a finished synchronization shows that
//! a repository's newest version is not the one production serves, the diff between them
//! is computed in the background, so that the confirm step opens from what is known.
//! Bounded: one computation at a time (the console talks to one Pulp), a short queue whose
//! overflow is dropped (the next page asks again), each diff asked once, stopped at
//! shutdown. Pages only enqueue; a confirm step that opens while its diff is being
//! computed waits for that computation (see [`crate::app::diffs::flights`]) instead of repeating it.

use std::future::Future;

use crate::domain::repository::{Repository, VersionNumber};

use crate::app::diffs::compare::version_diff;
use crate::app::diffs::queue::{AheadEnd, AheadJob};
use crate::app::state::AppState;

/// Asks for the diff from the version production serves to the repository's newest one to
/// be computed ahead, when the state computes diffs ahead and they differ; `packages` tells
/// a version's package count when the caller read it.
pub(crate) fn newest_against_production(
    state: &AppState,
    repo: &Repository,
    newest: Option<VersionNumber>,
    serving: Option<VersionNumber>,
    packages: impl Fn(VersionNumber) -> Option<u64>,
) {
    let (Some(ahead), Some(newest), Some(serving)) = (&state.diff_ahead(), newest, serving) else {
        return;
    };
    if newest == serving {
        return;
    }
    let end = |n: VersionNumber| AheadEnd {
        href: repo.version_href(n),
        packages: packages(n),
    };
    ahead.ask(
        &state.diffs(),
        AheadJob {
            content_type: repo.content_type(),
            from: end(serving),
            to: end(newest),
        },
    );
}

/// Computes the queued diffs one at a time until `stop` completes (a computation under way
/// is then dropped). Does nothing when the state does not compute diffs ahead, or when a
/// worker already took the queue.
pub async fn work(state: AppState, stop: impl Future<Output = ()>) {
    let Some(ahead) = state.diff_ahead() else {
        return;
    };
    let Some(mut jobs) = ahead.take_jobs() else {
        return;
    };
    let computing = async {
        while let Some(job) = jobs.recv().await {
            let started = std::time::Instant::now();
            match version_diff(&state, job.content_type, Some(job.from.end()), job.to.end()).await {
                Ok(diff) => tracing::debug!(
                    from = %job.from.href, to = %job.to.href, changes = diff.packages.len(),
                    elapsed_ms = started.elapsed().as_millis() as u64,
                    "diff computed ahead"
                ),
                Err(error) => tracing::warn!(
                    from = %job.from.href, to = %job.to.href, %error,
                    "a diff could not be computed ahead (the confirm step will read it)"
                ),
            }
            ahead.done(&job);
        }
    };
    tokio::select! {
        () = stop => tracing::debug!("computing diffs ahead stopped"),
        () = computing => {}
    }
}
