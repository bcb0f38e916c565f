//! The application: use cases over the ports, configuration and wiring.

pub mod config;
pub mod dashboard;
pub mod deploy;
mod deploy_lock;
mod deploy_steps;
pub mod facts;
mod pulp_cli;
pub mod startup;
pub mod state;
pub mod sync;
pub mod versions;

pub use deploy_lock::DeployLocks;
pub use state::AppState;
