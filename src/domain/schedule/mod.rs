//! Scheduled deploys: a deploy asked now to run at a later time, once, on whichever replica
//! claims it first, with every check of a deploy made again at its time. A schedule is a
//! record kept in the shared store and replaced, compare-and-swap on its revision, as it
//! goes from `waiting` to `running` (claimed, until the claim lapses) and to its end.

pub mod model;
pub mod record;
#[cfg(test)]
mod record_properties;
pub mod retention;
pub mod rules;

pub use model::{Claim, Schedule, ScheduleState};
pub use rules::{Due, ScheduleRefusal};
