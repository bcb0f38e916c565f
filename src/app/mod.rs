//! The application: use cases over the ports. It depends on `domain` and `ports` only;
//! the composition root ([`crate::wiring`]) builds the adapters and hands them in.

pub mod changes;
pub mod dashboard;
pub mod deploy;
mod deploy_lock;
mod deploy_outcome;
mod deploy_steps;
mod deploy_turn;
pub mod diff_ahead;
pub mod diff_cache;
mod diff_flights;
mod diff_queue;
pub mod diff_read;
pub mod environments;
pub mod events;
mod events_state;
pub mod facts;
pub mod history;
pub mod known_diffs;
pub mod policy_gate;
mod preview;
pub mod reconcile;
mod request_ask;
pub mod requests;
pub mod state;
pub mod sync;
pub mod versions;
pub mod webhook_delivery;

pub use deploy_lock::DeployLocks;
pub use diff_cache::DiffCache;
pub use diff_queue::DiffAhead;
pub use events_state::Events;
pub use state::AppState;
