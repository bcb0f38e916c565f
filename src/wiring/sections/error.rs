//! Why the configuration cannot be used: every message names the file, the layer or the key.

use std::borrow::Cow;
use std::path::PathBuf;

/// Why the configuration is not usable.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {path}: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error("the configuration {source_name} is not valid TOML or has an unknown key: {reason}")]
    Parse { source_name: String, reason: String },
    /// A `REPO_CONSOLE_*` variable that is no setting: what it is and what was likely meant.
    #[error("{0}")]
    UnknownVariable(String),
    #[error("configuration key {key}: {reason}")]
    Invalid {
        /// The dotted key, e.g. `server.listen` or `environments.staging.distribution`.
        key: Cow<'static, str>,
        reason: String,
    },
}

/// A refused value of `key`, and why.
pub(crate) fn invalid(key: impl Into<Cow<'static, str>>, reason: String) -> ConfigError {
    ConfigError::Invalid {
        key: key.into(),
        reason,
    }
}
