//! A group's name as the identity scheme or the policy wrote it, compared by its canonical
//! key (the same caseless rule as people).

use std::fmt;

use crate::domain::identity::CaseMatching;
use crate::domain::identity::{person::admitted, InvalidName};

/// A group: its name as written (shown) and its key (compared). Two groups are equal when
/// their keys are.
#[derive(Debug, Clone)]
pub struct GroupName {
    shown: String,
    key: String,
}

impl GroupName {
    /// `text` (trimmed), when the identity rule admits it as a name (see
    /// [`admitted`]: a group with an invisible code point is refused like a person's).
    pub fn new(text: &str, matching: CaseMatching) -> Result<Self, InvalidName> {
        let shown = admitted(text, matching)?;
        Ok(Self {
            shown: shown.to_owned(),
            key: matching.canonical(shown),
        })
    }

    pub fn as_str(&self) -> &str {
        &self.shown
    }

    /// The canonical key it is compared by.
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl PartialEq for GroupName {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for GroupName {}

impl PartialOrd for GroupName {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for GroupName {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl std::hash::Hash for GroupName {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl fmt::Display for GroupName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}
