//! The composition root: reads the configuration (defaults, pulp-cli's file, `--config`,
//! environment, flags), builds the adapters it names and serves the app. The only module
//! that knows both the use cases and every concrete adapter.
//!
//! - [`config`]: how the configuration is read: the declaration of every key (`raw.rs` with
//!   `config/default.toml`), the layers (defaults, pulp-cli, file, environment, flags) and
//!   their merge, and the validated [`config::Config`];
//! - `sections`: each table checked into what the console uses (`[policy]` into the domain's
//!   `Policy`, `[identity]` into an identity adapter, `[[webhooks]]`, `[api]`, ...);
//! - [`startup`]: the adapters built and served; `audit_sinks`: the stores each sink brings;
//!   `background`: the work started beside the server; `demo_state`: where the demo writes;
//!   `demo_story`: the demo's release and policy, and what has happened on a fresh demo;
//!   `demo_edges`: the demo's two in-memory edge Pulps (one serving, one stopped);
//!   `first_run`: what start-up says about a console open to anyone; `audit_verify`: the
//!   `audit verify` command; `evidence_signing`: the signer `[evidence]` names;
//!   `evidence_verify`: the `evidence verify` command.

mod audit_sinks;
pub mod audit_verify;
mod background;
pub mod config;
mod demo_edges;
mod demo_state;
mod demo_story;
mod evidence_signing;
pub mod evidence_verify;
mod first_run;
mod sections;
pub mod startup;

pub use config::overrides;
pub use config::pulp_settings::default_pulp_settings;
