//! Edges: production is what every edge Pulp serves. After a promotion moved a distribution
//! of an environment the edges copy (every way a version moves reaches [`after_promotion`]:
//! it is a step of the one pipeline, after its moves and audit lines), the console asks each
//! edge to replicate, follows the replication, and compares the digest of the metadata each
//! edge serves with the central one's ([`follow`]). It never holds or fails the promotion:
//! the follow-up runs in a task of its own, one at a time per edge (across replicas, under
//! the shared lock), retried with a back-off capped at `edge_replication.retry_max_secs`
//! until every edge serves production.
//!
//! What each edge serves is on a board in memory ([`board`]), written through to the edge
//! state store and read back from it ([`keep`]): after a restart an edge serving what
//! production served before is still `behind`, and replicas share one word on each edge
//! ([`reconcile`] reads every edge's distributions at start and with the drift reconciler). [`view`] is what the edges page and the JSON API show; [`again`] is
//! their "replicate again", under the policy. Each takes an [`EdgeWorld`]: what it needs of
//! the application's state, handed in (`AppState::edge_world`), so that this room stays out
//! of the state's import circle.

pub mod again;
pub mod answering;
pub mod board;
pub mod follow;
pub mod keep;
pub mod measure;
pub mod reconcile;
pub mod tell;
pub mod view;

use std::sync::Arc;
use std::time::Duration;

use crate::domain::edge::{EdgeBackoff, EdgeName};
use crate::domain::environment::{EnvironmentName, EnvironmentPath};
use crate::domain::policy::Policy;
use crate::ports::{
    Clock, DeployLock, EdgeReplicator, EdgeStateStore, EventMetrics, RepositoryManager,
};

use board::Board;

pub use follow::{after_promotion, replicate_again};
pub use reconcile::reconcile;
pub use tell::EdgeNews;

/// What the edges' use cases need of the application's state, handed in by it
/// (`EdgeWorld::edge_world`), so that this room does not import the state that holds it.
/// Cheap to clone (shared).
#[derive(Clone)]
pub struct EdgeWorld {
    /// The edges followed; `None`: none configured.
    pub(crate) edges: Option<Edges>,
    pub(crate) clock: Arc<dyn Clock>,
    /// The lock shared with the other replicas (`None`: the console runs alone).
    pub(crate) replica_lock: Option<Arc<dyn DeployLock>>,
    pub(crate) metrics: Arc<dyn EventMetrics>,
    /// The central Pulp, for the reads of the drift reconciler.
    pub(crate) reads: Arc<dyn RepositoryManager>,
    pub(crate) environments: Arc<EnvironmentPath>,
    pub(crate) policy: Arc<Policy>,
    /// Where `edge.*` events go (`None`: no webhooks).
    pub(crate) news: Option<Arc<dyn EdgeNews>>,
}

impl EdgeWorld {
    /// The edges followed, when any.
    pub fn edges(&self) -> Option<&Edges> {
        self.edges.as_ref()
    }
}

/// How the edges are followed (`[edge_replication]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeFollow {
    /// How long a replication is followed before it is tried again.
    pub replication_timeout: Duration,
    /// The wait between two attempts at an edge that did not catch up.
    pub backoff: EdgeBackoff,
    /// How long an edge may lag before `edge.behind` is told.
    pub behind_alert: Duration,
    /// Between two looks at a running replication.
    pub poll: Duration,
}

/// One edge the console follows, and the environments it copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowedEdge {
    pub name: EdgeName,
    pub environments: Vec<EnvironmentName>,
}

impl FollowedEdge {
    pub fn copies(&self, environment: &EnvironmentName) -> bool {
        self.environments.contains(environment)
    }
}

/// The edges, their port and what was last seen of them. Cheap to clone (shared).
#[derive(Clone)]
pub struct Edges {
    pub(crate) replicator: Arc<dyn EdgeReplicator>,
    pub(crate) edges: Arc<[FollowedEdge]>,
    pub(crate) follow: EdgeFollow,
    pub(crate) board: Arc<Board>,
    /// Where what must outlive a restart is kept (shared by the replicas).
    pub(crate) store: Arc<dyn EdgeStateStore>,
    /// Which edges answered `/readyz`'s last round.
    pub(crate) last_round: Arc<answering::LastRound>,
}

impl Edges {
    pub fn new(
        replicator: Arc<dyn EdgeReplicator>,
        edges: Vec<FollowedEdge>,
        follow: EdgeFollow,
        store: Arc<dyn EdgeStateStore>,
    ) -> Self {
        Self {
            replicator,
            edges: edges.into(),
            follow,
            board: Arc::default(),
            store,
            last_round: Arc::default(),
        }
    }

    /// Where their state is kept, in words.
    pub fn kept_where(&self) -> String {
        self.store.target()
    }

    /// The edges, in the configured order.
    pub fn followed(&self) -> &[FollowedEdge] {
        &self.edges
    }

    /// Whether any edge copies `environment`.
    pub fn copy(&self, environment: &EnvironmentName) -> bool {
        self.edges.iter().any(|e| e.copies(environment))
    }

    /// How many follow-ups run now (tests wait for none).
    pub fn following(&self) -> usize {
        self.board.following()
    }
}
