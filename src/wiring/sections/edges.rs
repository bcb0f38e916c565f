//! `[[edges]]` and `[edge_replication]`, checked: each edge's name, its API server (written
//! like `pulp.base_url`), its password read from `password_file` at start (never logged), its
//! CA, the upstream-pulp that copies this Pulp, its content origin, and the environments it
//! copies (known ones; default: the last of the path, production); the follow-up's timeouts,
//! back-off and alert threshold within bounds. Each refusal names its key.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use std::sync::Arc;

use crate::adapters::pulp::{PulpEdge, PulpEdges, PulpSettings, Secret, SetupError};
use crate::app::edges::{EdgeFollow, Edges, FollowedEdge};
use crate::domain::edge::{EdgeBackoff, EdgeName};
use crate::domain::environment::{EnvironmentName, EnvironmentPath};
use crate::ports::EdgeStateStore;

use crate::wiring::sections::error::{invalid, ConfigError};
use crate::wiring::sections::password_file::first_line;

/// One `[[edges]]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEdge {
    pub name: String,
    pub url: String,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    pub upstream: String,
    #[serde(default)]
    pub content_url: Option<String>,
    #[serde(default)]
    pub environments: Option<Vec<String>>,
}

/// `[edge_replication]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEdgeReplication {
    pub request_timeout_secs: u64,
    pub replication_timeout_secs: u64,
    pub retry_first_secs: u64,
    pub retry_max_secs: u64,
    pub behind_alert_secs: u64,
}

/// One edge Pulp, checked.
#[derive(Debug, Clone)]
pub struct ConfiguredEdge {
    pub name: EdgeName,
    /// How to reach its API (the Pulp client's settings, its password read).
    pub api: PulpSettings,
    /// The name of the upstream-pulp on the edge that copies this Pulp.
    pub upstream: String,
    /// Scheme, host and port of its content app (no trailing slash).
    pub content_origin: String,
    /// The environments whose distributions it copies.
    pub environments: Vec<EnvironmentName>,
}

/// The edges and how they are followed.
#[derive(Debug, Clone)]
pub struct EdgePulps {
    pub edges: Vec<ConfiguredEdge>,
    pub follow: EdgeFollow,
    /// The bound of one request to an edge.
    pub request_timeout: Duration,
}

impl EdgePulps {
    /// The edges as the application follows them, over the Pulp adapter (`central`: the
    /// central Pulp's settings), their state kept in `store`; `None` when no edge is
    /// configured.
    pub fn followed(
        &self,
        central: PulpSettings,
        store: Arc<dyn EdgeStateStore>,
    ) -> Result<Option<Edges>, SetupError> {
        if self.edges.is_empty() {
            return Ok(None);
        }
        let reached = self
            .edges
            .iter()
            .map(|e| PulpEdge {
                name: e.name.clone(),
                api: e.api.clone(),
                upstream: e.upstream.clone(),
                content_origin: e.content_origin.clone(),
            })
            .collect();
        let central = PulpSettings {
            request_timeout: self.request_timeout,
            ..central
        };
        let followed = self
            .edges
            .iter()
            .map(|e| FollowedEdge {
                name: e.name.clone(),
                environments: e.environments.clone(),
            })
            .collect();
        let replicator = Arc::new(PulpEdges::new(central, reached)?);
        Ok(Some(Edges::new(
            replicator,
            followed,
            self.follow.clone(),
            store,
        )))
    }
}

