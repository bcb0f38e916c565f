//! Delivery insights: how often, how fast and how safely versions reach each environment,
//! folded from the audit log's outcome lines (with each version's creation time in Pulp and
//! each approved request's wait) into a [`Ledger`], then read for a [`Scope`] (repositories,
//! a release, an environment, a time range) as [`Figures`], with the check reports made in
//! that range.
//!
//! The definitions, as the user guide states them: a deploy arrives at the time of its
//! `deployed` line; rollbacks are not deploys in the frequency or the lead time; a deploy
//! failed when a rollback undid it (rolled back from the version it brought) within the
//! window, and the change failure rate is failed deploys over deploys; time to restore runs
//! from the undone deploy to its rollback; the check pass rate is the share of the reports
//! made in the range that passed, in the environment each check ran in. Percentiles are nearest-rank ([`Spread`]).

pub mod figures;
pub mod ledger;
pub mod percentile;
pub mod scope;
pub mod week;

pub use figures::{EnvironmentFigures, Figures, WeekFigures};
pub use ledger::{approval_wait, Arrival, ArrivalKind, Ledger, LineFacts};
pub use percentile::{nearest_rank, Spread};
pub use scope::{RollbackWindow, Scope};
pub use week::week_start;

#[cfg(test)]
mod tests;
