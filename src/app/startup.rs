//! Startup: the ONE place that names concrete adapters and wires them into the app.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::adapters::audit_jsonl::JsonlAuditSink;
use crate::adapters::audit_stdout::StdoutAuditSink;
use crate::adapters::clock_system::SystemClock;
use crate::adapters::identity_fixed::FixedOperator;
use crate::adapters::memory::{demo_pulp, MemoryOptions};
use crate::adapters::web;
use crate::ports::{AuditSink, RepositoryManager};

use super::config::{AuditSinkKind, Config};
use super::{AppState, DeployLocks};

/// Which upstream the console talks to, for the startup log.
pub enum Upstream {
    Demo,
}

/// Builds the state from the configuration.
pub fn build_state(config: &Config) -> (AppState, Upstream) {
    let (manager, upstream) = upstream(config);
    let state = AppState {
        manager,
        audit: audit_sink(&config.audit),
        clock: Arc::new(SystemClock),
        identity: Arc::new(FixedOperator::default()),
        production: Arc::new(config.production.clone()),
        deploy_locks: DeployLocks::default(),
        page_size: config.page_size,
    };
    (state, upstream)
}

fn upstream(config: &Config) -> (Arc<dyn RepositoryManager>, Upstream) {
    let options = MemoryOptions {
        task_delay: config.demo_task_delay,
        ..MemoryOptions::default()
    };
    (
        Arc::new(demo_pulp(options, chrono::Utc::now())),
        Upstream::Demo,
    )
}

fn audit_sink(kind: &AuditSinkKind) -> Arc<dyn AuditSink> {
    match kind {
        AuditSinkKind::Jsonl(path) => Arc::new(JsonlAuditSink::new(path)),
        AuditSinkKind::Stdout => Arc::new(StdoutAuditSink::default()),
    }
}

/// Serves the console until Ctrl-C or SIGTERM.
pub async fn run(config: Config) -> std::io::Result<()> {
    let (state, upstream) = build_state(&config);
    let listener = TcpListener::bind(config.listen).await?;
    match upstream {
        Upstream::Demo => tracing::info!("no Pulp configured: serving the built-in demo upstream"),
    }
    match &config.audit {
        AuditSinkKind::Jsonl(path) => tracing::info!(path = %path.display(), "audit log"),
        AuditSinkKind::Stdout => tracing::info!("audit log on standard output"),
    }
    serve(listener, state, shutdown_signal(), config.shutdown_grace).await
}

/// Serves until `shutdown` completes; then stops accepting and lets requests in flight
/// (a deploy) finish, for at most `grace`.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    tracing::info!("repo-console listening on http://{}/", listener.local_addr()?);
    let (fired_tx, mut fired_rx) = tokio::sync::watch::channel(false);
    let signal = async move {
        shutdown.await;
        tracing::info!("shutting down: no new connections; finishing requests in flight");
        let _ = fired_tx.send(true);
    };
    let server = axum::serve(listener, web::router(state)).with_graceful_shutdown(signal);
    let deadline = async move {
        let _ = fired_rx.wait_for(|fired| *fired).await;
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        served = server => served,
        () = deadline => {
            tracing::warn!(?grace, "requests still in flight after the grace period: exiting anyway");
            Ok(())
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = terminate => {} }
}
