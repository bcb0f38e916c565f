//! The limits the HTTP edge enforces before a handler runs: how long a client may take to
//! send a request, how long a connection may idle, how long shutdown waits, which hosts the
//! console answers to (the values come from `[server]` in the configuration); and the
//! middleware that answers before a handler: the cross-site and host checks, the request log
//! and each request's correlation id,
//! the security headers, the limit on each caller's writes (429), and the redirect of a
//! repository named instead of its UUID (307); and the words an unidentified caller reads
//! when Pulp fails (no internal address).

pub mod allowed_hosts;
pub mod body_read;
pub mod connection;
pub mod correlation;
pub mod cross_site;
pub mod host_check;
pub mod question_limit;
pub mod repo_names;
pub mod request_log;
pub mod security;
pub mod server;
pub mod upstream_words;
pub mod write_limit;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::middleware::from_fn_with_state;
use axum::Router;
use tokio::sync::watch;

use crate::adapters::web::edge::allowed_hosts::{AllowedHosts, Site};
use crate::adapters::web::edge::body_read::{read_whole_body, BodyPolicy};
use crate::adapters::web::edge::host_check::refuse_other_hosts;

/// Request bodies larger than this are refused (413): a deploy form is a few bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

#[derive(Debug, Clone)]
pub struct EdgeSettings {
    /// A request's headers must arrive within this time of the connection opening or of the
    /// previous response (this also closes an HTTP/1.1 keep-alive connection idle that long).
    pub header_timeout: Duration,
    /// A connection with no request in flight for this long is closed (HTTP/2 included).
    pub idle_timeout: Duration,
    /// A request's whole body must arrive within this time (408 otherwise).
    pub body_timeout: Duration,
    /// How long a shutdown waits for requests in flight (a deploy).
    pub shutdown_grace: Duration,
    /// Sites the console answers as besides its listen address, `localhost` and `127.0.0.1`.
    pub allowed_hosts: Vec<Site>,
}

impl Default for EdgeSettings {
    /// The values of `config/default.toml` (a test in `wiring` keeps them equal).
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(60),
            body_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(610),
            allowed_hosts: Vec::new(),
        }
    }
}

/// Puts the edge checks around the app's routes: the host check first, then the body read.
pub(crate) fn guard(
    routes: Router,
    settings: &EdgeSettings,
    local: SocketAddr,
    stop: watch::Receiver<bool>,
) -> Router {
    let allowed = AllowedHosts::for_listener(local, &settings.allowed_hosts);
    let body = BodyPolicy {
        limit: BODY_LIMIT,
        timeout: settings.body_timeout,
        stop,
    };
    routes
        .layer(from_fn_with_state(Arc::new(body), read_whole_body))
        .layer(from_fn_with_state(Arc::new(allowed), refuse_other_hosts))
}
