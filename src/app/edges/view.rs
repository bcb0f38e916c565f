//! What the edges page and the JSON API show: a row per edge, a cell per distribution it
//! copies, each with its state, its lag since production moved, and the edge's last
//! replication. Read from what the console last judged; nothing is read upstream here.

use chrono::{DateTime, Utc};

use super::EdgeWorld;
use crate::domain::edge::{lag, EdgeName, EdgeState, EdgeTally, Replication};
use crate::domain::environment::EnvironmentName;

/// One edge, as last judged.
#[derive(Debug, Clone)]
pub struct EdgeRow {
    pub name: EdgeName,
    pub environments: Vec<EnvironmentName>,
    pub cells: Vec<EdgeCell>,
    /// Its last replication started by the console, when one was.
    pub last: Option<Replication>,
    /// A follow-up runs for it now.
    pub following: bool,
    /// When it is tried again, while it has not caught up.
    pub next_retry: Option<DateTime<Utc>>,
}

/// One edge's state for one distribution.
#[derive(Debug, Clone)]
pub struct EdgeCell {
    pub distribution: String,
    pub environment: EnvironmentName,
    /// `None`: not judged yet.
    pub state: Option<EdgeState>,
    pub lag: chrono::Duration,
    pub judged_at: Option<DateTime<Utc>>,
}

/// Every edge, as last judged (by any replica: the kept states read first); empty when the
/// console follows none.
pub async fn rows(state: &EdgeWorld) -> Vec<EdgeRow> {
    if let Some(edges) = &state.edges {
        super::keep::refresh(edges).await;
    }
    rows_seen(state).await
}

/// Every edge, as this process last saw it (nothing read, not even the store).
pub(crate) async fn rows_seen(state: &EdgeWorld) -> Vec<EdgeRow> {
    let Some(edges) = &state.edges else {
        return Vec::new();
    };
    let now = state.clock.now().await;
    let following = edges.board.following_edges();
    edges
        .followed()
        .iter()
        .map(|edge| {
            let cells = edges
                .board
                .marks_of(&edge.environments)
                .into_iter()
                .map(|(distribution, mark)| {
                    let cell = edges.board.cell(&edge.name, &distribution);
                    let lag = cell
                        .as_ref()
                        .map(|c| lag(&c.state, mark.moved_at, now))
                        .unwrap_or_else(chrono::Duration::zero);
                    EdgeCell {
                        environment: mark.environment,
                        state: cell.as_ref().map(|c| c.state.clone()),
                        judged_at: cell.map(|c| c.judged_at),
                        lag,
                        distribution,
                    }
                })
                .collect();
            EdgeRow {
                name: edge.name.clone(),
                environments: edge.environments.clone(),
                cells,
                last: edges.board.last_replication(&edge.name),
                following: following.contains(&edge.name),
                next_retry: edges.board.next_retry(&edge.name),
            }
        })
        .collect()
}

/// How many edges serve what production serves for `distribution`: "edges: 1 of 2 serve
/// it"; `None` when no edge copies it.
pub async fn tally(state: &EdgeWorld, distribution: &str) -> Option<EdgeTally> {
    let rows = rows(state).await;
    let states: Vec<EdgeState> = rows
        .iter()
        .filter_map(|row| row.cells.iter().find(|c| c.distribution == distribution))
        .map(|c| c.state.clone().unwrap_or(EdgeState::Replicating))
        .collect();
    (!states.is_empty()).then(|| EdgeTally::of(&states))
}

/// "production: moved; edges: 1 of 2 serve it": one distribution of an environment the edges
/// copy, as the deploy's answer and the versions page say it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeLine {
    pub environment: EnvironmentName,
    pub distribution: String,
    /// The console moved it since it started (or the edge state store says so).
    pub moved: bool,
    pub tally: EdgeTally,
    /// Each edge that copies it, and its state (`None`: not judged yet), in the configured
    /// order.
    pub edges: Vec<(EdgeName, Option<EdgeState>, chrono::Duration)>,
}

/// The line of each `(environment, distribution)` the edges copy (the others have none), in
/// the order given; the kept states are read once.
pub async fn lines(
    state: &EdgeWorld,
    distributions: &[(EnvironmentName, String)],
) -> Vec<EdgeLine> {
    let Some(edges) = &state.edges else {
        return Vec::new();
    };
    if !distributions.iter().any(|(e, _)| edges.copy(e)) {
        return Vec::new();
    }
    let rows = rows(state).await;
    distributions
        .iter()
        .filter(|(environment, _)| edges.copy(environment))
        .filter_map(|(environment, distribution)| {
            let mark = edges.board.mark(distribution)?;
            let cells: Vec<(EdgeName, Option<EdgeState>, chrono::Duration)> = rows
                .iter()
                .filter(|row| row.environments.contains(environment))
                .map(|row| {
                    let cell = row.cells.iter().find(|c| &c.distribution == distribution);
                    (
                        row.name.clone(),
                        cell.and_then(|c| c.state.clone()),
                        cell.map_or_else(chrono::Duration::zero, |c| c.lag),
                    )
                })
                .collect();
            // Not judged yet counts as not serving: nothing is claimed.
            let states: Vec<EdgeState> = cells
                .iter()
                .map(|(_, s, _)| s.clone().unwrap_or(EdgeState::Replicating))
                .collect();
            Some(EdgeLine {
                environment: environment.clone(),
                distribution: distribution.clone(),
                moved: mark.moved_at.is_some(),
                tally: EdgeTally::of(&states),
                edges: cells,
            })
        })
        .collect()
}

/// The line of one distribution of `environment`, when the edges copy it.
pub async fn line(
    state: &EdgeWorld,
    environment: &EnvironmentName,
    distribution: &str,
) -> Option<EdgeLine> {
    lines(state, &[(environment.clone(), distribution.to_owned())])
        .await
        .pop()
}
