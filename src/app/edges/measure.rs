//! The edges in the metrics, after each judgement: `repo_console_edge_lag_seconds{edge}` and
//! `repo_console_edges{state}`, through the state's metrics port.

use super::EdgeWorld;
use crate::domain::edge::EdgeStateKind;

use super::view::rows_seen;

/// Reports what the board holds now.
pub async fn report(state: &EdgeWorld) {
    let rows = rows_seen(state).await;
    let lags: Vec<(String, i64)> = rows
        .iter()
        .map(|row| {
            let lag = row
                .cells
                .iter()
                .map(|c| c.lag.num_seconds())
                .max()
                .unwrap_or(0);
            (row.name.to_string(), lag)
        })
        .collect();
    let states: Vec<(&'static str, i64)> = EdgeStateKind::ALL
        .iter()
        .map(|kind| {
            let count = rows
                .iter()
                .flat_map(|row| &row.cells)
                .filter(|c| c.state.as_ref().map(|s| s.kind()) == Some(*kind))
                .count();
            (kind.as_str(), i64::try_from(count).unwrap_or(i64::MAX))
        })
        .collect();
    state.metrics.edges_judged(&lags, &states);
}
