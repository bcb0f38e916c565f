//! The Pulp 3 adapter: [`PulpClient`] implements [`crate::ports::RepositoryManager`] over
//! Pulp's REST API (pulpcore + pulp_rpm), on hyper with rustls.
//!
//! One concept per file: `settings` (what to connect to), `http` (transport, TLS,
//! timeouts), `session` (fast authentication), `errors` (statuses and bodies to
//! `UpstreamError`), `dto` (Pulp JSON to domain types, tasks included), `pagination`,
//! `sync_tasks` (latest syncs), `versions` (a page of versions, or a few by number),
//! `client` (URLs, helpers) and `manager` (the port's methods). Waiting for a task is the
//! rule of [`crate::adapters::shared::task_outcome`], shared with the in-memory Pulp.
//! `content` + `content_dto` implement [`crate::ports::ContentCatalog`], with `advisory_reads`
//! and `advisory_dto` for the exposure's advisory reads (fixes, held, references). `edges`
//! implements [`crate::ports::EdgeReplicator`]: the edge Pulps' replication and the digest
//! of the metadata each content app serves.

mod advisory_dto;
mod advisory_reads;
mod client;
mod content;
mod content_dto;
mod distribution_tasks;
mod dto;
mod edges;
mod errors;
mod manager;
mod publication_batch;
mod reusable;
mod settings;
mod sync_tasks;
mod transport;
mod versions;

pub use client::PulpClient;
pub use edges::{PulpEdge, PulpEdges};
pub use settings::{PulpSettings, Secret};
pub use transport::http::SetupError;
