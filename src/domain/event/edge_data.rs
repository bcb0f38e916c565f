//! `edge.behind`, `edge.failed` and `edge.drift`: an edge Pulp that does not serve what
//! production serves, told once per fact.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::edge::{EdgeName, EdgeState, EdgeStateKind, MetadataDigest};
use crate::domain::environment::EnvironmentName;

/// One edge, one distribution it copies, and what it serves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeData {
    pub edge: String,
    pub environment: EnvironmentName,
    pub distribution: String,
    /// The edge's state (`behind`, `failed`, `other`...).
    pub state: String,
    /// The sha256 of the metadata production serves.
    pub central_digest: String,
    /// The sha256 of the metadata the edge serves (null: it served none).
    pub edge_digest: Option<String>,
    /// Seconds since production moved and the edge did not follow.
    pub lag_secs: i64,
    /// The edge's words (`failed`), or the console's (`unreachable`).
    pub error: Option<String>,
    /// When the edge was judged so.
    pub since: DateTime<Utc>,
}

impl EdgeData {
    /// `edge`'s judgement for `distribution` of `environment`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        edge: &EdgeName,
        environment: &EnvironmentName,
        distribution: &str,
        state: &EdgeState,
        central: &MetadataDigest,
        served: Option<&MetadataDigest>,
        lag: chrono::Duration,
        since: DateTime<Utc>,
    ) -> Self {
        Self {
            edge: edge.to_string(),
            environment: environment.clone(),
            distribution: distribution.to_owned(),
            state: state.kind().as_str().to_owned(),
            central_digest: central.to_string(),
            edge_digest: served.map(|d| d.to_string()),
            lag_secs: lag.num_seconds(),
            error: state.error().map(str::to_owned),
            since,
        }
    }

    /// The edge's state is `kind`.
    pub fn is(&self, kind: EdgeStateKind) -> bool {
        self.state == kind.as_str()
    }
}
