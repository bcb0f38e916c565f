//! The composition root: reads the configuration (defaults, pulp-cli's file, `--config`,
//! environment, flags), builds the adapters it names and serves the app. The only module
//! that knows both the use cases and every concrete adapter.

mod api;
mod audit_sinks;
mod background;
mod checks;
pub mod config;
mod environments;
mod error;
mod identity;
mod layers;
pub mod overrides;
mod password_file;
mod policy;
mod pulp_cli;
mod pulp_settings;
mod raw;
mod server_edge;
mod settings;
pub mod startup;
mod webhooks;

pub use pulp_settings::default_pulp_settings;
