//! The validated `[pulp]` table as the settings of [`PulpClient`](crate::adapters::pulp::PulpClient).

use std::path::PathBuf;
use std::time::Duration;

use crate::adapters::pulp::{PulpSettings, Secret};

use crate::wiring::config::{load, Config, ConfigError, Overrides};

impl Config {
    /// The Pulp client's settings, as configured.
    pub fn pulp_settings(&self) -> PulpSettings {
        let pulp = &self.pulp;
        let mut headers: Vec<(String, String)> = pulp.headers.clone().into_iter().collect();
        headers.sort();
        PulpSettings {
            base_url: pulp.base_url.trim_end_matches('/').to_owned(),
            api_root: pulp.api_root.clone(),
            username: pulp.username.clone(),
            password: Secret::new(pulp.password.clone()),
            ca_file: Some(PathBuf::from(&pulp.ca_file)).filter(|p| !p.as_os_str().is_empty()),
            verify_tls: pulp.verify_tls,
            connect_timeout: Duration::from_secs(pulp.connect_timeout_secs),
            request_timeout: Duration::from_secs(pulp.request_timeout_secs),
            task_timeout: Duration::from_secs(pulp.task_timeout_secs),
            page_size: pulp.page_size,
            extra_headers: headers,
            use_session: pulp.use_session,
        }
    }
}

/// The built-in defaults (`config/default.toml`) for a Pulp at `base_url`: what tests and
/// tools start from, so that no second set of defaults exists.
pub fn default_pulp_settings(base_url: &str) -> Result<PulpSettings, ConfigError> {
    let overrides = Overrides::default().flag("pulp.base_url", base_url);
    Ok(load(&overrides)?.pulp_settings())
}
