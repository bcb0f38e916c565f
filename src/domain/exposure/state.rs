//! The state of one cell (a repository's environment) for a question, and the counts of a
//! column.

use std::collections::BTreeMap;

use serde::Serialize;

/// What an environment's version is, for the question asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExposureState {
    /// The newest served build is older than the fix.
    Affected,
    /// Every package asked about is at or above the fix (or the version holds the advisory).
    Fixed,
    /// The package is served (no bound asked: nothing to judge).
    Served,
    /// None of the packages asked about is served (or the environment serves nothing).
    Absent,
    /// Pulp could not be read for this cell: never a guess.
    Unknown,
    /// The question does not apply to the repository's type: an advisory or CVE question on a
    /// repository whose type carries no advisories (Debian).
    NotApplicable,
}

impl ExposureState {
    pub const ALL: [ExposureState; 6] = [
        Self::Affected,
        Self::Fixed,
        Self::Served,
        Self::Absent,
        Self::Unknown,
        Self::NotApplicable,
    ];

    /// The stable word (`data-state`, JSON, CSV).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Affected => "affected",
            Self::Fixed => "fixed",
            Self::Served => "served",
            Self::Absent => "absent",
            Self::Unknown => "unknown",
            Self::NotApplicable => "not_applicable",
        }
    }
}

/// How many cells of one environment are in each state, in [`ExposureState::ALL`] order
/// (states with none left out).
pub fn count_states(
    states: impl IntoIterator<Item = ExposureState>,
) -> Vec<(ExposureState, usize)> {
    let mut counts: BTreeMap<ExposureState, usize> = BTreeMap::new();
    for state in states {
        *counts.entry(state).or_default() += 1;
    }
    ExposureState::ALL
        .into_iter()
        .filter_map(|s| counts.get(&s).map(|n| (s, *n)))
        .collect()
}

/// "3 affected, 12 fixed, 40 absent"; "nothing" when there is no cell.
pub fn counts_in_words(counts: &[(ExposureState, usize)]) -> String {
    if counts.is_empty() {
        return "nothing".to_owned();
    }
    counts
        .iter()
        .map(|(state, n)| format!("{n} {}", state.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_a_fixed_order_and_in_words() {
        use ExposureState::*;
        let counts = count_states([Absent, Affected, Fixed, Absent, Fixed, Fixed]);
        assert_eq!(counts, [(Affected, 1), (Fixed, 3), (Absent, 2)]);
        assert_eq!(counts_in_words(&counts), "1 affected, 3 fixed, 2 absent");
        assert_eq!(counts_in_words(&count_states([])), "nothing");
    }
}
