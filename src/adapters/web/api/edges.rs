//! `GET /api/v1/edges` and `POST /api/v1/edges/{name}/replicate`: the edges page as JSON
//! (the same use cases).

use axum::extract::{Path, State};
use axum::Json;
use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::edges::{again, view};
use crate::app::AppState;
use crate::domain::edge::ReplicationEnd;

use super::caller::Caller;
use super::error::{ApiError, ErrorBody};

/// One edge Pulp, as last judged.
#[derive(Debug, Serialize, ToSchema)]
pub struct EdgeItem {
    pub name: String,
    /// The environments whose distributions it copies.
    pub environments: Vec<String>,
    pub distributions: Vec<EdgeDistribution>,
    /// The last replication the console started on it (null: none yet).
    pub last_replication: Option<LastReplication>,
    /// A follow-up runs for it now.
    pub following: bool,
    /// When it is tried again (RFC 3339), while it has not caught up; null otherwise.
    pub next_retry: Option<String>,
}

/// One distribution an edge copies.
#[derive(Debug, Serialize, ToSchema)]
pub struct EdgeDistribution {
    pub distribution: String,
    pub environment: String,
    /// `serving`, `behind`, `replicating`, `other`, `failed`, `unreachable` or `missing`;
    /// null while not judged yet. Only `serving` means the edge serves what production does.
    pub state: Option<String>,
    /// Why, for `failed` and `unreachable`.
    pub error: Option<String>,
    /// Seconds since production moved, while the edge does not serve it (0 when serving).
    pub lag_seconds: i64,
    pub judged_at: Option<String>,
}

/// A replication started on an edge.
#[derive(Debug, Serialize, ToSchema)]
pub struct LastReplication {
    /// The edge's task group href.
    pub task: String,
    pub started_at: String,
    /// `running`, `completed` or `failed`.
    pub state: String,
    pub error: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EdgeList {
    pub items: Vec<EdgeItem>,
}

fn rfc3339(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn item(row: view::EdgeRow) -> EdgeItem {
    EdgeItem {
        name: row.name.to_string(),
        environments: row.environments.iter().map(ToString::to_string).collect(),
        distributions: row
            .cells
            .into_iter()
            .map(|cell| EdgeDistribution {
                state: cell.state.as_ref().map(|s| s.kind().as_str().to_owned()),
                error: cell
                    .state
                    .as_ref()
                    .and_then(|s| s.error())
                    .map(str::to_owned),
                lag_seconds: cell.lag.num_seconds(),
                judged_at: cell.judged_at.as_ref().map(rfc3339),
                environment: cell.environment.to_string(),
                distribution: cell.distribution,
            })
            .collect(),
        last_replication: row.last.map(|last| {
            let (state, error) = match last.end {
                ReplicationEnd::Running => ("running", None),
                ReplicationEnd::Completed => ("completed", None),
                ReplicationEnd::Failed(error) => ("failed", Some(error)),
            };
            LastReplication {
                task: last.task.as_str().to_owned(),
                started_at: rfc3339(&last.started_at),
                state: state.to_owned(),
                error,
            }
        }),
        following: row.following,
        next_retry: row.next_retry.as_ref().map(rfc3339),
    }
}

/// Every edge Pulp the console follows, as last judged (nothing is read from the edges here).
#[utoipa::path(get, path = "/api/v1/edges", operation_id = "listEdges", tag = "edges",
    responses((status = 200, body = EdgeList)))]
pub async fn list(State(state): State<AppState>) -> Json<EdgeList> {
    let rows = view::rows(&state.edge_world()).await;
    Json(EdgeList {
        items: rows.into_iter().map(item).collect(),
    })
}

/// Asks an edge to replicate now: someone who may deploy to every environment it copies (a
/// token needs `deploy:<environment>`). Answers at once; the follow-up runs on its own.
#[utoipa::path(post, path = "/api/v1/edges/{name}/replicate", operation_id = "replicateEdge", tag = "edges",
    params(("name" = String, Path, description = "The edge's name")),
    security(("bearer" = [])),
    responses((status = 202, description = "Asked; follow it in GET /api/v1/edges"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn replicate(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Caller(operator): Caller,
) -> Result<axum::http::StatusCode, ApiError> {
    again::ask(&state.edge_world(), &operator, &name).map_err(|e| ApiError::of(&e))?;
    Ok(axum::http::StatusCode::ACCEPTED)
}

/// A promotion's edges: what each edge that copies its distribution serves now, compared
/// with what production serves now.
#[derive(Debug, Serialize, ToSchema)]
pub struct PromotionEdges {
    /// "edges: 1 of 2 serve it".
    pub summary: String,
    /// How many edges serve what production serves (only `serving` counts).
    pub serving: usize,
    /// How many edges copy the distribution.
    pub edges: usize,
    /// Each edge, in the configured order.
    pub states: Vec<PromotionEdge>,
}

/// One edge's state for a promotion's distribution.
#[derive(Debug, Serialize, ToSchema)]
pub struct PromotionEdge {
    pub edge: String,
    /// `serving`, `behind`, `replicating`, `other`, `failed`, `unreachable` or `missing`;
    /// null while not judged yet.
    pub state: Option<String>,
    /// Why, for `failed` and `unreachable`.
    pub error: Option<String>,
    /// Seconds since production moved, while the edge does not serve it.
    pub lag_seconds: i64,
}

/// The edges of `distribution` of `environment`; `None` when no edge copies it.
pub async fn promotion_edges(
    state: &AppState,
    environment: &crate::domain::environment::EnvironmentName,
    distribution: &str,
) -> Option<PromotionEdges> {
    let line = view::line(&state.edge_world(), environment, distribution).await?;
    Some(PromotionEdges {
        summary: line.tally.to_string(),
        serving: line.tally.serving,
        edges: line.tally.edges,
        states: line
            .edges
            .into_iter()
            .map(|(edge, state, lag)| PromotionEdge {
                edge: edge.to_string(),
                error: state.as_ref().and_then(|s| s.error()).map(str::to_owned),
                state: state.map(|s| s.kind().as_str().to_owned()),
                lag_seconds: lag.num_seconds(),
            })
            .collect(),
    })
}
