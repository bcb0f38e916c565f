//! Environments: the ordered path a repository version goes through (e.g. testing, staging,
//! production), how each environment names the distribution that serves a repository there,
//! and the rules of that order (a version that skips an environment is out of order).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::domain::repository::VersionNumber;

/// The longest environment name accepted.
const MAX_NAME_LEN: usize = 32;

/// What a distribution pattern replaces with the repository's name.
pub const REPO_PLACEHOLDER: &str = "{repo}";

/// An environment's name: 1 to 32 lowercase ASCII letters, digits, '-' and '_' (it appears
/// in configuration keys, URLs and audit records as it is).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct EnvironmentName(String);

/// Why a text is not an environment's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidEnvironmentName {
    #[error("the name is empty")]
    Empty,
    #[error("the name is longer than {MAX_NAME_LEN} characters")]
    TooLong,
    #[error("the name holds {0:?}: only lowercase letters, digits, '-' and '_' are allowed")]
    Character(char),
}

impl EnvironmentName {
    pub fn parse(text: &str) -> Result<Self, InvalidEnvironmentName> {
        if text.is_empty() {
            return Err(InvalidEnvironmentName::Empty);
        }
        let allowed =
            |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
        if let Some(c) = text.chars().find(|&c| !allowed(c)) {
            return Err(InvalidEnvironmentName::Character(c));
        }
        if text.len() > MAX_NAME_LEN {
            return Err(InvalidEnvironmentName::TooLong);
        }
        Ok(Self(text.to_owned()))
    }

    /// `production`: the one environment of a console configured without environments.
    pub fn production() -> Self {
        Self("production".to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EnvironmentName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for EnvironmentName {
    type Error = InvalidEnvironmentName;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<EnvironmentName> for String {
    fn from(name: EnvironmentName) -> Self {
        name.0
    }
}

/// A distribution name with `{repo}` where the repository's name goes, e.g. `{repo}-staging`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamePattern(String);

/// Why a text is not a distribution name pattern.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPattern {
    #[error(
        "'{0}' does not contain {{repo}}, the repository's name: write e.g. \"{{repo}}-staging\""
    )]
    NoPlaceholder(String),
    #[error("'{0}' has a brace other than those of {{repo}}: {{repo}} is the only placeholder")]
    OtherPlaceholder(String),
}

impl NamePattern {
    pub fn parse(text: &str) -> Result<Self, InvalidPattern> {
        if !text.contains(REPO_PLACEHOLDER) {
            return Err(InvalidPattern::NoPlaceholder(text.to_owned()));
        }
        if text.replace(REPO_PLACEHOLDER, "").contains(['{', '}']) {
            return Err(InvalidPattern::OtherPlaceholder(text.to_owned()));
        }
        Ok(Self(text.to_owned()))
    }

    /// The distribution name of `repo_name`: every `{repo}` replaced by it.
    pub fn apply(&self, repo_name: &str) -> String {
        self.0.replace(REPO_PLACEHOLDER, repo_name)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How an environment names the distribution serving a repository: explicitly for some
/// repositories, by a pattern for the others (an explicit name wins).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DistributionNaming {
    pattern: Option<NamePattern>,
    explicit: BTreeMap<String, String>,
}

impl DistributionNaming {
    /// `explicit` maps a repository's name to its distribution's name.
    pub fn new(
        pattern: Option<NamePattern>,
        explicit: impl IntoIterator<Item = (String, String)>,
    ) -> Self {
        Self {
            pattern,
            explicit: explicit.into_iter().collect(),
        }
    }

    /// The distribution serving `repo_name` here: its explicit name, else the pattern's;
    /// `None` when neither applies (the caller may then look for the distribution that
    /// serves one of the repository's versions).
    pub fn distribution_for(&self, repo_name: &str) -> Option<String> {
        match self.explicit.get(repo_name) {
            Some(name) => Some(name.clone()),
            None => self.pattern.as_ref().map(|p| p.apply(repo_name)),
        }
    }

    pub fn pattern(&self) -> Option<&NamePattern> {
        self.pattern.as_ref()
    }

    /// The repositories named explicitly, with their distributions, by repository name.
    pub fn explicit(&self) -> &BTreeMap<String, String> {
        &self.explicit
    }

    /// Neither a pattern nor an explicit name: every repository is left to detection.
    pub fn is_empty(&self) -> bool {
        self.pattern.is_none() && self.explicit.is_empty()
    }
}

/// One environment of the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    pub name: EnvironmentName,
    pub naming: DistributionNaming,
    /// Only versions the previous environment has served may be deployed here.
    pub requires_previous: bool,
}

impl Environment {
    /// The distribution serving `repo_name` in this environment (see [`DistributionNaming`]).
    pub fn distribution_for(&self, repo_name: &str) -> Option<String> {
        self.naming.distribution_for(repo_name)
    }
}

/// The environments in the order versions go through them: never empty, each name once,
/// the first never `requires_previous`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvironmentPath {
    environments: Vec<Environment>,
}

