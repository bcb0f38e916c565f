//! The schedules pages and the API list: the newest made, of one repository or all.

use crate::domain::ids::ScheduleId;
use crate::domain::repository::RepoId;
use crate::domain::schedule::record::UnreadableSchedule;
use crate::domain::schedule::Schedule;

use crate::app::schedules::{store, StoreProblem};
use crate::app::state::AppState;

/// How many schedules a list shows.
pub const LISTED: usize = 200;

/// What a list of schedules shows: the newest readable ones, and those whose last record
/// cannot be read (never run; shown so that an operator mends them).
#[derive(Debug, Clone, Default)]
pub struct Listed {
    pub schedules: Vec<Schedule>,
    pub unreadable: Vec<UnreadableSchedule>,
}

/// The newest schedules (of `repo` when given), newest made first, and every unreadable one.
pub async fn recent(state: &AppState, repo: Option<&RepoId>) -> Result<Listed, StoreProblem> {
    let store = store(state)?;
    Ok(Listed {
        schedules: store.recent(repo, LISTED).await?,
        unreadable: store.unreadable().await?,
    })
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
