//! How many edges serve what production serves, in an operator's words.

use std::fmt;

use super::state::EdgeState;

/// Of the edges that copy an environment, how many serve what it serves now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct EdgeTally {
    pub serving: usize,
    pub edges: usize,
}

impl EdgeTally {
    /// Counts the edges of one distribution: an edge serves only when its state says so.
    pub fn of<'a>(states: impl IntoIterator<Item = &'a EdgeState>) -> Self {
        let (mut serving, mut edges) = (0, 0);
        for state in states {
            edges += 1;
            serving += usize::from(*state == EdgeState::Serving);
        }
        Self { serving, edges }
    }

    /// Every edge serves it.
    pub fn complete(&self) -> bool {
        self.serving == self.edges
    }
}

impl fmt::Display for EdgeTally {
    /// "edges: 1 of 2 serve it".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "edges: {} of {} serve it", self.serving, self.edges)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_serving_edges_are_counted_as_serving() {
        let states = [
            EdgeState::Serving,
            EdgeState::Replicating,
            EdgeState::Unreachable { error: "x".into() },
        ];
        let tally = EdgeTally::of(&states);
        assert_eq!(tally.to_string(), "edges: 1 of 3 serve it");
        assert!(!tally.complete());
        assert!(EdgeTally::of(&[EdgeState::Serving, EdgeState::Serving]).complete());
        assert_eq!(EdgeTally::of(&[]).to_string(), "edges: 0 of 0 serve it");
    }
}
