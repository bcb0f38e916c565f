//! Scheduled deploys: made from the confirm step or the API after the checks a deploy would
//! make at the schedule's time ([`make`]), listed ([`list`]), cancelled by their author or a
//! deployer of the environment ([`cancel`]), and run at their time, once across replicas, by
//! a background task that claims each due schedule in the shared store ([`run`]) and deploys
//! it through the same deploy use case, every check made again; ended ones are pruned past
//! their retention ([`retention`]).

pub mod cancel;
pub mod list;
pub mod make;
pub mod retention;
pub mod run;

use crate::ports::ScheduleStore;

use crate::app::state::AppState;

/// Why a schedule could not be made, listed or acted on: where they are kept is missing or
/// failing.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreProblem {
    #[error("this console keeps no schedules (no schedule store is configured)")]
    NotKept,
    #[error(transparent)]
    Store(#[from] crate::ports::ScheduleStoreError),
}

/// The store, or why there is none.
pub(crate) fn store(state: &AppState) -> Result<&dyn ScheduleStore, StoreProblem> {
    state.schedules.as_deref().ok_or(StoreProblem::NotKept)
}
