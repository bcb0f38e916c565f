//! Startup: builds the adapters the configuration names and wires them into the app.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::adapters::audit_jsonl::JsonlAuditSink;
use crate::adapters::audit_stdout::StdoutAuditSink;
use crate::adapters::clock_system::SystemClock;
use crate::adapters::identity_fixed::FixedOperator;
use crate::adapters::memory::{demo_pulp, MemoryOptions};
use crate::adapters::pulp::{PulpClient, PulpSettings, Secret, SetupError};
use crate::adapters::web;
use crate::app::{AppState, DeployLocks, DiffCache};
use crate::ports::{AuditSink, ContentCatalog, RepositoryManager};

use super::config::{AuditSinkKind, Config, RawPulp};

/// Which upstream the console talks to, for the startup log.
pub enum Upstream {
    Demo,
    Pulp {
        base_url: String,
        from_cli: Option<std::path::PathBuf>,
    },
}

/// Builds the state from the configuration; fails when the Pulp settings are unusable.
pub fn build_state(config: &Config) -> Result<(AppState, Upstream), SetupError> {
    let (manager, content, upstream) = upstream(config)?;
    let state = AppState {
        manager,
        audit: audit_sink(&config.audit),
        clock: Arc::new(SystemClock),
        identity: Arc::new(FixedOperator::default()),
        production: Arc::new(config.production.clone()),
        deploy_locks: DeployLocks::default(),
        page_size: config.page_size,
        content,
        diffs: DiffCache::default(),
    };
    Ok((state, upstream))
}

type Ports = (
    Arc<dyn RepositoryManager>,
    Arc<dyn ContentCatalog>,
    Upstream,
);

fn upstream(config: &Config) -> Result<Ports, SetupError> {
    let pulp = &config.pulp;
    if pulp.base_url.is_empty() {
        let options = MemoryOptions {
            task_delay: config.demo_task_delay,
            ..MemoryOptions::default()
        };
        let demo = Arc::new(demo_pulp(options, chrono::Utc::now()));
        return Ok((demo.clone(), demo, Upstream::Demo));
    }
    let client = Arc::new(PulpClient::new(pulp_settings(pulp))?);
    let upstream = Upstream::Pulp {
        base_url: pulp.base_url.clone(),
        from_cli: config.pulp_from_cli.clone(),
    };
    Ok((client.clone(), client, upstream))
}

fn pulp_settings(pulp: &RawPulp) -> PulpSettings {
    let mut headers: Vec<(String, String)> = pulp.headers.clone().into_iter().collect();
    headers.sort();
    PulpSettings {
        base_url: pulp.base_url.trim_end_matches('/').to_owned(),
        api_root: pulp.api_root.clone(),
        username: pulp.username.clone(),
        password: Secret::new(pulp.password.clone()),
        ca_file: Some(std::path::PathBuf::from(&pulp.ca_file))
            .filter(|p| !p.as_os_str().is_empty()),
        verify_tls: pulp.verify_tls,
        connect_timeout: Duration::from_secs(pulp.connect_timeout_secs),
        request_timeout: Duration::from_secs(pulp.request_timeout_secs),
        task_timeout: Duration::from_secs(pulp.task_timeout_secs),
        page_size: pulp.page_size,
        extra_headers: headers,
        use_session: pulp.use_session,
    }
}

fn audit_sink(kind: &AuditSinkKind) -> Arc<dyn AuditSink> {
    match kind {
        AuditSinkKind::Jsonl(path) => Arc::new(JsonlAuditSink::new(path)),
        AuditSinkKind::Stdout => Arc::new(StdoutAuditSink::default()),
    }
}

/// Serves the console until Ctrl-C or SIGTERM.
pub async fn run(config: Config) -> Result<(), String> {
    let (state, upstream) =
        build_state(&config).map_err(|e| format!("cannot use the Pulp settings: {e}"))?;
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {} (server.listen): {e}", config.listen))?;
    match upstream {
        Upstream::Demo => tracing::info!("no Pulp configured: serving the built-in demo upstream"),
        Upstream::Pulp {
            base_url,
            from_cli: None,
        } => tracing::info!(%base_url, "using Pulp"),
        Upstream::Pulp {
            base_url,
            from_cli: Some(path),
        } => {
            tracing::info!(%base_url, config = %path.display(), "using the Pulp named in pulp-cli's configuration")
        }
    }
    match &config.audit {
        AuditSinkKind::Jsonl(path) => tracing::info!(path = %path.display(), "audit log"),
        AuditSinkKind::Stdout => tracing::info!("audit log on standard output"),
    }
    web::serve(
        listener,
        state,
        web::shutdown_signal(),
        config.shutdown_grace,
    )
    .await
    .map_err(|e| format!("cannot serve: {e}"))
}