pub(crate) fn validate(
    raw: Vec<RawEdge>,
    replication: RawEdgeReplication,
    path: &EnvironmentPath,
) -> Result<EdgePulps, ConfigError> {
    let within = |key: &'static str, value: u64, min: u64, max: u64| {
        if (min..=max).contains(&value) {
            return Ok(Duration::from_secs(value));
        }
        Err(invalid(
            key,
            format!("{value}: must be between {min} and {max}"),
        ))
    };
    let request_timeout = within(
        "edge_replication.request_timeout_secs",
        replication.request_timeout_secs,
        1,
        60,
    )?;
    let replication_timeout = within(
        "edge_replication.replication_timeout_secs",
        replication.replication_timeout_secs,
        10,
        86_400,
    )?;
    let first = within(
        "edge_replication.retry_first_secs",
        replication.retry_first_secs,
        1,
        3600,
    )?;
    let cap = within(
        "edge_replication.retry_max_secs",
        replication.retry_max_secs,
        replication.retry_first_secs,
        3600,
    )?;
    let behind_alert = within(
        "edge_replication.behind_alert_secs",
        replication.behind_alert_secs,
        1,
        86_400,
    )?;
    let mut edges: Vec<ConfiguredEdge> = Vec::new();
    for (i, raw) in raw.into_iter().enumerate() {
        let edge = edge(i, raw, path, request_timeout)?;
        if edges.iter().any(|e| e.name == edge.name) {
            let reason = format!("'{}' is named twice: each edge has its own name", edge.name);
            return Err(invalid(format!("edges[{i}].name"), reason));
        }
        edges.push(edge);
    }
    Ok(EdgePulps {
        edges,
        follow: EdgeFollow {
            replication_timeout,
            backoff: EdgeBackoff { first, cap },
            behind_alert,
            poll: Duration::from_secs(1),
        },
        request_timeout,
    })
}

fn edge(
    i: usize,
    raw: RawEdge,
    path: &EnvironmentPath,
    request_timeout: Duration,
) -> Result<ConfiguredEdge, ConfigError> {
    let key = |field: &str| format!("edges[{i}].{field}");
    let name = EdgeName::parse(raw.name.trim()).map_err(|e| invalid(key("name"), e.to_string()))?;
    let url = origin(raw.url.trim()).map_err(|reason| invalid(key("url"), reason))?;
    let content_origin = match raw.content_url.as_deref().map(str::trim) {
        None | Some("") => url.clone(),
        Some(text) => origin(text).map_err(|reason| invalid(key("content_url"), reason))?,
    };
    let upstream = raw.upstream.trim();
    if upstream.is_empty() {
        let reason = "required: the name of the upstream-pulp on the edge that copies this Pulp (GET /pulp/api/v3/upstream-pulps/ on the edge lists them)".into();
        return Err(invalid(key("upstream"), reason));
    }
    let password = match raw.password_file.filter(|p| !p.as_os_str().is_empty()) {
        None => String::new(),
        Some(file) => first_line(&file).map_err(|e| {
            invalid(
                key("password_file"),
                format!("cannot read {}: {e}", file.display()),
            )
        })?,
    };
    let ca_file = raw.ca_file.filter(|p| !p.as_os_str().is_empty());
    if let Some(file) = &ca_file {
        if let Err(e) = std::fs::metadata(file) {
            return Err(invalid(
                key("ca_file"),
                format!("cannot read {}: {e}", file.display()),
            ));
        }
    }
    let environments = match raw.environments {
        None => vec![path.last().name.clone()],
        Some(names) if names.is_empty() => {
            let reason = "an empty list copies nothing: name environments, or leave the key out for the last one (production)".into();
            return Err(invalid(key("environments"), reason));
        }
        Some(names) => names
            .iter()
            .map(|name| {
                path.find(name.trim())
                    .map(|e| e.name.clone())
                    .ok_or_else(|| {
                        let known: Vec<&str> = path.iter().map(|e| e.name.as_str()).collect();
                        invalid(
                            key("environments"),
                            format!(
                                "'{name}' is not an environment (known: {})",
                                known.join(", ")
                            ),
                        )
                    })
            })
            .collect::<Result<_, _>>()?,
    };
    let api = PulpSettings {
        base_url: url,
        api_root: "/pulp/".into(),
        username: raw.username.trim().to_owned(),
        password: Secret::new(password),
        ca_file,
        verify_tls: true,
        connect_timeout: request_timeout,
        request_timeout,
        task_timeout: request_timeout,
        page_size: 100,
        extra_headers: Vec::new(),
        use_session: true,
    };
    Ok(ConfiguredEdge {
        name,
        api,
        upstream: upstream.to_owned(),
        content_origin,
        environments,
    })
}

