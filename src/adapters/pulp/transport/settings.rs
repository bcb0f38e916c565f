//! How to reach and authenticate with a Pulp server. Built by the wiring's configuration.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// A secret text (the Pulp password). Its `Debug` and `Display` never show it.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself; call it only where it is sent upstream.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// Everything [`PulpClient`](crate::adapters::pulp::PulpClient) needs to talk to one Pulp server.
/// No defaults here: they live in `config/default.toml` (tests start from
/// `wiring::default_pulp_settings`).
#[derive(Debug, Clone)]
pub struct PulpSettings {
    /// Scheme, host and port, e.g. `https://pulp.example.com` (no API path).
    pub base_url: String,
    /// Path before `api/v3/`: `/pulp/`, or `/pulp/<domain>/` when domains are enabled.
    pub api_root: String,
    /// Empty means: send no credentials (e.g. a proxy adds them through `extra_headers`).
    pub username: String,
    pub password: Secret,
    /// A PEM bundle of extra CA certificates to trust (beside the built-in web roots).
    pub ca_file: Option<PathBuf>,
    /// `false` accepts any server certificate: for test servers only.
    pub verify_tls: bool,
    pub connect_timeout: Duration,
    /// Bound on one whole request (connect, send, read the body).
    pub request_timeout: Duration,
    /// Bound on waiting for an upstream task to end.
    pub task_timeout: Duration,
    /// `limit` of each page when following Pulp's pagination.
    pub page_size: u64,
    /// Headers added to every request (name, value).
    pub extra_headers: Vec<(String, String)>,
    /// Log in once and reuse the session cookie (fast). `false` sends basic auth on every
    /// request, which costs Pulp a password hash each time (~0.5 s).
    pub use_session: bool,
}

impl PulpSettings {
    /// `base_url` without a trailing slash.
    pub(crate) fn base(&self) -> &str {
        self.base_url.trim_end_matches('/')
    }

    /// The API root as a path that starts and ends with `/`.
    pub(crate) fn api_root_path(&self) -> String {
        let trimmed = self.api_root.trim_matches('/');
        if trimmed.is_empty() {
            "/".to_owned()
        } else {
            format!("/{trimmed}/")
        }
    }

    /// `{api_root}api/v3/` as a path.
    pub(crate) fn api_path(&self) -> String {
        format!("{}api/v3/", self.api_root_path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wiring::default_pulp_settings;

    fn settings() -> PulpSettings {
        default_pulp_settings("https://pulp.example/").unwrap()
    }

    #[test]
    fn the_password_never_shows_in_debug_output() {
        let settings = PulpSettings {
            password: Secret::new("hunter2"),
            ..settings()
        };
        let shown = format!("{settings:?} {}", settings.password);
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("***"));
    }

    #[test]
    fn the_api_root_is_normalised_to_slashes_on_both_ends() {
        for raw in ["/pulp/", "pulp", "/pulp", "pulp/"] {
            let s = PulpSettings {
                api_root: raw.into(),
                ..settings()
            };
            assert_eq!(s.api_path(), "/pulp/api/v3/", "{raw}");
        }
        let domain = PulpSettings {
            api_root: "/pulp/default/".into(),
            base_url: "https://pulp.example/".into(),
            ..settings()
        };
        assert_eq!(domain.api_path(), "/pulp/default/api/v3/");
        assert_eq!(domain.base(), "https://pulp.example");
    }
}
