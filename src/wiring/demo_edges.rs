//! The demo's edges: two in-memory edge Pulps copying the demo's production, so that a
//! newcomer sees the feature on `/edges`, on the versions page and after a deploy:
//! `edge-fra` replicates and serves production, `edge-nyc` does not answer (stopped), and is
//! tried again with back-off for as long as the demo runs.

use std::sync::Arc;

use crate::adapters::memory::InMemoryEdges;
use crate::app::edges::{reconcile, replicate_again, EdgeFollow, Edges, FollowedEdge};
use crate::app::AppState;
use crate::domain::edge::EdgeName;
use crate::domain::environment::EnvironmentName;
use crate::ports::{EdgeStateStore, RepositoryManager};

/// The edge that serves production.
const SERVING: &str = "edge-fra";
/// The edge that does not answer.
const STOPPED: &str = "edge-nyc";

/// The demo's edges over the demo upstream `central`, copying `production`.
pub fn edges(
    central: Arc<dyn RepositoryManager>,
    production: &EnvironmentName,
    follow: EdgeFollow,
    store: Arc<dyn EdgeStateStore>,
) -> Edges {
    let names: Vec<EdgeName> = [SERVING, STOPPED]
        .iter()
        .filter_map(|n| EdgeName::parse(n).ok())
        .collect();
    let in_memory = InMemoryEdges::new(central, &names);
    if let Some(stopped) = names.iter().find(|n| n.as_str() == STOPPED) {
        in_memory.set_reachable(stopped, false);
    }
    let followed = names
        .into_iter()
        .map(|name| FollowedEdge {
            name,
            environments: vec![production.clone()],
        })
        .collect();
    Edges::new(Arc::new(in_memory), followed, follow, store)
}

/// Notes production's distributions and asks every demo edge to replicate (the follow-ups
/// run on their own).
pub async fn start(state: &AppState) {
    let world = state.edge_world();
    let Some(edges) = world.edges() else {
        return;
    };
    reconcile(&world).await;
    let names: Vec<EdgeName> = edges.followed().iter().map(|e| e.name.clone()).collect();
    for name in &names {
        replicate_again(&world, name);
    }
}
