//! The schedules pages and the API list: the newest made, of one repository or all.

use crate::domain::{RepoId, Schedule, ScheduleId};

use crate::app::schedules::{store, StoreProblem};
use crate::app::state::AppState;

/// How many schedules a list shows.
pub const LISTED: usize = 200;

/// The newest schedules (of `repo` when given), newest made first.
pub async fn recent(
    state: &AppState,
    repo: Option<&RepoId>,
) -> Result<Vec<Schedule>, StoreProblem> {
    Ok(store(state)?.recent(repo, LISTED).await?)
}

/// The schedules of `repo` still waiting or running, soonest first (the versions page).
pub async fn open_of(state: &AppState, repo: &RepoId) -> Result<Vec<Schedule>, StoreProblem> {
    let open = store(state)?.open().await?;
    Ok(open
        .into_iter()
        .filter(|s| s.repository_uuid == repo.as_str())
        .collect())
}

/// One schedule.
pub async fn get(state: &AppState, id: &ScheduleId) -> Result<Option<Schedule>, StoreProblem> {
    Ok(store(state)?.get(id).await?)
}
