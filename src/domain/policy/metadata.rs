//! Where unsigned metadata passes verification: `[verification] unsigned_metadata`, and the
//! same key in `[verification.<environment>]` for one environment.

use std::collections::BTreeMap;

use crate::domain::environment::EnvironmentName;
use crate::domain::repository::UnsignedMetadata;

/// The policy on metadata clients do not check, for every environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetadataPolicy {
    /// The environments that name none.
    default: UnsignedMetadata,
    /// The environments that name their own.
    environments: BTreeMap<EnvironmentName, UnsignedMetadata>,
}

impl MetadataPolicy {
    pub fn new(
        default: UnsignedMetadata,
        environments: BTreeMap<EnvironmentName, UnsignedMetadata>,
    ) -> Self {
        Self {
            default,
            environments,
        }
    }

    /// The policy a deploy to `environment` is held to.
    pub fn at(&self, environment: &EnvironmentName) -> UnsignedMetadata {
        self.environments
            .get(environment)
            .copied()
            .unwrap_or(self.default)
    }

    /// The strictest policy of these environments: what a repository's badge is computed
    /// under, so that "Verified" means every one of them accepts it (the default when there
    /// are none).
    pub fn everywhere<'a>(
        &self,
        environments: impl IntoIterator<Item = &'a EnvironmentName>,
    ) -> UnsignedMetadata {
        environments
            .into_iter()
            .map(|e| self.at(e))
            .reduce(UnsignedMetadata::stricter)
            .unwrap_or(self.default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use UnsignedMetadata::{Allow, Refuse};

    fn name(n: &str) -> EnvironmentName {
        EnvironmentName::parse(n).unwrap()
    }

    #[test]
    fn an_environment_of_its_own_wins_over_the_default() {
        let policy = MetadataPolicy::new(Refuse, BTreeMap::from([(name("testing"), Allow)]));
        assert_eq!(policy.at(&name("testing")), Allow);
        assert_eq!(policy.at(&name("production")), Refuse);
        assert_eq!(MetadataPolicy::default().at(&name("testing")), Refuse);
    }

    #[test]
    fn the_badge_policy_is_the_strictest_of_the_path() {
        let policy = MetadataPolicy::new(Allow, BTreeMap::from([(name("production"), Refuse)]));
        assert_eq!(policy.everywhere([&name("testing")]), Allow);
        assert_eq!(
            policy.everywhere([&name("testing"), &name("production")]),
            Refuse
        );
        assert_eq!(policy.everywhere([]), Allow);
    }
}
