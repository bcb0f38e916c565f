//! pulp-cli's configuration (`~/.config/pulp/cli.toml`) as a layer: operators already have
//! it, so a console started with no Pulp named anywhere uses the same server. It sits just
//! above the built-in defaults: each key a higher layer sets wins.

use std::path::Path;

use serde::Deserialize;

use crate::wiring::config::layers::Layer;
use crate::wiring::sections::error::ConfigError;

/// pulp-cli's `[cli]` table: the server operators already use. Its other keys (format,
/// timeout, ...) and profiles (`[cli-<name>]`) are pulp-cli's own.
#[derive(Deserialize)]
struct CliFile {
    cli: CliTable,
}

#[derive(Deserialize)]
struct CliTable {
    base_url: String,
    api_root: Option<String>,
    username: Option<String>,
    password: Option<String>,
    verify_ssl: Option<bool>,
}

/// pulp-cli's `[cli]` settings, translated to the console's `[pulp]` keys.
pub(crate) fn layer(path: &Path) -> Result<Layer, ConfigError> {
    let source = format!("pulp-cli's {}", path.display());
    let invalid = |reason: String| ConfigError::Parse {
        source_name: source.clone(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| invalid(e.to_string()))?;
    let cli = toml::from_str::<CliFile>(&text)
        .map_err(|e| invalid(e.to_string()))?
        .cli;
    let mut layer = Layer::new(&source);
    layer.set("pulp", "base_url", Some(cli.base_url));
    layer.set("pulp", "api_root", cli.api_root);
    layer.set("pulp", "username", cli.username);
    layer.set("pulp", "password", cli.password);
    layer.set("pulp", "verify_tls", cli.verify_ssl);
    Ok(layer)
}
