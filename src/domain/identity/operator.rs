//! Who performs a deploy or a sync: a name, and the groups, as the identity scheme vouched
//! for them.

use std::fmt;

/// The longest operator name accepted (a proxy's user names are far shorter).
const MAX_LEN: usize = 256;

/// An operator's name: non-empty, at most 256 characters, no control characters (it goes
/// into audit lines and logs as it is).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operator {
    name: String,
    /// The groups the authenticating proxy named (none without a groups header).
    groups: Vec<String>,
}

/// Why a name is not an operator's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidOperator {
    #[error("the name is empty")]
    Empty,
    #[error("the name is longer than {MAX_LEN} characters")]
    TooLong,
    #[error("the name holds a control character")]
    ControlCharacter,
}

impl Operator {
    /// The name, trimmed of surrounding white space, when it is acceptable.
    pub fn new(name: &str) -> Result<Self, InvalidOperator> {
        let name = name.trim();
        if name.is_empty() {
            return Err(InvalidOperator::Empty);
        }
        if name.chars().count() > MAX_LEN {
            return Err(InvalidOperator::TooLong);
        }
        if name.chars().any(char::is_control) {
            return Err(InvalidOperator::ControlCharacter);
        }
        Ok(Self {
            name: name.to_owned(),
            groups: Vec::new(),
        })
    }

    /// The same operator, member of `groups` (trimmed; empty and repeated ones dropped).
    pub fn with_groups(mut self, groups: Vec<String>) -> Self {
        let mut groups: Vec<String> = groups
            .into_iter()
            .map(|g| g.trim().to_owned())
            .filter(|g| !g.is_empty() && !g.chars().any(char::is_control))
            .collect();
        groups.sort();
        groups.dedup();
        self.groups = groups;
        self
    }

    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    /// The spec's placeholder, for a console without an identity scheme.
    pub fn placeholder() -> Self {
        Self {
            name: "operator".to_owned(),
            groups: Vec::new(),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_and_checked() {
        assert_eq!(Operator::new("  alice ").unwrap().as_str(), "alice");
        assert_eq!(Operator::new(" "), Err(InvalidOperator::Empty));
        assert_eq!(
            Operator::new("a\u{1b}[31m"),
            Err(InvalidOperator::ControlCharacter)
        );
        assert_eq!(
            Operator::new(&"x".repeat(257)),
            Err(InvalidOperator::TooLong)
        );
        assert!(Operator::new(&"é".repeat(256)).is_ok());
    }
}
