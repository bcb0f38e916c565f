//! A release's name: written like an environment's (lowercase letters, digits, `-`, `_`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::domain::environment::{EnvironmentName, InvalidEnvironmentName};

/// The name of a release, as `[releases.<name>]` gives it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ReleaseName(String);

impl ReleaseName {
    /// The name, by the rule of environment names (one rule for both).
    pub fn parse(text: &str) -> Result<Self, InvalidEnvironmentName> {
        EnvironmentName::parse(text).map(|name| Self(name.as_str().to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for ReleaseName {
    type Error = InvalidEnvironmentName;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<ReleaseName> for String {
    fn from(name: ReleaseName) -> Self {
        name.0
    }
}

impl fmt::Display for ReleaseName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_is_named_as_an_environment_is() {
        assert_eq!(ReleaseName::parse("rhel9").unwrap().as_str(), "rhel9");
        assert!(ReleaseName::parse("rocky_9-1").is_ok());
        assert!(ReleaseName::parse("RHEL9").is_err());
        assert!(ReleaseName::parse("").is_err());
        assert!(ReleaseName::parse("rhel 9").is_err());
        assert!(ReleaseName::parse(&"x".repeat(200)).is_err());
    }
}
