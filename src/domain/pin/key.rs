//! Which pin a record concerns: a repository in one environment. Written as
//! `<repository uuid>/<environment>` first in every stored record, so that a record torn by a
//! crash still names the pin it concerns (and that pin is held, never lifted in silence).

use std::fmt;

use crate::domain::environment::EnvironmentName;
use crate::domain::record_keys::{RecordId, Unreadable};
use crate::domain::repository::RepoId;

/// A repository in one environment: what one pin holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PinKey {
    pub repository: RepoId,
    pub environment: EnvironmentName,
}

/// A pin record that cannot be read (`id`: `None` when it is too damaged to tell its pin;
/// every pin is then held as unreadable, see the stores).
pub type UnreadablePin = Unreadable<PinKey>;

impl RecordId for PinKey {
    const WHAT: &'static str = "pin";
}

impl PinKey {
    pub fn new(repository: RepoId, environment: EnvironmentName) -> Self {
        Self {
            repository,
            environment,
        }
    }

    /// The key written as `<repository uuid>/<environment>`; `None` for any other text.
    pub fn parse(text: &str) -> Option<Self> {
        let (repository, environment) = text.split_once('/')?;
        Some(Self {
            repository: RepoId::parse(repository).ok()?,
            environment: EnvironmentName::parse(environment).ok()?,
        })
    }
}

impl fmt::Display for PinKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.repository.as_str(), self.environment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_reads_back_as_written_and_nothing_else_reads_as_one() {
        let key = PinKey::new(
            RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap(),
            EnvironmentName::production(),
        );
        assert_eq!(
            key.to_string(),
            "01a202de-e818-7629-a483-70ecc3240361/production"
        );
        assert_eq!(PinKey::parse(&key.to_string()), Some(key));
        for text in [
            "",
            "production",
            "01a202de-e818-7629-a483-70ecc3240361",
            "not-a-uuid/production",
            "01a202de-e818-7629-a483-70ecc3240361/Production",
            "01a202de-e818-7629-a483-70ecc3240361/prod/x",
        ] {
            assert_eq!(PinKey::parse(text), None, "{text:?}");
        }
    }
}
