//! The `[releases]` table (set in a file only), checked into the domain's [`Releases`]:
//! each refusal names its key.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::domain::ids::ReleaseName;
use crate::domain::release::Releases;

use crate::wiring::sections::error::{invalid, ConfigError};

/// One `[releases.<name>]` table as written.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRelease {
    pub repositories: Vec<String>,
}

/// The releases the configuration describes.
pub(crate) fn validate(raw: BTreeMap<String, RawRelease>) -> Result<Releases, ConfigError> {
    let mut named = Vec::with_capacity(raw.len());
    for (name, release) in raw {
        let parsed = ReleaseName::parse(&name).map_err(|e| {
            invalid(
                format!("releases.{name}"),
                format!("not a release name: {e}"),
            )
        })?;
        named.push((parsed, release.repositories));
    }
    Releases::new(named)
        .map_err(|(name, why)| invalid(format!("releases.{name}.repositories"), why.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(entries: &[(&str, &[&str])]) -> BTreeMap<String, RawRelease> {
        entries
            .iter()
            .map(|(name, members)| {
                let repositories = members.iter().map(|m| m.to_string()).collect();
                (name.to_string(), RawRelease { repositories })
            })
            .collect()
    }

    fn refused_key(entries: &[(&str, &[&str])]) -> String {
        match validate(raw(entries)) {
            Err(ConfigError::Invalid { key, .. }) => key.into_owned(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn each_refusal_names_its_key() {
        assert_eq!(
            refused_key(&[("rhel9", &[])]),
            "releases.rhel9.repositories"
        );
        assert_eq!(
            refused_key(&[("a", &["baseos"]), ("b", &["baseos"])]),
            "releases.b.repositories"
        );
        assert_eq!(refused_key(&[("RHEL9", &["baseos"])]), "releases.RHEL9");
        let ok = validate(raw(&[("rhel9", &["baseos", "appstream"])])).unwrap();
        assert_eq!(ok.get("rhel9").unwrap().members(), ["baseos", "appstream"]);
    }
}
