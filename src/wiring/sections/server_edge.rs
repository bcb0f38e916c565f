//! The `[server]` keys of the HTTP edge (timeouts, allowed hosts), validated into the web
//! adapter's [`EdgeSettings`].

use std::time::Duration;

use serde::Deserialize;

use crate::adapters::web::{EdgeSettings, Site};

use crate::wiring::sections::error::ConfigError;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawServer {
    pub listen: String,
    header_timeout_secs: u64,
    idle_timeout_secs: u64,
    body_timeout_secs: u64,
    allowed_hosts: Vec<String>,
}

/// A timeout must let a request through, and must not be unbounded in practice.
const MAX_TIMEOUT_SECS: u64 = 3600;

/// The edge settings of `raw`; `shutdown_grace` comes from the Pulp task timeout.
pub(crate) fn edge_settings(
    raw: &RawServer,
    shutdown_grace: Duration,
) -> Result<EdgeSettings, ConfigError> {
    let allowed_hosts = raw
        .allowed_hosts
        .iter()
        .map(|entry| Site::parse_entry(entry.trim()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|reason| ConfigError::Invalid {
            key: "server.allowed_hosts".into(),
            reason,
        })?;
    Ok(EdgeSettings {
        header_timeout: seconds("server.header_timeout_secs", raw.header_timeout_secs)?,
        idle_timeout: seconds("server.idle_timeout_secs", raw.idle_timeout_secs)?,
        body_timeout: seconds("server.body_timeout_secs", raw.body_timeout_secs)?,
        shutdown_grace,
        allowed_hosts,
    })
}

fn seconds(key: &'static str, value: u64) -> Result<Duration, ConfigError> {
    if (1..=MAX_TIMEOUT_SECS).contains(&value) {
        return Ok(Duration::from_secs(value));
    }
    Err(ConfigError::Invalid {
        key: key.into(),
        reason: format!("{value} is not between 1 and {MAX_TIMEOUT_SECS} seconds"),
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::wiring::config::{load, Overrides};

    fn load_text(text: &str) -> Result<EdgeSettings, ConfigError> {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        let overrides = Overrides {
            config_file: Some(file.path().to_owned()),
            ..Overrides::default()
        };
        load(&overrides).map(|config| config.edge)
    }

    #[test]
    fn the_defaults_are_the_web_adapters_defaults() {
        let loaded = load(&Overrides::default()).unwrap().edge;
        let built_in = EdgeSettings::default();
        assert_eq!(loaded.header_timeout, built_in.header_timeout);
        assert_eq!(loaded.idle_timeout, built_in.idle_timeout);
        assert_eq!(loaded.body_timeout, built_in.body_timeout);
        assert_eq!(loaded.shutdown_grace, built_in.shutdown_grace);
        assert!(loaded.allowed_hosts.is_empty());
    }

    #[test]
    fn keys_are_read_and_bad_values_name_their_key() {
        let edge = load_text(
            "[server]\nheader_timeout_secs = 2\nidle_timeout_secs = 30\nbody_timeout_secs = 3\n\
             allowed_hosts = [\"https://console.example\", \"intranet:8443\"]\n",
        )
        .unwrap();
        assert_eq!(edge.header_timeout, Duration::from_secs(2));
        assert_eq!(edge.idle_timeout, Duration::from_secs(30));
        assert_eq!(edge.body_timeout, Duration::from_secs(3));
        assert_eq!(edge.allowed_hosts.len(), 2);
        for (text, key) in [
            ("header_timeout_secs = 0", "server.header_timeout_secs"),
            ("idle_timeout_secs = 0", "server.idle_timeout_secs"),
            ("body_timeout_secs = 99999", "server.body_timeout_secs"),
            ("allowed_hosts = [\"*\"]", "server.allowed_hosts"),
            ("allowed_hosts = [\"http://a/b\"]", "server.allowed_hosts"),
        ] {
            let error = load_text(&format!("[server]\n{text}\n")).unwrap_err();
            assert!(error.to_string().contains(key), "{text}: {error}");
        }
    }
}
