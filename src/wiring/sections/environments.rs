//! The `[environments]` table, checked into the [`EnvironmentPath`]; without environments
//! (an empty `order` and no environment table, the default), `production` alone, named by
//! `[production]` as before.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use toml::{Table, Value};

use crate::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, InvalidPath, NamePattern,
};

use crate::wiring::sections::error::{invalid, ConfigError};
use crate::wiring::sections::table::typed;

const ORDER: &str = "environments.order";

/// The demo upstream's own path (testing, staging, production), when the console uses it:
/// on the demo upstream (`demo`) with neither `[environments]` nor `[production]` configured.
pub(crate) fn demo_path(
    configured: &EnvironmentPath,
    production: &HashMap<String, String>,
    demo: bool,
) -> Option<EnvironmentPath> {
    (demo && configured.is_single() && production.is_empty())
        .then(crate::adapters::memory::demo::environments)
}

/// The path the configuration describes; every refusal names its key.
pub(crate) fn validate(
    mut raw: RawEnvironments,
    production: HashMap<String, String>,
) -> Result<EnvironmentPath, ConfigError> {
    if raw.order.is_empty() {
        if let Some(table) = raw.tables.keys().next() {
            let reason = format!(
                "empty, but [environments.{table}] is configured: list the environments in the \
                 order versions go through them, e.g. [\"testing\", \"production\"]"
            );
            return Err(invalid(ORDER, reason));
        }
        return Ok(EnvironmentPath::production_only(production));
    }
    let names = names(&raw.order)?;
    if !production.is_empty() {
        let last = names.last().map_or("production", EnvironmentName::as_str);
        let reason = format!(
            "[environments] is configured: put those names under [environments.{last}.repos]"
        );
        return Err(invalid("production", reason));
    }
    if let Some(stray) = raw.tables.keys().find(|t| !raw.order.contains(t)) {
        let reason = format!(
            "not in environments.order ({}): add it there, or remove the table",
            raw.order.join(", ")
        );
        return Err(invalid(format!("environments.{stray}"), reason));
    }
    let environments = names
        .into_iter()
        .map(|name| {
            let table = raw.tables.remove(name.as_str()).unwrap_or_default();
            environment(name, table)
        })
        .collect::<Result<Vec<_>, _>>()?;
    EnvironmentPath::new(environments).map_err(refusal)
}

/// The names of `order`, each a valid name, each once.
fn names(order: &[String]) -> Result<Vec<EnvironmentName>, ConfigError> {
    let mut seen = BTreeSet::new();
    let mut names = Vec::with_capacity(order.len());
    for text in order {
        let name = EnvironmentName::parse(text)
            .map_err(|e| invalid(ORDER, format!("'{text}' is not an environment name: {e}")))?;
        if !seen.insert(text) {
            return Err(invalid(ORDER, format!("'{text}' is listed twice")));
        }
        names.push(name);
    }
    Ok(names)
}

fn environment(name: EnvironmentName, raw: RawEnvironment) -> Result<Environment, ConfigError> {
    let pattern = raw
        .distribution
        .map(|text| NamePattern::parse(&text))
        .transpose()
        .map_err(|e| invalid(format!("environments.{name}.distribution"), e.to_string()))?;
    Ok(Environment {
        naming: DistributionNaming::new(pattern, raw.repos),
        requires_previous: raw.requires_previous,
        name,
    })
}

/// The path's own refusal, under the key that caused it.
fn refusal(error: InvalidPath) -> ConfigError {
    let reason = error.to_string();
    match error {
        InvalidPath::Empty | InvalidPath::Duplicate(_) => invalid(ORDER, reason),
        InvalidPath::FirstRequiresPrevious(name) => {
            invalid(format!("environments.{name}.requires_previous"), reason)
        }
        InvalidPath::Unnamed(name) => invalid(
            format!("environments.{name}"),
            format!(
                "{reason} (distribution = \"{{repo}}-{name}\", and/or [environments.{name}.repos])"
            ),
        ),
    }
}

/// The `[environments]` table: `order`, and one table per environment (named as in `order`).
/// Read by hand (serde's flatten would lose the key of an error): every refusal names its
/// whole key, e.g. `environments.staging.distrbution`.
#[derive(Debug)]
pub(crate) struct RawEnvironments {
    pub order: Vec<String>,
    pub tables: BTreeMap<String, RawEnvironment>,
    /// The table as the layers wrote it, the defaults included (what the evidence's policy
    /// digest covers).
    pub written: Table,
}

/// `[environments.<name>]`. Free-named tables cannot hold their defaults in
/// `config/default.toml`: they are documented there, and given here.
#[derive(Debug, Default)]
pub(crate) struct RawEnvironment {
    /// The distribution name pattern, holding `{repo}`.
    pub distribution: Option<String>,
    /// Repository name -> distribution name; wins over the pattern.
    pub repos: HashMap<String, String>,
    pub requires_previous: bool,
}

impl<'de> Deserialize<'de> for RawEnvironments {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let table = Table::deserialize(deserializer)?;
        Self::from_table(table).map_err(D::Error::custom)
    }
}

impl RawEnvironments {
    fn from_table(table: Table) -> Result<Self, String> {
        let written = table.clone();
        let mut order = None;
        let mut tables = BTreeMap::new();
        for (key, value) in table {
            if key == "order" {
                order = Some(typed("environments.order", value)?);
                continue;
            }
            let Value::Table(environment) = value else {
                return Err(format!(
                    "unknown key environments.{key}: [environments] holds `order` and one \
                     table per environment, e.g. [environments.{key}]"
                ));
            };
            let environment = RawEnvironment::from_table(&key, environment)?;
            tables.insert(key, environment);
        }
        let order = order.ok_or("environments.order is missing")?;
        Ok(Self {
            order,
            tables,
            written,
        })
    }
}

impl RawEnvironment {
    fn from_table(name: &str, table: Table) -> Result<Self, String> {
        let mut environment = Self::default();
        for (key, value) in table {
            let dotted = format!("environments.{name}.{key}");
            match key.as_str() {
                "distribution" => environment.distribution = Some(typed(&dotted, value)?),
                "repos" => environment.repos = typed(&dotted, value)?,
                "requires_previous" => environment.requires_previous = typed(&dotted, value)?,
                _ => {
                    return Err(format!(
                        "unknown key {dotted}: an environment has distribution, repos and \
                         requires_previous"
                    ))
                }
            }
        }
        Ok(environment)
    }
}