/// Why environments do not make a path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPath {
    #[error("there is no environment")]
    Empty,
    #[error("{0} is listed more than once")]
    Duplicate(EnvironmentName),
    #[error("{0} is the first environment: no environment comes before it to require")]
    FirstRequiresPrevious(EnvironmentName),
    #[error("{0} names no distribution: give it a pattern, explicit names, or both")]
    Unnamed(EnvironmentName),
}

impl EnvironmentPath {
    pub fn new(environments: Vec<Environment>) -> Result<Self, InvalidPath> {
        let first = environments.first().ok_or(InvalidPath::Empty)?;
        if first.requires_previous {
            return Err(InvalidPath::FirstRequiresPrevious(first.name.clone()));
        }
        let mut seen = BTreeSet::new();
        for environment in &environments {
            if !seen.insert(&environment.name) {
                return Err(InvalidPath::Duplicate(environment.name.clone()));
            }
            if environment.naming.is_empty() {
                return Err(InvalidPath::Unnamed(environment.name.clone()));
            }
        }
        Ok(Self { environments })
    }

    /// The path of a console configured without environments: `production` alone, naming
    /// the distributions of `[production]` (repository name -> distribution name). The one
    /// path whose environment may name no distribution: repositories not in the map are
    /// left to detection.
    pub fn production_only(map: HashMap<String, String>) -> Self {
        let production = Environment {
            name: EnvironmentName::production(),
            naming: DistributionNaming::new(None, map),
            requires_previous: false,
        };
        Self {
            environments: vec![production],
        }
    }

    /// The environments, first to last.
    pub fn iter(&self) -> std::slice::Iter<'_, Environment> {
        self.environments.iter()
    }

    pub fn get(&self, name: &EnvironmentName) -> Option<&Environment> {
        self.environments.iter().find(|e| &e.name == name)
    }

    /// The environment called `name` (as typed, e.g. in a URL).
    pub fn find(&self, name: &str) -> Option<&Environment> {
        self.environments.iter().find(|e| e.name.as_str() == name)
    }

    /// Where `name` is on the path, from 0.
    pub fn position(&self, name: &EnvironmentName) -> Option<usize> {
        self.environments.iter().position(|e| &e.name == name)
    }

    /// The environment before `name`; `None` for the first (or a name not on the path).
    pub fn previous(&self, name: &EnvironmentName) -> Option<&Environment> {
        let at = self.position(name)?;
        at.checked_sub(1).map(|i| &self.environments[i])
    }

    /// The environment after `name`; `None` for the last (or a name not on the path).
    pub fn next(&self, name: &EnvironmentName) -> Option<&Environment> {
        self.environments.get(self.position(name)? + 1)
    }

    /// The last environment: where a deploy goes unless another is named.
    pub fn last(&self) -> &Environment {
        self.environments
            .last()
            .unwrap_or_else(|| unreachable!("a path is never empty"))
    }

    pub fn len(&self) -> usize {
        self.environments.len()
    }

    /// Never: a path has at least one environment (here for clippy's `len_without_is_empty`).
    pub fn is_empty(&self) -> bool {
        self.environments.is_empty()
    }

    /// One environment only (the console as it was before environments).
    pub fn is_single(&self) -> bool {
        self.environments.len() == 1
    }
}

/// Whether deploying a version to an environment keeps the path's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum PromotionCheck {
    /// The first environment: any version may go there.
    FirstEnvironment,
    /// The previous environment has served this version.
    InOrder,
    /// The previous environment, `skips`, never served this version; `refused` when the
    /// target environment `requires_previous`.
    OutOfOrder {
        skips: EnvironmentName,
        refused: bool,
    },
}

impl PromotionCheck {
    pub fn is_refused(&self) -> bool {
        matches!(self, Self::OutOfOrder { refused: true, .. })
    }
}

/// The order rule for deploying `version` to `target`: out of order when the environment
/// before `target` never served it (`previous_served`: every version it has served, as the
/// audit trail or the distributions' history knows them). `None` when `target` is not on
/// the path.
pub fn promotion_check(
    path: &EnvironmentPath,
    target: &EnvironmentName,
    version: VersionNumber,
    previous_served: &BTreeSet<VersionNumber>,
) -> Option<PromotionCheck> {
    let environment = path.get(target)?;
    let Some(previous) = path.previous(target) else {
        return Some(PromotionCheck::FirstEnvironment);
    };
    if previous_served.contains(&version) {
        return Some(PromotionCheck::InOrder);
    }
    Some(PromotionCheck::OutOfOrder {
        skips: previous.name.clone(),
        refused: environment.requires_previous,
    })
}

/// How many versions an environment (serving `previous`) is ahead of the next one on the
/// path (serving `next`), for "staging is 2 versions ahead of production": the difference
/// of their version numbers. `None` when it is not ahead (the same version, or the next
/// environment serves a newer one) or when either serves nothing.
pub fn ahead_by(previous: Option<VersionNumber>, next: Option<VersionNumber>) -> Option<u64> {
    let lead = previous?.get().checked_sub(next?.get())?;
    (lead > 0).then_some(lead)
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
