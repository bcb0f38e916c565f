//! The configuration's tables, each checked into what the console uses: `[server]` into the
//! web edge's limits, `[environments]` into the
//! domain's path, `[policy]` into the domain's `Policy`, `[identity]` and `[oidc]` into an identity
//! adapter, `[api]` into the bearer tokens, `[[webhooks]]` into subscriptions, `[releases]` into the
//! releases, `[schedules]` into the timing of scheduled deploys, `[verification]` into the
//! policy on unsigned metadata, `[evidence]` into the signing key's settings, `[[edges]]` and
//! `[edge_replication]` into the edge Pulps. Each refusal names
//! its key: a [`error::ConfigError`], the one error of reading the configuration, and a table
//! read by hand reads each value through `table::typed`. The floor below `config`: a section
//! declares its own raw table (`RawPolicy` in `policy.rs`) and imports nothing of `config`,
//! which assembles the sections into `RawConfig` and `Config`.

pub(crate) mod api;
pub(crate) mod edges;
pub(crate) mod environments;
pub(crate) mod error;
pub mod evidence;
pub(crate) mod identity;
pub(crate) mod insights;
pub(crate) mod oidc;
pub(crate) mod password_file;
pub(crate) mod policy;
pub(crate) mod policy_digest;
pub(crate) mod releases;
pub(crate) mod schedules;
pub(crate) mod server_edge;
pub(crate) mod table;
pub(crate) mod verification;
pub(crate) mod webhooks;
