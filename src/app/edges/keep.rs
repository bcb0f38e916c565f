//! What the edges keep in the edge state store, and read back from it: each change of the
//! board that must outlive a restart (a distribution's mark, an edge's cell, an edge's run)
//! is written through, and the board takes the store's records before each use that other
//! replicas may have changed (a round under the edge's turn, the drift reconciler, a page).
//!
//! The store never holds or fails anything: a write or a read it refuses is logged and the
//! board goes on with what it has (the edges are judged again).

use chrono::{DateTime, Utc};

use crate::domain::edge::EdgeName;
use crate::ports::edge_state_store::{StoredCell, StoredMark, StoredRun};

use super::board::Cell;
use super::Edges;

/// The board takes what the store keeps.
pub async fn refresh(edges: &Edges) {
    match edges.store.load().await {
        Ok(records) => edges.board.restore(&records),
        Err(error) => {
            tracing::warn!(%error, "edges: the kept edge states could not be read; the last ones seen are shown")
        }
    }
}

/// Keeps `distribution`'s mark as the board has it.
pub async fn mark(edges: &Edges, distribution: &str) {
    let Some(mark) = edges.board.mark(distribution) else {
        return;
    };
    let stored = StoredMark {
        distribution: distribution.to_owned(),
        environment: mark.environment,
        base_path: mark.base_path,
        central: mark.central,
        moved_at: mark.moved_at,
        earlier: mark.earlier,
    };
    if let Err(error) = edges.store.put_mark(&stored).await {
        tracing::warn!(%error, distribution, "edges: a distribution's mark could not be kept");
    }
}

/// Records `edge`'s cell for `distribution` on the board and in the store; answers the cell
/// it replaced, as the store answered it (the other replicas' word), else as the board had it.
pub async fn cell(edges: &Edges, edge: &EdgeName, distribution: &str, cell: Cell) -> Option<Cell> {
    let before = edges.board.judged(edge, distribution, cell.clone());
    let stored = StoredCell {
        edge: edge.clone(),
        distribution: distribution.to_owned(),
        state: cell.state,
        served: cell.served,
        served_since: cell.served_since,
        judged_at: cell.judged_at,
    };
    match edges.store.swap_cell(&stored).await {
        Ok(kept) => kept.map(|old| Cell {
            state: old.state,
            judged_at: old.judged_at,
            served: old.served,
            served_since: old.served_since,
        }),
        Err(error) => {
            tracing::warn!(%error, %edge, distribution, "edges: an edge's state could not be kept");
            before
        }
    }
}

/// Keeps `edge`'s run (its last replication and next retry) as the board has it.
pub async fn run(edges: &Edges, edge: &EdgeName) {
    let stored = StoredRun {
        edge: edge.clone(),
        last: edges.board.last_replication(edge),
        next_retry: edges.board.next_retry(edge),
    };
    if let Err(error) = edges.store.put_run(&stored).await {
        tracing::warn!(%error, %edge, "edges: an edge's last replication could not be kept");
    }
}

/// Notes when `edge` is tried again (`None`: it caught up), and keeps it.
pub async fn retry_at(edges: &Edges, edge: &EdgeName, at: Option<DateTime<Utc>>) {
    edges.board.retry_at(edge, at);
    run(edges, edge).await;
}
