//! The composition root: reads the configuration (defaults, pulp-cli's file, `--config`,
//! environment, flags), builds the adapters it names and serves the app. The only module
//! that knows both the use cases and every concrete adapter.

pub mod config;
mod pulp_cli;
mod server_edge;
pub mod startup;
