//! What an edge serves for one distribution, judged from what its content app answered, what
//! the central Pulp serves, and its last replication.

use chrono::{DateTime, Utc};

use super::digest::MetadataDigest;
use super::replication::ReplicationEnd;

/// What an edge's content app answered for a distribution's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EdgeRead {
    /// It serves metadata with this digest.
    Serves(MetadataDigest),
    /// It answered that it serves nothing at that base path (404).
    Missing,
    /// It did not answer, or not within the bound: the reason, in the console's words.
    Unreachable(String),
}

/// What an edge serves for one distribution, compared with the central Pulp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EdgeState {
    /// The same metadata as production.
    Serving,
    /// Metadata production served before; `since`: when the console first saw it behind.
    Behind { since: Option<DateTime<Utc>> },
    /// A replication started by the console runs now, and the edge does not serve production
    /// yet.
    Replicating,
    /// Metadata production never served as far as the console knows: drift on the edge.
    Other,
    /// Its last replication failed, and it does not serve production: Pulp's words.
    Failed { error: String },
    /// Its content app did not answer.
    Unreachable { error: String },
    /// It serves nothing at the distribution's base path.
    Missing,
}

/// The states without their details: what the HTML hook `data-edge-state`, the JSON API and
/// the metrics name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeStateKind {
    Serving,
    Behind,
    Replicating,
    Other,
    Failed,
    Unreachable,
    Missing,
}

impl EdgeStateKind {
    pub const ALL: [Self; 7] = [
        Self::Serving,
        Self::Behind,
        Self::Replicating,
        Self::Other,
        Self::Failed,
        Self::Unreachable,
        Self::Missing,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Serving => "serving",
            Self::Behind => "behind",
            Self::Replicating => "replicating",
            Self::Other => "other",
            Self::Failed => "failed",
            Self::Unreachable => "unreachable",
            Self::Missing => "missing",
        }
    }
}

impl EdgeState {
    pub fn kind(&self) -> EdgeStateKind {
        match self {
            Self::Serving => EdgeStateKind::Serving,
            Self::Behind { .. } => EdgeStateKind::Behind,
            Self::Replicating => EdgeStateKind::Replicating,
            Self::Other => EdgeStateKind::Other,
            Self::Failed { .. } => EdgeStateKind::Failed,
            Self::Unreachable { .. } => EdgeStateKind::Unreachable,
            Self::Missing => EdgeStateKind::Missing,
        }
    }

    /// The error to show beside the state, when it has one.
    pub fn error(&self) -> Option<&str> {
        match self {
            Self::Failed { error } | Self::Unreachable { error } => Some(error),
            _ => None,
        }
    }
}

/// Judges one edge for one distribution.
///
/// `central`: the digest production serves now; `earlier`: digests production served before,
/// as the console saw them; `read`: what the edge's content app answered; `last`: how the
/// edge's last replication ended, when the console started one; `behind_since`: when the edge
/// was first judged behind (kept while it stays behind); `now`: this judgement's time.
///
/// Only an identical digest is `serving`: the answer never says an edge serves what it does
/// not. A running replication, a failed one, an unreachable content app come before what an
/// older digest means.
pub fn judge(
    central: &MetadataDigest,
    earlier: &[MetadataDigest],
    read: &EdgeRead,
    last: Option<&ReplicationEnd>,
    behind_since: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> EdgeState {
    match read {
        EdgeRead::Serves(digest) if digest == central => return EdgeState::Serving,
        EdgeRead::Unreachable(error) => {
            return EdgeState::Unreachable {
                error: error.clone(),
            }
        }
        _ => {}
    }
    match last {
        Some(ReplicationEnd::Running) => return EdgeState::Replicating,
        Some(ReplicationEnd::Failed(error)) => {
            return EdgeState::Failed {
                error: error.clone(),
            }
        }
        Some(ReplicationEnd::Completed) | None => {}
    }
    match read {
        EdgeRead::Serves(digest) if earlier.contains(digest) => EdgeState::Behind {
            since: Some(behind_since.unwrap_or(now)),
        },
        EdgeRead::Serves(_) => EdgeState::Other,
        EdgeRead::Missing => EdgeState::Missing,
        EdgeRead::Unreachable(_) => unreachable!("answered above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(c: char) -> MetadataDigest {
        MetadataDigest::parse(&c.to_string().repeat(64)).unwrap()
    }

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + secs, 0).unwrap()
    }

    fn judged(read: EdgeRead, last: Option<ReplicationEnd>) -> EdgeState {
        judge(
            &digest('a'),
            &[digest('b')],
            &read,
            last.as_ref(),
            None,
            at(0),
        )
    }

    #[test]
    fn the_same_digest_is_serving_whatever_the_last_replication_said() {
        for last in [
            None,
            Some(ReplicationEnd::Running),
            Some(ReplicationEnd::Failed("x".into())),
        ] {
            assert_eq!(
                judged(EdgeRead::Serves(digest('a')), last),
                EdgeState::Serving
            );
        }
    }

    #[test]
    fn an_older_digest_of_production_is_behind_since_first_seen() {
        let state = judge(
            &digest('a'),
            &[digest('b')],
            &EdgeRead::Serves(digest('b')),
            Some(&ReplicationEnd::Completed),
            Some(at(-30)),
            at(0),
        );
        assert_eq!(
            state,
            EdgeState::Behind {
                since: Some(at(-30))
            }
        );
        assert_eq!(
            judged(EdgeRead::Serves(digest('b')), None),
            EdgeState::Behind { since: Some(at(0)) }
        );
    }

    #[test]
    fn a_digest_production_never_served_is_drift() {
        assert_eq!(
            judged(EdgeRead::Serves(digest('c')), None),
            EdgeState::Other
        );
    }

    #[test]
    fn a_running_replication_is_replicating_until_the_digest_matches() {
        let state = judged(EdgeRead::Serves(digest('b')), Some(ReplicationEnd::Running));
        assert_eq!(state, EdgeState::Replicating);
        let state = judged(EdgeRead::Missing, Some(ReplicationEnd::Running));
        assert_eq!(state, EdgeState::Replicating);
    }

    #[test]
    fn a_failed_replication_carries_the_edge_s_words() {
        let state = judged(
            EdgeRead::Serves(digest('b')),
            Some(ReplicationEnd::Failed("upstream refused".into())),
        );
        assert_eq!(state.kind(), EdgeStateKind::Failed);
        assert_eq!(state.error(), Some("upstream refused"));
    }

    #[test]
    fn an_edge_that_does_not_answer_is_unreachable_even_while_replicating() {
        let state = judged(
            EdgeRead::Unreachable("connection refused".into()),
            Some(ReplicationEnd::Running),
        );
        assert_eq!(state.kind(), EdgeStateKind::Unreachable);
        assert_eq!(state.error(), Some("connection refused"));
    }

    #[test]
    fn nothing_at_the_base_path_is_missing() {
        let state = judged(EdgeRead::Missing, Some(ReplicationEnd::Completed));
        assert_eq!(state, EdgeState::Missing);
    }

    #[test]
    fn every_kind_has_the_name_the_hooks_use() {
        let names: Vec<&str> = EdgeStateKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "serving",
                "behind",
                "replicating",
                "other",
                "failed",
                "unreachable",
                "missing"
            ]
        );
    }
}
