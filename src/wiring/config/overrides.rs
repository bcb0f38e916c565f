//! The layers above the files: the environment and the command line. Both are derived from the
//! declaration of the settings (the keys of `config/default.toml`), so every key is reachable:
//! `REPO_CONSOLE_<SECTION>_<KEY>` in the environment, `--set <section>.<key>=<value>` on the
//! command line. A value is read as the type of its default: a whole number, `true`/`false`, a
//! comma-separated list, or text (a value that is not of that type is kept as text, so the
//! merge refuses it naming the key and the layer). Tables of free keys (`[production]`,
//! `pulp.headers`, `[environments.<name>]`, `[policy.<name>]`, `[releases.<name>]`) are set in a file only;
//! `policy.request_ttl_hours`, declared in the defaults, is reachable like any key. The names the console had before every key was
//! reachable stay as aliases ([`ALIASES`]).

use std::path::PathBuf;

use toml::{Table, Value};

use crate::wiring::config::layers::Layer;
use crate::wiring::config::nearest::nearest;
use crate::wiring::sections::error::ConfigError;

/// The prefix of every environment variable the console reads.
pub const ENV_PREFIX: &str = "REPO_CONSOLE_";

/// A shorter flag or an older environment name for a key, kept for existing deployments.
#[derive(Debug, Clone, Copy)]
pub struct Alias {
    pub key: &'static str,
    /// `--<flag> VALUE`, the same as `--set <key>=VALUE`.
    pub flag: &'static str,
    /// An environment name other than `REPO_CONSOLE_<SECTION>_<KEY>`, if any.
    pub env: Option<&'static str>,
    /// What the flag is for, in `--help`.
    pub help: &'static str,
}

const fn alias(key: &'static str, flag: &'static str, help: &'static str) -> Alias {
    Alias {
        key,
        flag,
        env: None,
        help,
    }
}

/// The shorthand flags (and older environment names) of the most used keys.
pub const ALIASES: &[Alias] = &[
    Alias {
        env: Some("REPO_CONSOLE_LISTEN"),
        ..alias(
            "server.listen",
            "listen",
            "Address to listen on, e.g. 127.0.0.1:8080",
        )
    },
    alias(
        "audit.path",
        "audit-path",
        "The audit log file (JSON Lines)",
    ),
    alias(
        "audit.sink",
        "audit-sink",
        "Where deployment records go: jsonl, stdout or postgres",
    ),
    alias(
        "audit.url",
        "audit-url",
        "The PostgreSQL URL of the postgres sink",
    ),
    alias(
        "audit.password_file",
        "audit-password-file",
        "A file holding the database password",
    ),
    Alias {
        env: Some("REPO_CONSOLE_PULP_URL"),
        ..alias(
            "pulp.base_url",
            "pulp-url",
            "The Pulp server's URL; without one, the built-in demo upstream is used",
        )
    },
    alias("pulp.username", "pulp-username", "The Pulp user"),
    alias(
        "pulp.password",
        "pulp-password",
        "Prefer the environment or pulp.password_file: a flag shows in the process list",
    ),
    alias(
        "log.format",
        "log-format",
        "Log lines as \"text\" or \"json\"",
    ),
    alias(
        "identity.header",
        "identity-header",
        "The header an authenticating proxy names the operator in",
    ),
    Alias {
        env: Some("REPO_CONSOLE_TRUSTED_PROXIES"),
        ..alias(
            "identity.trusted_proxies",
            "trusted-proxies",
            "The proxies trusted to set it, comma separated",
        )
    },
];

/// What the environment and the command line say, besides the files.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--config FILE` (or `REPO_CONSOLE_CONFIG`).
    pub config_file: Option<PathBuf>,
    /// The environment's variables (the process's, or a test's own); only `REPO_CONSOLE_*`
    /// names of keys (and their aliases) are read.
    pub environment: Vec<(String, String)>,
    /// Settings from the command line, as `(key, value)`: `--set key=value` and the shorthand
    /// flags, in the order given (a later one wins).
    pub flags: Vec<(String, String)>,
    /// pulp-cli's configuration file (`~/.config/pulp/cli.toml`), used when nothing else names a Pulp.
    pub pulp_cli_config: Option<PathBuf>,
}

impl Overrides {
    /// With the environment variable `name` set to `value`.
    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.environment.push((name.to_owned(), value.to_owned()));
        self
    }

    /// With `--set key=value` on the command line.
    pub fn flag(mut self, key: &str, value: &str) -> Self {
        self.flags.push((key.to_owned(), value.to_owned()));
        self
    }
}

