//! The `[policy]` table, checked into the domain's [`Policy`]: subjects parse
//! (`user:<name>`, `group:<name>`), and every environment named is one of the path's.
//! Without `[policy]`, every identified operator may deploy anywhere and synchronize.

use std::collections::BTreeMap;

use crate::domain::{Allowed, EnvironmentPath, Policy, Subject};

use super::error::{invalid, ConfigError};
use super::raw::RawPolicy;

pub(super) fn validate(raw: RawPolicy, path: &EnvironmentPath) -> Result<Policy, ConfigError> {
    let syncers = allowed("policy.syncers", raw.syncers)?;
    let mut deployers = BTreeMap::new();
    for (name, subjects) in raw.deployers {
        let key = format!("policy.{name}");
        let Some(environment) = path.find(&name) else {
            let known: Vec<&str> = path.iter().map(|e| e.name.as_str()).collect();
            let reason = format!(
                "there is no environment '{name}'; the environments are: {}",
                known.join(", ")
            );
            return Err(invalid(key, reason));
        };
        let allowed = allowed(&format!("{key}.deployers"), subjects)?;
        deployers.insert(environment.name.clone(), allowed);
    }
    Ok(Policy::new(deployers, syncers))
}

fn allowed(key: &str, subjects: Option<Vec<String>>) -> Result<Allowed, ConfigError> {
    let Some(subjects) = subjects else {
        return Ok(Allowed::Everyone);
    };
    subjects
        .iter()
        .map(|s| Subject::parse(s).map_err(|e| invalid(key.to_owned(), e.to_string())))
        .collect::<Result<Vec<_>, _>>()
        .map(Allowed::Only)
}
