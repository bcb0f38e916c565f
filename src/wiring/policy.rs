//! The `[policy]` table, checked into the domain's [`Policy`]: subjects parse
//! (`user:<name>`, `group:<name>`), and every environment named is one of the path's.
//! Without `[policy]`, every identified operator may deploy anywhere and synchronize.

use std::collections::BTreeMap;

use toml::Value;

use crate::domain::{Allowed, EnvironmentName, EnvironmentPath, FreezeWindow, Policy, Subject};

use super::error::{invalid, ConfigError};
use super::raw::RawPolicy;

pub(super) fn validate(raw: RawPolicy, path: &EnvironmentPath) -> Result<Policy, ConfigError> {
    let syncers = allowed("policy.syncers", raw.syncers)?;
    let mut deployers = BTreeMap::new();
    for (name, subjects) in raw.deployers {
        let environment = on_path(path, &name)?;
        let allowed = allowed(&format!("policy.{name}.deployers"), subjects)?;
        deployers.insert(environment, allowed);
    }
    let mut freezes = BTreeMap::new();
    for (name, windows) in raw.freezes {
        let environment = on_path(path, &name)?;
        let windows = windows
            .iter()
            .enumerate()
            .map(|(i, window)| freeze_window(&format!("policy.{name}.freeze[{i}]"), window))
            .collect::<Result<Vec<_>, _>>()?;
        freezes.insert(environment, windows);
    }
    Ok(Policy::new(deployers, syncers).with_freezes(freezes))
}

/// The environment called `name`, which must be on the path.
fn on_path(path: &EnvironmentPath, name: &str) -> Result<EnvironmentName, ConfigError> {
    match path.find(name) {
        Some(environment) => Ok(environment.name.clone()),
        None => {
            let known: Vec<&str> = path.iter().map(|e| e.name.as_str()).collect();
            let reason = format!(
                "there is no environment '{name}'; the environments are: {}",
                known.join(", ")
            );
            Err(invalid(format!("policy.{name}"), reason))
        }
    }
}

/// One freeze window: "start/end" (RFC 3339), or { cron, duration, timezone }.
fn freeze_window(key: &str, value: &Value) -> Result<FreezeWindow, ConfigError> {
    let refused = |reason: String| invalid(key.to_owned(), reason);
    match value {
        Value::String(interval) => {
            FreezeWindow::interval(interval).map_err(|e| refused(e.to_string()))
        }
        Value::Table(table) => {
            if let Some(unknown) = table
                .keys()
                .find(|k| !["cron", "duration", "timezone"].contains(&k.as_str()))
            {
                return Err(refused(format!(
                    "unknown key '{unknown}': a recurring window has cron, duration and timezone"
                )));
            }
            let text = |field: &str| match table.get(field) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.as_str())),
                Some(_) => Err(refused(format!("{field} must be a string"))),
            };
            let cron = text("cron")?.ok_or_else(|| refused("cron is missing".to_owned()))?;
            let duration =
                text("duration")?.ok_or_else(|| refused("duration is missing".to_owned()))?;
            FreezeWindow::recurring(cron, duration, text("timezone")?)
                .map_err(|e| refused(e.to_string()))
        }
        _ => Err(refused(
            "a window is \"start/end\" (RFC 3339) or { cron = \"0 16 * * FRI\", duration = \"64h\", timezone = \"Europe/Berlin\" }"
                .to_owned(),
        )),
    }
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
