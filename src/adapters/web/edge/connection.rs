//! One accepted connection, HTTP/1.1 or HTTP/2 (h2c): served until the client closes it, it
//! idles too long, or the console shuts down. Shutdown waits only while a request is in
//! flight; an idle connection, or one still sending its headers, is closed at once.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::Instant;
use tower::ServiceExt;

use crate::adapters::web::edge::body_read::stopped;
use crate::adapters::web::edge::EdgeSettings;

/// How the connections are spoken: both protocols, with hyper's header-read timeout.
pub fn builder(settings: &EdgeSettings) -> Builder<TokioExecutor> {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_timeout)
        .http2()
        .timer(TokioTimer::new());
    builder
}

/// Serves `stream` until it ends (see the module's comment).
pub async fn serve_connection(
    stream: TcpStream,
    peer: std::net::SocketAddr,
    app: Router,
    builder: Arc<Builder<TokioExecutor>>,
    limits: IdleLimits,
    mut stop: watch::Receiver<bool>,
) {
    let activity = Activity::default();
    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let busy = activity.begin();
            let app = app.clone();
            async move {
                let mut request = request.map(Body::new);
                // The peer's address, for the identity middleware (a trusted proxy's header).
                request
                    .extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                let response = app.oneshot(request).await?;
                // In flight until the answer's body has been handed to hyper.
                Ok::<_, Infallible>(response.map(|body| {
                    Body::new(body.map_frame(move |frame| {
                        let _ = &busy;
                        frame
                    }))
                }))
            }
        })
    };
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    tokio::select! {
        served = connection.as_mut() => return log_end(served),
        () = activity.idle_for(limits) => {}
        () = stopped(&mut stop) => {}
    }
    connection.as_mut().graceful_shutdown();
    if activity.in_flight() == 0 {
        // One last poll writes what is buffered (and closes an idle HTTP/1.1 connection).
        let _ = futures::poll!(connection.as_mut());
        return;
    }
    log_end(connection.await);
}

fn log_end(served: Result<(), Box<dyn std::error::Error + Send + Sync>>) {
    if let Err(error) = served {
        tracing::debug!(%error, "connection ended");
    }
}

/// How long a connection may have no request in flight.
#[derive(Debug, Clone, Copy)]
pub struct IdleLimits {
    /// Before its first request (the header timeout: it must start with one).
    pub before_first_request: Duration,
    /// Once it has served one.
    pub between_requests: Duration,
}

impl IdleLimits {
    pub fn of(settings: &EdgeSettings) -> Self {
        Self {
            before_first_request: settings.header_timeout,
            between_requests: settings.idle_timeout,
        }
    }
}

/// Requests in flight on one connection, and since when there have been none.
#[derive(Clone)]
struct Activity(Arc<watch::Sender<Load>>);

#[derive(Clone, Copy)]
struct Load {
    in_flight: usize,
    idle_since: Instant,
    /// Whether a request has arrived yet (the first must come within the header timeout).
    served: bool,
}

impl Default for Activity {
    fn default() -> Self {
        let load = Load {
            in_flight: 0,
            idle_since: Instant::now(),
            served: false,
        };
        Self(Arc::new(watch::Sender::new(load)))
    }
}

/// A request in flight; ends when dropped.
struct Busy(Activity);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0 .0.send_modify(|load| {
            load.in_flight -= 1;
            load.idle_since = Instant::now();
        });
    }
}

impl Activity {
    fn begin(&self) -> Busy {
        self.0.send_modify(|load| {
            load.in_flight += 1;
            load.served = true;
        });
        Busy(self.clone())
    }

    fn in_flight(&self) -> usize {
        self.0.borrow().in_flight
    }

    /// Completes once the connection has had no request in flight for its limit.
    async fn idle_for(&self, limits: IdleLimits) {
        let mut changes = self.0.subscribe();
        loop {
            let load = *changes.borrow_and_update();
            if load.in_flight > 0 {
                let _ = changes.changed().await;
                continue;
            }
            let limit = if load.served {
                limits.between_requests
            } else {
                limits.before_first_request
            };
            tokio::select! {
                () = tokio::time::sleep_until(load.idle_since + limit) => return,
                _ = changes.changed() => {}
            }
        }
    }
}
