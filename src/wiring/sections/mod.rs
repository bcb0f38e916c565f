//! The configuration's tables, each checked into what the console uses: `[pulp]` into the
//! Pulp client's settings, `[server]` into the web edge's limits, `[environments]` into the
//! domain's path, `[policy]` into the domain's `Policy`, `[identity]` into an identity
//! adapter, `[api]` into the bearer tokens, `[[webhooks]]` into subscriptions, `[releases]` into the
//! releases, `[schedules]` into the timing of scheduled deploys, `[verification]` into the
//! policy on unsigned metadata, `[[edges]]` and `[edge_replication]` into the edge Pulps. Each refusal names
//! its key.

pub(crate) mod api;
pub(crate) mod edges;
pub(crate) mod environments;
pub(crate) mod identity;
pub(crate) mod policy;
pub(crate) mod pulp;
pub(crate) mod releases;
pub(crate) mod schedules;
pub(crate) mod server_edge;
pub(crate) mod verification;
pub(crate) mod webhooks;
