//! Serving the router: graceful shutdown that lets a deploy in flight finish.

use std::time::Duration;

use tokio::net::TcpListener;

use crate::app::AppState;

/// Serves until `shutdown` completes; then stops accepting and lets requests in flight
/// (a deploy) finish, for at most `grace`.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    tracing::info!(
        "repo-console listening on http://{}/",
        listener.local_addr()?
    );
    let (fired_tx, mut fired_rx) = tokio::sync::watch::channel(false);
    let signal = async move {
        shutdown.await;
        tracing::info!("shutting down: no new connections; finishing requests in flight");
        let _ = fired_tx.send(true);
    };
    // The peer address reaches the identity middleware as `ConnectInfo<SocketAddr>`.
    let app = super::router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    let server = axum::serve(listener, app).with_graceful_shutdown(signal);
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
