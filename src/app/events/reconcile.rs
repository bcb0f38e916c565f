//! The drift reconciler: every `drift.interval_secs`, in the background, what each
//! environment of each repository serves is checked against the console's last change of
//! it, as the dashboard judges it (its rows: the repositories a page at a time, then at
//! once their distributions, the publications those serve and the audit lines; plus, when a
//! webhook wants `sync.failed`, their newest synchronization tasks), so the upstream cost is
//! a few calls per page of repositories whatever their number. Each reading goes to the
//! metrics of the state (`repo_console_drift`); each outside change is told once (`drift.detected`,
//! named by the distribution's revision, deduplicated by the outbox across restarts and
//! replicas). Stopped at shutdown.

use std::future::Future;
use std::time::Duration;

use crate::domain::event::{DriftData, EventData, EventKind};
use crate::domain::repository::{RepoId, Repository, VersionNumber};
use crate::ports::{DriftReading, PageRequest};

use crate::app::environments::rows::{environments_of_rows, RowProduction};
use crate::app::events;
use crate::app::state::AppState;

/// What one check of every repository found.
#[derive(Debug, Clone, Default)]
pub struct DriftCheck {
    /// Each environment with a distribution, of each repository read.
    pub readings: Vec<DriftReading>,
    /// Every page of repositories was read (else a reading missing is not a repository gone).
    pub complete: bool,
}

/// Checks every `every` until `stop` completes (a check under way is then dropped); does
/// nothing when `every` is zero (the reconciler is off).
pub async fn work(state: AppState, every: Duration, stop: impl Future<Output = ()>) {
    if every.is_zero() {
        return;
    }
    let checking = async {
        loop {
            let found = check(&state).await;
            let drifted = found.readings.iter().filter(|r| r.drifted).count();
            tracing::debug!(
                environments = found.readings.len(),
                drifted,
                complete = found.complete,
                "drift checked"
            );
            state.metrics.drift_checked(&found.readings, found.complete);
            crate::app::edges::reconcile(&state.edge_world()).await;
            tokio::time::sleep(every).await;
        }
    };
    tokio::select! {
        () = stop => tracing::debug!("the drift reconciler stopped"),
        () = checking => {}
    }
}

/// One check of every repository, a dashboard page of them at a time.
#[tracing::instrument(skip_all)]
pub async fn check(state: &AppState) -> DriftCheck {
    let limit = state.page_size.max(1);
    let mut found = DriftCheck {
        complete: true,
        ..DriftCheck::default()
    };
    let mut offset = 0;
    loop {
        let page = match state.reads.list_repos(PageRequest { offset, limit }).await {
            Ok(page) => page,
            Err(error) => {
                tracing::warn!(%error, offset, "drift check: repositories not listed");
                found.complete = false;
                return found;
            }
        };
        check_page(state, &page.items, &mut found).await;
        offset += limit;
        if page.items.is_empty() || offset >= page.total {
            return found;
        }
    }
}

async fn check_page(state: &AppState, repos: &[Repository], found: &mut DriftCheck) {
    let (rows, ()) = futures::join!(
        environments_of_rows(state, repos),
        failed_syncs(state, repos)
    );
    let mut rows = match rows {
        Ok(rows) => rows,
        Err(error) => {
            tracing::warn!(%error, "drift check: environments not read");
            found.complete = false;
            return;
        }
    };
    for repo in repos {
        for environment in rows.remove(&repo.id).unwrap_or_default() {
            if environment.no_distribution || environment.serving.is_err() {
                continue;
            }
            found.readings.push(DriftReading {
                repository: repo.display_name().to_owned(),
                environment: environment.environment.clone(),
                drifted: environment.drift,
            });
            drift_seen(state, repo, &environment).await;
        }
    }
}

/// `drift.detected` for an environment that drifted (once per outside change).
async fn drift_seen(state: &AppState, repo: &Repository, environment: &RowProduction) {
    let Some(seen) = &environment.drift_seen else {
        return;
    };
    let serving = environment.serving.clone().ok().flatten();
    let data = DriftData::new(
        repo.into(),
        &seen.baseline,
        &seen.distribution,
        serving.map(VersionNumber::get),
    );
    events::emit(state, EventData::DriftDetected(data)).await;
}

/// `sync.failed` for the repositories whose newest synchronization failed, when a webhook
/// wants to hear of it (else their tasks are not read).
async fn failed_syncs(state: &AppState, repos: &[Repository]) {
    let wanted = state
        .events()
        .as_ref()
        .is_some_and(|e| e.wants(EventKind::SyncFailed));
    if !wanted {
        return;
    }
    let ids: Vec<RepoId> = repos.iter().map(|r| r.id.clone()).collect();
    match state.reads.sync_states(&ids).await {
        Ok(syncs) => {
            for repo in repos {
                if let Some(sync) = syncs.get(&repo.id) {
                    events::sync_seen(state, repo, sync).await;
                }
            }
        }
        Err(error) => tracing::warn!(%error, "drift check: synchronizations not read"),
    }
}
