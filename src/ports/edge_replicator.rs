//! The edge Pulps port: ask an edge to replicate from the central Pulp, follow its
//! replication, and read the digest of the metadata a content app (the central one or an
//! edge's) serves at a distribution's base path.

use async_trait::async_trait;

use crate::domain::edge::{EdgeName, EdgeRead, MetadataDigest, ReplicationEnd, ReplicationTask};

/// Why an edge did not do what it was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EdgeError {
    /// It did not answer, or not within the bound: nothing is known of it.
    #[error("the edge did not answer: {0}")]
    Unreachable(String),
    /// It answered with a refusal (an unknown upstream-pulp, a bad password, a 5xx): its
    /// words, in the console's.
    #[error("the edge refused: {0}")]
    Refused(String),
    /// The console configures no edge of that name.
    #[error("no edge is configured under the name '{0}'")]
    Unknown(EdgeName),
}

/// The edge Pulps the console follows, as configured.
#[async_trait]
pub trait EdgeReplicator: Send + Sync {
    /// Asks `edge` to replicate from the central Pulp (its upstream-pulp's `replicate/`), and
    /// answers the replication it started.
    async fn replicate(&self, edge: &EdgeName) -> Result<ReplicationTask, EdgeError>;

    /// Where `task`, a replication of `edge`, is now.
    async fn replication(
        &self,
        edge: &EdgeName,
        task: &ReplicationTask,
    ) -> Result<ReplicationEnd, EdgeError>;

    /// The digest of the metadata the central Pulp serves at `base_path`; `None` when it
    /// serves nothing there.
    async fn central_digest(&self, base_path: &str) -> Result<Option<MetadataDigest>, EdgeError>;

    /// What `edge`'s content app serves at `base_path` (a failure to answer is
    /// [`EdgeRead::Unreachable`], not an error).
    async fn edge_read(&self, edge: &EdgeName, base_path: &str) -> EdgeRead;

    /// Whether `edge`'s API answers the console: it takes the console's credentials and has
    /// the upstream-pulp the console asks to replicate (`/readyz`).
    async fn answers(&self, edge: &EdgeName) -> Result<(), EdgeError>;
}
