//! The `[verification]` table, checked into the domain's [`MetadataPolicy`]: whether metadata
//! clients do not check (`repo_gpgcheck` off) passes verification, `unsigned_metadata =
//! "refuse"` (the default) or `"allow"`, and the same key in `[verification.<environment>]`
//! for one environment of the path. Read by hand, like `[policy]`: every refusal names its
//! whole key.

use std::collections::BTreeMap;

use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use toml::{Table, Value};

use crate::domain::environment::EnvironmentPath;
use crate::domain::policy::metadata::MetadataPolicy;
use crate::domain::repository::UnsignedMetadata;
use crate::wiring::sections::error::{invalid, ConfigError};

/// `[verification]` as written.
#[derive(Debug, Default)]
pub(crate) struct RawVerification {
    /// Declared in `config/default.toml`, so also set from the environment and the command
    /// line.
    pub unsigned_metadata: String,
    /// Environment name -> its `unsigned_metadata` as written.
    pub environments: BTreeMap<String, String>,
}

impl<'de> Deserialize<'de> for RawVerification {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let table = Table::deserialize(deserializer)?;
        Self::from_table(table).map_err(D::Error::custom)
    }
}

impl RawVerification {
    fn from_table(table: Table) -> Result<Self, String> {
        let mut raw = Self::default();
        let mut default = None;
        for (key, value) in table {
            match (key.as_str(), value) {
                ("unsigned_metadata", value) => {
                    default = Some(text("verification.unsigned_metadata", value)?);
                }
                (_, Value::Table(environment)) => {
                    let mut policy = None;
                    for (field, value) in environment {
                        let dotted = format!("verification.{key}.{field}");
                        if field != "unsigned_metadata" {
                            return Err(format!(
                                "unknown key {dotted}: an environment's verification has \
                                 unsigned_metadata"
                            ));
                        }
                        policy = Some(text(&dotted, value)?);
                    }
                    if let Some(policy) = policy {
                        raw.environments.insert(key, policy);
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown key verification.{key}: [verification] holds \
                         `unsigned_metadata` and one table per environment, e.g. \
                         [verification.{key}]"
                    ))
                }
            }
        }
        raw.unsigned_metadata = default.ok_or("verification.unsigned_metadata is missing")?;
        Ok(raw)
    }
}

fn text(key: &str, value: Value) -> Result<String, String> {
    match value {
        Value::String(text) => Ok(text),
        other => Err(format!(
            "{key}: expected \"refuse\" or \"allow\", found {}",
            other.type_str()
        )),
    }
}

/// `raw` over `path`: each value is "refuse" or "allow", each environment one of the path's.
pub(crate) fn validate(
    raw: RawVerification,
    path: &EnvironmentPath,
) -> Result<MetadataPolicy, ConfigError> {
    let default = policy_of("verification.unsigned_metadata", &raw.unsigned_metadata)?;
    let mut environments = BTreeMap::new();
    for (name, written) in raw.environments {
        let key = format!("verification.{name}.unsigned_metadata");
        let environment = path
            .chosen(Some(&name))
            .map_err(|unknown| invalid(format!("verification.{name}"), unknown.to_string()))?;
        environments.insert(environment.name.clone(), policy_of(&key, &written)?);
    }
    Ok(MetadataPolicy::new(default, environments))
}

fn policy_of(key: &str, written: &str) -> Result<UnsignedMetadata, ConfigError> {
    match written {
        "refuse" => Ok(UnsignedMetadata::Refuse),
        "allow" => Ok(UnsignedMetadata::Allow),
        other => Err(invalid(
            key.to_owned(),
            format!(
                "{other:?} is neither \"refuse\" (unsigned metadata does not pass \
                 verification) nor \"allow\""
            ),
        )),
    }
}

#[cfg(test)]
#[path = "verification_tests.rs"]
mod tests;
