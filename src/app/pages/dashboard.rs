//! Use case: the dashboard, every repository with its latest version and sync state.

use std::collections::HashMap;

use crate::domain::content::kind::ContentType;

use crate::domain::environment::EnvironmentName;
use crate::domain::ids::ReleaseName;
use crate::domain::release::Release;
use crate::domain::repository::{Badge, RepoId, Repository, UnsignedMetadata, VersionNumber};
use crate::domain::sync::SyncState;
use crate::ports::{PageRequest, UpstreamError};

use crate::app::diffs::ahead::newest_against_production;
use crate::app::environments::rows::environments_of_rows;
pub use crate::app::environments::rows::RowProduction;
use crate::app::events;
use crate::app::facts::badge_policy;
use crate::app::promotion::policy_gate::frozen_environments;
pub use crate::app::promotion::policy_gate::FrozenEnvironment;
use crate::app::state::AppState;
use crate::app::sync::SyncCell;

/// One repository on the dashboard.
#[derive(Debug, Clone)]
pub struct DashboardRow {
    pub id: RepoId,
    pub name: String,
    /// RPM or Debian, as upstream says.
    pub content_type: ContentType,
    pub badge: Badge,
    /// The sync cell, which also knows the latest version.
    pub sync: SyncCell,
    /// What each environment serves, in path order, and whether it drifted (production is
    /// the last).
    pub environments: Vec<RowProduction>,
    /// The release it belongs to, if any.
    pub release: Option<ReleaseName>,
}

impl DashboardRow {
    /// The last environment of the path (production).
    pub fn production(&self) -> &RowProduction {
        self.environments
            .last()
            .unwrap_or_else(|| unreachable!("a path is never empty"))
    }

    /// The latest version is not the one production serves (when production is known).
    pub fn latest_not_deployed(&self) -> bool {
        match (&self.production().serving, self.sync.latest) {
            (Ok(serving), Some(latest)) => *serving != Some(latest),
            _ => false,
        }
    }

    /// The version production serves; `None` when none or unknown.
    pub fn serving(&self) -> Option<VersionNumber> {
        self.production().serving.clone().ok().flatten()
    }
}

/// One page of the dashboard.
#[derive(Debug, Clone)]
pub struct Dashboard {
    /// The environments, in path order (a column each; production is the last).
    pub environments: Vec<EnvironmentName>,
    pub rows: Vec<DashboardRow>,
    pub total: u64,
    /// The page shown, from 0 (may be past the last one).
    pub page: u64,
    pub offset: u64,
    pub limit: u64,
    /// Set when the repositories could not be listed (the page's main read): the page then
    /// answers the status of this failure.
    pub error: Option<UpstreamError>,
    /// Set when sync states could not be read (rows are then shown without them).
    pub sync_error: Option<UpstreamError>,
    /// Set when production could not be read (rows then show it as unknown).
    pub production_error: Option<UpstreamError>,
    /// The environments frozen now, in path order (a banner each).
    pub frozen: Vec<FrozenEnvironment>,
    /// Why the viewer may not synchronize (see [`crate::app::sync::sync_denial`]); `None` when
    /// they may.
    pub sync_denied: Option<String>,
    /// The releases (listed above the table).
    pub releases: Vec<Release>,
}

/// Four upstream calls whatever the number of repositories on the page: a page of
/// repositories, then at once the newest sync task of each (one call for all) and
/// production (all distributions, then their publications by href; see
/// [`environments_of_rows`]). The environments frozen now are known without upstream.
#[tracing::instrument(skip_all, fields(page = page))]
pub async fn dashboard(state: &AppState, page: u64) -> Dashboard {
    let limit = state.page_size.max(1);
    let offset = page.saturating_mul(limit);
    let mut board = Dashboard {
        environments: state.environments.iter().map(|e| e.name.clone()).collect(),
        rows: Vec::new(),
        total: 0,
        page,
        offset,
        limit,
        error: None,
        sync_error: None,
        production_error: None,
        frozen: frozen_environments(state).await,
        sync_denied: None,
        releases: state.releases.iter().cloned().collect(),
    };
    let repos = match state.reads.list_repos(PageRequest { offset, limit }).await {
        Ok(page) => page,
        Err(error) => {
            tracing::warn!(%error, "dashboard: repositories not listed");
            board.error = Some(error);
            return board;
        }
    };
    board.total = repos.total;
    let ids: Vec<RepoId> = repos.items.iter().map(|r| r.id.clone()).collect();
    let (syncs, production) = futures::join!(
        state.reads.sync_states(&ids),
        environments_of_rows(state, &repos.items)
    );
    let mut production = match production {
        Ok(rows) => rows,
        Err(error) => {
            tracing::warn!(%error, "dashboard: production not read");
            board.production_error = Some(error);
            HashMap::new()
        }
    };
    let syncs = match syncs {
        Ok(syncs) => syncs,
        Err(error) => {
            tracing::warn!(%error, "dashboard: synchronization states not read");
            board.sync_error = Some(error);
            HashMap::new()
        }
    };
    let badge = badge_policy(state);
    board.rows = repos
        .items
        .iter()
        .map(|repo| {
            let environments = production.remove(&repo.id).unwrap_or_else(|| {
                state
                    .environments
                    .iter()
                    .map(|e| RowProduction::unknown(&e.name))
                    .collect()
            });
            let release = state.releases.of_member(repo.display_name());
            let mut row = row(repo, syncs.get(&repo.id), environments, badge);
            row.release = release.map(|r| r.name.clone());
            row
        })
        .collect();
    for (repo, row) in repos.items.iter().zip(&board.rows) {
        newest_against_production(state, repo, row.sync.latest, row.serving(), |_| None);
        events::sync_seen(state, repo, &row.sync.state).await;
    }
    board
}

fn row(
    repo: &Repository,
    sync: Option<&SyncState>,
    environments: Vec<RowProduction>,
    badge: UnsignedMetadata,
) -> DashboardRow {
    DashboardRow {
        id: repo.id.clone(),
        name: repo.display_name().to_owned(),
        content_type: repo.content_type(),
        badge: repo.verification.badge(badge),
        sync: SyncCell::of(repo, sync.cloned().unwrap_or(SyncState::Idle)),
        environments,
        release: None,
    }
}
