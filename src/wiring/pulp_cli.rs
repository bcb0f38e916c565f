//! pulp-cli's configuration (`~/.config/pulp/cli.toml`) as a fallback: operators already
//! have it, so a console started with no Pulp named anywhere uses the same server.

use std::path::Path;

use serde::Deserialize;

use super::config::{ConfigError, RawPulp};

/// pulp-cli's `[cli]` table: the server operators already use.
#[derive(Deserialize)]
struct CliFile {
    cli: CliTable,
}

#[derive(Deserialize)]
struct CliTable {
    base_url: String,
    #[serde(default)]
    api_root: Option<String>,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default)]
    verify_ssl: Option<bool>,
}

/// Fills the Pulp settings from pulp-cli's configuration file.
pub(super) fn apply(pulp: &mut RawPulp, path: &Path) -> Result<(), ConfigError> {
    let invalid = |reason: String| ConfigError::Parse {
        source_name: path.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| invalid(e.to_string()))?;
    let file: CliFile = toml::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    pulp.base_url = file.cli.base_url;
    if let Some(root) = file.cli.api_root {
        pulp.api_root = root;
    }
    if let Some(user) = file.cli.username {
        pulp.username = user;
    }
    if let Some(password) = file.cli.password.filter(|_| pulp.password.is_empty()) {
        pulp.password = password;
    }
    if let Some(verify) = file.cli.verify_ssl {
        pulp.verify_tls = verify;
    }
    Ok(())
}
