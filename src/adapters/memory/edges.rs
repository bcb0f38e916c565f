//! [`InMemoryEdges`]: edge Pulps that live in the process, for the fast tests. The central
//! Pulp is any [`RepositoryManager`] (the in-memory Pulp): the digest of what it serves at a
//! base path is the sha256 of the publication's href there. A replication copies what the
//! central one serves at every base path into the edge; a test makes an edge unreachable,
//! makes its replications fail or hang, or makes it serve something else (drift).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use sha2::{Digest, Sha256};

use crate::domain::edge::{EdgeName, EdgeRead, MetadataDigest, ReplicationEnd, ReplicationTask};
use crate::ports::{EdgeError, EdgeReplicator, RepositoryManager};

#[derive(Default)]
struct Edge {
    serves: HashMap<String, MetadataDigest>,
    unreachable: bool,
    failing: Option<String>,
    holding: bool,
    replications: usize,
    tasks: HashMap<String, ReplicationEnd>,
}

/// The edges of an in-memory central Pulp. Cheap to clone (shared).
#[derive(Clone)]
pub struct InMemoryEdges {
    central: Arc<dyn RepositoryManager>,
    edges: Arc<Mutex<HashMap<EdgeName, Edge>>>,
}

impl InMemoryEdges {
    /// Edges named `names`, serving nothing yet.
    pub fn new(central: Arc<dyn RepositoryManager>, names: &[EdgeName]) -> Self {
        let edges = names.iter().map(|n| (n.clone(), Edge::default())).collect();
        Self {
            central,
            edges: Arc::new(Mutex::new(edges)),
        }
    }

    fn with<T>(&self, edge: &EdgeName, f: impl FnOnce(&mut Edge) -> T) -> Result<T, EdgeError> {
        let mut edges = self.edges.lock().unwrap_or_else(|p| p.into_inner());
        edges
            .get_mut(edge)
            .map(f)
            .ok_or_else(|| EdgeError::Unknown(edge.clone()))
    }

    /// Stops (`false`) or starts again (`true`) the edge: stopped, it answers nothing.
    pub fn set_reachable(&self, edge: &EdgeName, reachable: bool) {
        let _ = self.with(edge, |e| e.unreachable = !reachable);
    }

    /// Makes the edge's replications fail with `error` (`None`: succeed again).
    pub fn fail_replications(&self, edge: &EdgeName, error: Option<&str>) {
        let _ = self.with(edge, |e| e.failing = error.map(str::to_owned));
    }

    /// Holds the edge's replications running (`true`) until released (`false`: they then
    /// complete and copy what the central Pulp serves at that time).
    pub fn hold_replications(&self, edge: &EdgeName, holding: bool) {
        let _ = self.with(edge, |e| e.holding = holding);
    }

    /// Makes the edge serve `digest` at `base_path`, whatever the central Pulp serves.
    pub fn serve(&self, edge: &EdgeName, base_path: &str, digest: MetadataDigest) {
        let _ = self.with(edge, |e| e.serves.insert(base_path.to_owned(), digest));
    }

    /// How many replications the edge was asked for.
    pub fn replications(&self, edge: &EdgeName) -> usize {
        self.with(edge, |e| e.replications).unwrap_or(0)
    }

    /// What the central Pulp serves now, by base path.
    async fn central_now(&self) -> Result<HashMap<String, MetadataDigest>, EdgeError> {
        let distributions = self
            .central
            .list_distributions()
            .await
            .map_err(|e| EdgeError::Unreachable(e.to_string()))?;
        Ok(distributions
            .into_iter()
            .filter_map(|d| {
                let publication = d.publication?;
                Some((d.base_path, digest_of(publication.as_str())))
            })
            .collect())
    }
}

fn digest_of(text: &str) -> MetadataDigest {
    let hex = format!("{:x}", Sha256::digest(text.as_bytes()));
    MetadataDigest::parse(&hex).expect("a sha256 is 64 hex digits")
}

const NO_ANSWER: &str = "connection refused (the in-memory edge is stopped)";

#[async_trait]
impl EdgeReplicator for InMemoryEdges {
    async fn answers(&self, edge: &EdgeName) -> Result<(), EdgeError> {
        self.with(edge, |e| match e.unreachable {
            true => Err(EdgeError::Unreachable(NO_ANSWER.into())),
            false => Ok(()),
        })?
    }

    async fn replicate(&self, edge: &EdgeName) -> Result<ReplicationTask, EdgeError> {
        let central = self.central_now().await?;
        self.with(edge, |e| {
            if e.unreachable {
                return Err(EdgeError::Unreachable(NO_ANSWER.into()));
            }
            e.replications += 1;
            let task = format!("/pulp/api/v3/task-groups/{}/", e.replications);
            let end = match (&e.failing, e.holding) {
                (Some(error), _) => ReplicationEnd::Failed(error.clone()),
                (None, true) => ReplicationEnd::Running,
                (None, false) => {
                    e.serves = central;
                    ReplicationEnd::Completed
                }
            };
            e.tasks.insert(task.clone(), end);
            Ok(ReplicationTask::new(task))
        })?
    }

    async fn replication(
        &self,
        edge: &EdgeName,
        task: &ReplicationTask,
    ) -> Result<ReplicationEnd, EdgeError> {
        let central = self.central_now().await?;
        self.with(edge, |e| {
            if e.unreachable {
                return Err(EdgeError::Unreachable(NO_ANSWER.into()));
            }
            let end =
                e.tasks.get(task.as_str()).cloned().ok_or_else(|| {
                    EdgeError::Refused(format!("no task group {}", task.as_str()))
                })?;
            if end == ReplicationEnd::Running && !e.holding {
                e.serves = central;
                e.tasks
                    .insert(task.as_str().to_owned(), ReplicationEnd::Completed);
                return Ok(ReplicationEnd::Completed);
            }
            Ok(end)
        })?
    }

    async fn central_digest(&self, base_path: &str) -> Result<Option<MetadataDigest>, EdgeError> {
        Ok(self.central_now().await?.remove(base_path))
    }

    async fn edge_read(&self, edge: &EdgeName, base_path: &str) -> EdgeRead {
        self.with(edge, |e| {
            if e.unreachable {
                return EdgeRead::Unreachable(NO_ANSWER.into());
            }
            match e.serves.get(base_path) {
                Some(digest) => EdgeRead::Serves(digest.clone()),
                None => EdgeRead::Missing,
            }
        })
        .unwrap_or_else(|error| EdgeRead::Unreachable(error.to_string()))
    }
}