/// The process's `REPO_CONSOLE_*` variables, as [`Overrides::environment`] wants them.
pub fn environment_of(
    vars: impl IntoIterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
) -> Result<Vec<(String, String)>, ConfigError> {
    let mut read = Vec::new();
    for (name, value) in vars {
        let Some(name) = name.to_str().filter(|n| n.starts_with(ENV_PREFIX)) else {
            continue;
        };
        let value = value.into_string().map_err(|_| ConfigError::Parse {
            source_name: "from the environment".into(),
            reason: format!("the value of {name} is not valid UTF-8"),
        })?;
        read.push((name.to_owned(), value));
    }
    Ok(read)
}

/// Every settable key, `(section, key, default)`, in the order of `config/default.toml`;
/// tables of free keys are left out.
pub fn settable_keys(defaults: &Table) -> Vec<(&str, &str, &Value)> {
    defaults
        .iter()
        .filter_map(|(section, table)| Some((section, table.as_table()?)))
        .flat_map(|(section, table)| {
            table
                .iter()
                .filter(|(_, value)| !value.is_table())
                .map(move |(key, value)| (section.as_str(), key.as_str(), value))
        })
        .collect()
}

/// `REPO_CONSOLE_<SECTION>_<KEY>`.
pub fn env_name(section: &str, key: &str) -> String {
    format!("{ENV_PREFIX}{section}_{key}").to_uppercase()
}

/// The environment as a layer. The canonical name and an alias of one key that disagree are
/// refused: the operator meant one of them.
pub(crate) fn environment_layer(
    defaults: &Table,
    environment: &[(String, String)],
) -> Result<Layer, ConfigError> {
    let lookup = |name: &str| {
        environment
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let mut layer = Layer::new("from the environment");
    for (section, key, default) in settable_keys(defaults) {
        let canonical = env_name(section, key);
        let dotted = format!("{section}.{key}");
        let older = ALIASES.iter().find(|a| a.key == dotted).and_then(|a| a.env);
        let value = match (lookup(&canonical), older.and_then(&lookup)) {
            (Some(a), Some(b)) if a != b => {
                return Err(ConfigError::Parse {
                    source_name: "from the environment".into(),
                    reason: format!(
                        "{canonical} and {} both set {dotted}, differently; keep one",
                        older.unwrap_or_default()
                    ),
                })
            }
            (Some(value), _) | (None, Some(value)) => value,
            (None, None) => continue,
        };
        layer.set(section, key, Some(typed(default, value)));
    }
    Ok(layer)
}

/// The command line's settings as a layer; a key that is not a setting is refused.
pub(crate) fn flags_layer(
    defaults: &Table,
    flags: &[(String, String)],
) -> Result<Layer, ConfigError> {
    let keys = settable_keys(defaults);
    let mut layer = Layer::new("from the command line");
    for (dotted, value) in flags {
        let found = keys
            .iter()
            .find(|(section, key, _)| dotted.split_once('.') == Some((section, key)));
        let Some((section, key, default)) = found else {
            let dotted_keys: Vec<String> = keys
                .iter()
                .map(|(section, key, _)| format!("{section}.{key}"))
                .collect();
            let nearest = nearest(dotted, dotted_keys.iter().map(String::as_str))
                .map_or(String::new(), |known| {
                    format!(" Did you mean --set {known}?")
                });
            return Err(ConfigError::Parse {
                source_name: "from the command line".into(),
                reason: format!(
                    "--set {dotted}: no such setting.{nearest} (the keys are those of \
                     config/default.toml, as section.key; tables such as [production] are set \
                     in a file)"
                ),
            });
        };
        layer.set(section, key, Some(typed(default, value)));
    }
    Ok(layer)
}

/// `text` as a value of the type of `default`; kept as text when it is not one, so that the
/// merge refuses it naming the key.
fn typed(default: &Value, text: &str) -> Value {
    let trimmed = text.trim();
    match default {
        Value::Integer(_) => trimmed.parse().map(Value::Integer).ok(),
        Value::Boolean(_) => match trimmed.to_ascii_lowercase().as_str() {
            "true" => Some(Value::Boolean(true)),
            "false" => Some(Value::Boolean(false)),
            _ => None,
        },
        Value::Array(_) => Some(Value::Array(
            trimmed
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(|item| Value::String(item.to_owned()))
                .collect(),
        )),
        _ => None,
    }
    .unwrap_or_else(|| Value::String(text.to_owned()))
}

#[cfg(test)]
#[path = "overrides_tests.rs"]
mod tests;
