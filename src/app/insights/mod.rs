//! Delivery insights: the audit folded into a [`Ledger`] (see [`crate::domain::insights`])
//! line by line, from where the last fold stopped, then read for a scope with the check
//! reports made in it. Pages and the JSON API read them through [`figures`]; `/metrics`'s
//! lead time is observed by the deploy itself (`crate::app::promotion::measure`), not here.
//!
//! - `settings.rs`: the rollback window (`[insights] rollback_window_hours`), given by the
//!   composition root;
//! - `folding.rs`: the state part that holds the ledger, the audit position it has read to
//!   and each version's creation time in Pulp (asked once per version), and the fold;
//! - `read.rs`: the figures of a scope, after a fold, with one read of the check store;
//!   `error.rs`: why there are none.

pub mod error;
pub mod folding;
pub mod read;
pub mod settings;

pub use error::InsightsError;
pub use folding::{catch_up, InsightsLedger};
pub use read::{figures, Asked, InsightsView};
pub use settings::InsightsSettings;
