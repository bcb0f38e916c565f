//! A repository version number, as upstream numbers them, and the order versions are
//! listed in. Hrefs, versions and the versions page all build on it.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A repository version number, as upstream numbers them (0, 1, 2…, with possible gaps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VersionNumber(u64);

impl VersionNumber {
    pub const fn new(n: u64) -> Self {
        Self(n)
    }

    pub const fn get(self) -> u64 {
        self.0
    }

    /// The label shown to operators: `v<n>`.
    pub fn label(self) -> String {
        format!("v{}", self.0)
    }
}

impl fmt::Display for VersionNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Newest first; a missing number sorts as 0 (the spec's rule).
pub fn newest_first(a: Option<VersionNumber>, b: Option<VersionNumber>) -> Ordering {
    let key = |n: Option<VersionNumber>| n.map_or(0, VersionNumber::get);
    key(b).cmp(&key(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_labelled_v_and_shown_bare() {
        let n = VersionNumber::new(12);
        assert_eq!(n.label(), "v12");
        assert_eq!(n.to_string(), "12");
        assert_eq!(n.get(), 12);
    }

    #[test]
    fn newest_first_puts_higher_numbers_first_and_a_missing_number_as_zero() {
        let (one, two) = (Some(VersionNumber::new(1)), Some(VersionNumber::new(2)));
        assert_eq!(newest_first(two, one), Ordering::Less);
        assert_eq!(newest_first(one, two), Ordering::Greater);
        assert_eq!(
            newest_first(None, Some(VersionNumber::new(1))),
            Ordering::Greater
        );
    }
}
