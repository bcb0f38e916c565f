//! How long an edge has not served what production serves.

use chrono::{DateTime, Utc};

use super::state::EdgeState;

/// The lag of an edge in `state` for a distribution that production moved at `moved_at`:
/// zero when it serves the same metadata; otherwise the time since production moved (or,
/// when the console has not seen production move since it started, since `behind_since`
/// for an edge known behind, else zero: nothing is claimed).
pub fn lag(
    state: &EdgeState,
    moved_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> chrono::Duration {
    let since = match state {
        EdgeState::Serving => None,
        EdgeState::Behind { since } => moved_at.or(*since),
        _ => moved_at,
    };
    since
        .map(|since| (now - since).max(chrono::Duration::zero()))
        .unwrap_or_else(chrono::Duration::zero)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + secs, 0).unwrap()
    }

    #[test]
    fn an_edge_serving_production_has_no_lag() {
        assert_eq!(
            lag(&EdgeState::Serving, Some(at(0)), at(90)).num_seconds(),
            0
        );
    }

    #[test]
    fn an_edge_not_serving_lags_since_production_moved() {
        let behind = EdgeState::Behind {
            since: Some(at(-50)),
        };
        assert_eq!(lag(&behind, Some(at(0)), at(90)).num_seconds(), 90);
        let unreachable = EdgeState::Unreachable {
            error: "refused".into(),
        };
        assert_eq!(lag(&unreachable, Some(at(10)), at(90)).num_seconds(), 80);
    }

    #[test]
    fn without_a_move_seen_only_a_known_behind_edge_has_a_lag() {
        let behind = EdgeState::Behind {
            since: Some(at(30)),
        };
        assert_eq!(lag(&behind, None, at(90)).num_seconds(), 60);
        assert_eq!(lag(&EdgeState::Other, None, at(90)).num_seconds(), 0);
    }
}