/// Scheme, host and optional port: `http(s)://host[:port]`, without a path.
fn origin(text: &str) -> Result<String, String> {
    let trimmed = text.trim_end_matches('/');
    let rest = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"))
        .ok_or_else(|| format!("'{text}' must start with http:// or https://"))?;
    if rest.is_empty() || rest.contains(['/', '?', '#', ' ', '@']) {
        return Err(format!(
            "'{text}' must be a scheme, a host and an optional port only (the console adds /pulp/...)"
        ));
    }
    Ok(trimmed.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replication() -> RawEdgeReplication {
        RawEdgeReplication {
            request_timeout_secs: 10,
            replication_timeout_secs: 600,
            retry_first_secs: 1,
            retry_max_secs: 60,
            behind_alert_secs: 600,
        }
    }

    fn raw(name: &str) -> RawEdge {
        RawEdge {
            name: name.into(),
            url: "https://pulp-dc1.example.com/".into(),
            username: "admin".into(),
            password_file: None,
            ca_file: None,
            upstream: "central".into(),
            content_url: None,
            environments: None,
        }
    }

    fn path() -> EnvironmentPath {
        EnvironmentPath::production_only(Default::default())
    }

    fn refused(edges: Vec<RawEdge>) -> String {
        let error = validate(edges, replication(), &path()).unwrap_err();
        error.to_string()
    }

    #[test]
    fn an_edge_copies_production_and_is_served_from_its_own_host_by_default() {
        let checked = validate(vec![raw("dc1")], replication(), &path()).unwrap();
        let edge = &checked.edges[0];
        assert_eq!(edge.api.base_url, "https://pulp-dc1.example.com");
        assert_eq!(edge.content_origin, "https://pulp-dc1.example.com");
        assert_eq!(edge.environments, [EnvironmentName::production()]);
        assert_eq!(checked.follow.backoff.cap, Duration::from_secs(60));
    }

    #[test]
    fn each_refusal_names_its_key() {
        let mut bad_url = raw("dc1");
        bad_url.url = "pulp-dc1.example.com".into();
        assert!(refused(vec![bad_url]).contains("edges[0].url"));
        let mut path_in_url = raw("dc1");
        path_in_url.content_url = Some("https://cdn.example/pulp/content".into());
        assert!(refused(vec![path_in_url]).contains("edges[0].content_url"));
        assert!(refused(vec![raw("DC 1")]).contains("edges[0].name"));
        assert!(refused(vec![raw("dc1"), raw("dc1")]).contains("edges[1].name"));
        let mut no_upstream = raw("dc1");
        no_upstream.upstream = " ".into();
        assert!(refused(vec![no_upstream]).contains("edges[0].upstream"));
        let mut unknown_env = raw("dc1");
        unknown_env.environments = Some(vec!["staging".into()]);
        assert!(refused(vec![unknown_env]).contains("edges[0].environments"));
        let mut no_env = raw("dc1");
        no_env.environments = Some(vec![]);
        assert!(refused(vec![no_env]).contains("edges[0].environments"));
        let mut no_password = raw("dc1");
        no_password.password_file = Some("/nonexistent/edge-password".into());
        assert!(refused(vec![no_password]).contains("edges[0].password_file"));
        let mut no_ca = raw("dc1");
        no_ca.ca_file = Some("/nonexistent/edge-ca.pem".into());
        assert!(refused(vec![no_ca]).contains("edges[0].ca_file"));
    }

    #[test]
    fn a_retry_cap_below_the_first_wait_is_refused() {
        let mut r = replication();
        r.retry_first_secs = 30;
        r.retry_max_secs = 10;
        let error = validate(vec![], r, &path()).unwrap_err().to_string();
        assert!(error.contains("edge_replication.retry_max_secs"), "{error}");
    }
}
