//! Configuration layers: TOML tables from one source each, merged in order (later wins,
//! key by key). The Pulp password and password file are one secret: the highest layer
//! that sets either decides both.

use std::path::Path;

use toml::{Table, Value};

use crate::wiring::config::nearest::nearest;
use crate::wiring::config::raw::RawConfig;
use crate::wiring::sections::error::ConfigError;

/// The two keys of `[pulp]` that together say where the password comes from.
const SECRET_KEYS: [&str; 2] = ["password", "password_file"];

/// One source of settings and what it says.
pub(crate) struct Layer {
    /// Named in error messages: "built-in defaults", a file's path, "the environment", "the command line".
    pub source: String,
    pub table: Table,
    /// The text the layer was parsed from (a file, the defaults), to name a key's line.
    pub text: Option<String>,
}

impl Layer {
    /// A layer that says nothing yet (filled with [`Layer::set`]).
    pub fn new(source: &str) -> Self {
        Self {
            source: source.to_owned(),
            table: Table::new(),
            text: None,
        }
    }

    pub fn parse(source: &str, text: &str) -> Result<Self, ConfigError> {
        let table = text.parse::<Table>().map_err(|e| ConfigError::Parse {
            source_name: source.to_owned(),
            reason: e.to_string(),
        })?;
        Ok(Self {
            source: source.to_owned(),
            table,
            text: Some(text.to_owned()),
        })
    }

    /// The `--config` file.
    pub fn read(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Read {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Sets `[section] key = value` when there is a value.
    pub fn set(&mut self, section: &str, key: &str, value: Option<impl Into<Value>>) {
        if let Some(value) = value {
            let table = self
                .table
                .entry(section)
                .or_insert_with(|| Value::Table(Table::new()));
            if let Value::Table(table) = table {
                table.insert(key.to_owned(), value.into());
            }
        }
    }

    /// This layer sets `[section] key`.
    pub fn sets(&self, section: &str, key: &str) -> bool {
        let table = self.table.get(section).and_then(Value::as_table);
        table.is_some_and(|t| t.contains_key(key))
    }

    fn pulp(&self) -> Option<&Table> {
        self.table.get("pulp").and_then(Value::as_table)
    }

    /// This layer names a Pulp server (a non-empty `pulp.base_url`).
    pub fn names_a_pulp(&self) -> bool {
        let url = self.pulp().and_then(|p| p.get("base_url"));
        url.and_then(Value::as_str).is_some_and(|u| !u.is_empty())
    }

    /// Whether this layer sets the secret; refused when it names both a password and a file.
    fn sets_secret(&self) -> Result<bool, ConfigError> {
        let Some(pulp) = self.pulp() else {
            return Ok(false);
        };
        let non_empty = |key: &str| {
            pulp.get(key)
                .and_then(Value::as_str)
                .is_some_and(|v| !v.is_empty())
        };
        if SECRET_KEYS.iter().all(|key| non_empty(key)) {
            return Err(ConfigError::Invalid {
                key: "pulp.password".into(),
                reason: format!(
                    "{} sets both pulp.password and pulp.password_file; keep one",
                    self.source
                ),
            });
        }
        Ok(SECRET_KEYS.iter().any(|key| pulp.contains_key(*key)))
    }
}

/// Merges the higher layers over the defaults, in order, and reads the result. Each layer
/// is checked as it lands, so an unknown key or a wrong type is reported with its source.
pub(crate) fn merge_all(defaults: Layer, higher: Vec<Layer>) -> Result<RawConfig, ConfigError> {
    let mut raw = read_raw(&defaults.table, &defaults)?;
    let mut merged = defaults.table;
    for mut layer in higher {
        if layer.sets_secret()? {
            forget_secret(&mut merged);
        }
        let table = std::mem::take(&mut layer.table);
        merge(&mut merged, table);
        raw = read_raw(&merged, &layer)?;
    }
    Ok(raw)
}

fn read_raw(merged: &Table, layer: &Layer) -> Result<RawConfig, ConfigError> {
    merged
        .clone()
        .try_into()
        .map_err(|e: toml::de::Error| ConfigError::Parse {
            source_name: layer.source.clone(),
            reason: explain_unknown(&e.to_string(), layer.text.as_deref()),
        })
}

/// An unknown key's refusal, with the known key nearest to it ("did you mean") and, when
/// the layer is a text, the line it is written on. Any other refusal is answered as is.
fn explain_unknown(reason: &str, text: Option<&str>) -> String {
    let Some((key, expected)) = unknown_field(reason) else {
        return reason.to_owned();
    };
    let nearest = nearest(key, expected.iter().copied())
        .map_or(String::new(), |known| format!(" Did you mean `{known}`?"));
    let line = text
        .and_then(|t| line_of(t, key))
        .map_or(String::new(), |n| format!(" (line {n})"));
    format!(
        "`{key}`{line} is no setting here.{nearest} ({})",
        reason.trim()
    )
}

/// The key and the known keys of serde's "unknown field `key`, expected one of `a`, `b`".
fn unknown_field(reason: &str) -> Option<(&str, Vec<&str>)> {
    let rest = &reason[reason.find("unknown field `")? + "unknown field `".len()..];
    let (key, rest) = rest.split_once('`')?;
    let expected = rest
        .split_once("expected")
        .map(|(_, list)| list)
        .unwrap_or("")
        .split('`')
        .skip(1)
        .step_by(2)
        .collect();
    Some((key, expected))
}

/// The number (from 1) of the first line of `text` that sets `key` (`key = ...`).
fn line_of(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            let line = line.trim_start();
            let bare = line.strip_prefix(key).map(str::trim_start);
            let quoted = line
                .strip_prefix('"')
                .and_then(|l| l.strip_prefix(key))
                .and_then(|l| l.strip_prefix('"'))
                .map(str::trim_start);
            bare.or(quoted).is_some_and(|l| l.starts_with('='))
        })
        .map(|index| index + 1)
}

/// A higher layer decides the secret alone: what lower layers said is dropped.
fn forget_secret(merged: &mut Table) {
    if let Some(Value::Table(pulp)) = merged.get_mut("pulp") {
        for key in SECRET_KEYS {
            pulp.insert(key.to_owned(), Value::String(String::new()));
        }
    }
}

/// Deep merge: tables merge key by key, anything else is replaced.
fn merge(base: &mut Table, over: Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(Value::Table(b)), Value::Table(o)) => merge(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}
