//! Serving the router: accepts connections, enforces the edge limits, and on shutdown lets
//! the requests in flight (a deploy) finish, for at most the grace period.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::app::promotion::under_way::{Drained, RunningDeploys};
use crate::app::AppState;

use crate::adapters::web::edge::connection::{builder, serve_connection, IdleLimits};
use crate::adapters::web::edge::{guard, EdgeSettings};

/// After a failed accept (no file descriptor left…), wait this long before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// [`serve_with`] the default edge limits and `grace` as the shutdown grace period.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    let settings = EdgeSettings {
        shutdown_grace: grace,
        ..EdgeSettings::default()
    };
    serve_with(listener, state, shutdown, settings).await
}

/// Serves until `shutdown` completes; then stops accepting, closes idle connections and
/// lets requests in flight finish, for at most `settings.shutdown_grace`.
pub async fn serve_with(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    settings: EdgeSettings,
) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    tracing::info!("repo-console listening on http://{local}/");
    let (stop, stopping) = watch::channel(false);
    let running = state.running_deploys().clone();
    let app = guard(
        crate::adapters::web::routes(state.clone()),
        &settings,
        local,
        stopping.clone(),
    );
    let app = crate::adapters::web::outer_layers(app, state);
    let builder = Arc::new(builder(&settings));
    let limits = IdleLimits::of(&settings);
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let served = serve_connection(stream, peer, app.clone(), builder.clone(), limits, stopping.clone());
                    connections.spawn(served);
                }
                Err(error) => {
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    tracing::info!("shutting down: no new connections; finishing requests in flight");
    stop.send_replace(true);
    let deadline = tokio::time::Instant::now() + settings.shutdown_grace;
    drain(connections, settings.shutdown_grace).await;
    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
    wait_for_deploys(&running, left).await;
    Ok(())
}

/// Waits for the deploys still running (their clients may have gone), for at most `left`,
/// the rest of the grace period; says in the log how many there were and how it ended.
async fn wait_for_deploys(running: &RunningDeploys, left: Duration) {
    let count = running.running();
    if count == 0 {
        running.drain(Duration::ZERO).await;
        return;
    }
    tracing::info!(
        deploys = count,
        wait_s = left.as_secs(),
        "shutting down: waiting for the deploys under way to end"
    );
    match running.drain(left).await {
        Drained::AllEnded => tracing::info!("every deploy under way ended"),
        Drained::StillRunning(left) => tracing::error!(
            deploys = left,
            "deploys still running after the grace period: exiting anyway; each has a `started` \
             line and no outcome in the audit log: check its environment's distribution in Pulp"
        ),
    }
}

/// Waits for the connections to end, for at most `grace`; the rest are dropped.
async fn drain(mut connections: JoinSet<()>, grace: Duration) {
    let drained = tokio::time::timeout(grace, async {
        while connections.join_next().await.is_some() {}
    });
    if drained.await.is_err() {
        tracing::warn!(
            ?grace,
            "requests still in flight after the grace period: exiting anyway"
        );
    }
}

/// Completes on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
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
