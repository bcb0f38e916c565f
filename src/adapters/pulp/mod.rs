//! The Pulp 3 adapter: [`PulpClient`] implements [`crate::ports::RepositoryManager`] over
//! Pulp's REST API (pulpcore + pulp_rpm, and pulp_deb where installed), on hyper with rustls.
//!
//! One concept per file. Below, the `transport` room (it imports nothing of this one):
//! `settings` (what to connect to), `http` (transport, TLS, timeouts), `session` (fast
//! authentication), `errors` (statuses and bodies to `UpstreamError`). Here: `dto` (Pulp JSON
//! to domain types, tasks included), `pagination` (Pulp's lists read whole),
//! `sync_tasks` (latest syncs), `versions` (a page of versions, or a few by number),
//! `client` (URLs, helpers) and `manager` (the port's methods). Waiting for a task is the
//! rule of [`crate::adapters::shared::task_outcome`], shared with the in-memory Pulp.
//! `content` + `content_dto` implement [`crate::ports::PackageCatalog`] and
//! [`crate::ports::AdvisoryCatalog`], with `advisory_reads` + `advisory_dto` for the
//! exposure's advisory reads (fixes, held, references).
//!
//! `plugins` is the one table of each content plugin's paths and names (pulp_rpm, pulp_deb);
//! `installed` says which of them this Pulp has and which serves a repository.
//! `edges` implements [`crate::ports::EdgeReplicator`]: the edge Pulps' replication and the
//! digest of the metadata each content app serves.

mod advisory_dto;
mod advisory_reads;
mod client;
mod content;
mod content_dto;
mod distribution_tasks;
mod dto;
mod edges;
mod installed;
mod manager;
mod pagination;
mod plugins;
mod publication_batch;
mod publish_options;
mod repo_list;
mod reusable;
mod served;
mod sync_tasks;
mod transport;
mod versions;

pub use client::PulpClient;
pub use edges::{PulpEdge, PulpEdges};
pub use served::PulpContent;
pub use transport::http::SetupError;
pub use transport::settings::{PulpSettings, Secret};
