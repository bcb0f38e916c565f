//! Use case: the dashboard, every repository with its latest version and sync state.

use std::collections::HashMap;

use crate::domain::{Badge, RepoId, Repository, SyncState};
use crate::ports::PageRequest;

use super::state::AppState;
use super::sync::SyncCell;

/// One repository on the dashboard.
#[derive(Debug, Clone)]
pub struct DashboardRow {
    pub id: RepoId,
    pub name: String,
    pub badge: Badge,
    /// The sync cell, which also knows the latest version.
    pub sync: SyncCell,
}

/// One page of the dashboard.
#[derive(Debug, Clone)]
pub struct Dashboard {
    pub rows: Vec<DashboardRow>,
    pub total: u64,
    /// The page shown, from 0 (may be past the last one).
    pub page: u64,
    pub offset: u64,
    pub limit: u64,
    /// Set when the repositories could not be listed.
    pub error: Option<String>,
    /// Set when sync states could not be read (rows are then shown without them).
    pub sync_error: Option<String>,
}

/// Two upstream calls whatever the number of repositories: a page of repositories, then
/// the newest sync task of each (one call for all).
#[tracing::instrument(skip_all, fields(page = page))]
pub async fn dashboard(state: &AppState, page: u64) -> Dashboard {
    let limit = state.page_size.max(1);
    let offset = page.saturating_mul(limit);
    let mut board = Dashboard {
        rows: Vec::new(),
        total: 0,
        page,
        offset,
        limit,
        error: None,
        sync_error: None,
    };
    let repos = match state.reads.list_repos(PageRequest { offset, limit }).await {
        Ok(page) => page,
        Err(error) => {
            tracing::warn!(%error, "dashboard: repositories not listed");
            board.error = Some(format!("Could not list repositories: {error}"));
            return board;
        }
    };
    board.total = repos.total;
    let ids: Vec<RepoId> = repos.items.iter().map(|r| r.id.clone()).collect();
    let syncs = match state.reads.sync_states(&ids).await {
        Ok(syncs) => syncs,
        Err(error) => {
            tracing::warn!(%error, "dashboard: synchronization states not read");
            board.sync_error = Some(format!("Could not read synchronization tasks: {error}"));
            HashMap::new()
        }
    };
    board.rows = repos
        .items
        .iter()
        .map(|repo| row(repo, syncs.get(&repo.id)))
        .collect();
    board
}

fn row(repo: &Repository, sync: Option<&SyncState>) -> DashboardRow {
    DashboardRow {
        id: repo.id.clone(),
        name: repo.display_name().to_owned(),
        badge: repo.verification.badge(),
        sync: SyncCell::of(repo, sync.cloned().unwrap_or(SyncState::Idle)),
    }
}
