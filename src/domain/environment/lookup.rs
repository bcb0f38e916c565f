//! The one lookup of an environment by the name a person or a script typed (a page's `env`
//! field, an API body's `environment`, a `[policy.<env>]` table), and what it says when there
//! is no such environment.

use crate::domain::environment::{Environment, EnvironmentPath};

/// Names shown of what was typed, at most.
const SHOWN_CHARS: usize = 40;

/// A name that is not on the path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no environment '{asked}'; the environments are: {known}")]
pub struct UnknownEnvironment {
    /// What was asked, cut to 40 characters.
    pub asked: String,
    /// The environments of the path, first to last, comma-separated.
    pub known: String,
}

impl EnvironmentPath {
    /// The environment called `name` (as typed); without a name, the last of the path
    /// (production).
    pub fn chosen(&self, name: Option<&str>) -> Result<&Environment, UnknownEnvironment> {
        let Some(name) = name else {
            return Ok(self.last());
        };
        self.find(name).ok_or_else(|| UnknownEnvironment {
            asked: name.chars().take(SHOWN_CHARS).collect(),
            known: self
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::domain::environment::EnvironmentName;

    #[test]
    fn no_name_is_the_last_environment_and_an_unknown_one_lists_the_path() {
        let path = EnvironmentPath::production_only(HashMap::new());
        assert_eq!(
            path.chosen(None).unwrap().name,
            EnvironmentName::production()
        );
        assert_eq!(
            path.chosen(Some("production")).unwrap().name,
            EnvironmentName::production()
        );
        let unknown = path.chosen(Some("moon")).unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "there is no environment 'moon'; the environments are: production"
        );
        let long = "x".repeat(100);
        assert_eq!(path.chosen(Some(&long)).unwrap_err().asked.len(), 40);
    }
}
