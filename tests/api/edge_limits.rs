//! The HTTP edge against slow and greedy clients, over raw sockets: headers, bodies and idle
//! connections have time limits, bodies a size limit, and shutdown waits for nothing but
//! requests in flight.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::timeout;

use repo_console::adapters::web::EdgeSettings;

use crate::helpers::*;

/// Short limits, so the tests wait little; the grace period is long on purpose.
pub fn quick() -> EdgeSettings {
    EdgeSettings {
        header_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(2),
        body_timeout: Duration::from_secs(1),
        shutdown_grace: Duration::from_secs(60),
        allowed_hosts: Vec::new(),
    }
}

pub async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(host(app)).await.expect("connect")
}

pub fn host(app: &TestApp) -> String {
    app.address.trim_start_matches("http://").to_owned()
}

/// Everything the server sends until it closes the connection; panics if it keeps it open
/// longer than `limit`.
pub async fn until_closed(stream: &mut TcpStream, limit: Duration) -> String {
    let mut received = Vec::new();
    let read = timeout(limit, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&buf[..n]),
            }
        }
    });
    read.await.expect("the console closes the connection");
    String::from_utf8_lossy(&received).into_owned()
}

const WAIT: Duration = Duration::from_secs(10);

#[tokio::test]
async fn a_connection_that_sends_nothing_or_half_a_header_is_closed() {
    let app = fixture_app().edge(quick()).spawn().await;
    let mut silent = connect(&app).await;
    let mut half = connect(&app).await;
    half.write_all(format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Slow: ", host(&app)).as_bytes())
        .await
        .unwrap();
    until_closed(&mut silent, WAIT).await;
    until_closed(&mut half, WAIT).await;
    assert_eq!(app.get("/healthz").await.status, 200);
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let app = fixture_app().edge(quick()).spawn().await;
    let mut stream = connect(&app).await;
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", host(&app));
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = until_closed(&mut stream, WAIT).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn a_body_that_stalls_is_cut_off_with_408_and_changes_nothing() {
    let app = fixture_app().edge(quick()).spawn().await;
    let mut stream = connect(&app).await;
    let head = deploy_head(&app, 100);
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(b"version=4&confirm=").await.unwrap();
    let answer = until_closed(&mut stream, WAIT).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within"), "{answer}");
    assert!(app.mutations().is_empty());
}

fn deploy_head(app: &TestApp, length: usize) -> String {
    format!(
        "POST /repos/{}/deploy HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
         Content-Length: {length}\r\n\r\n",
        app.fixture.base_os,
        host(app)
    )
}

#[tokio::test]
async fn every_post_route_refuses_a_large_body_with_413() {
    let app = spawn_app().await;
    for path in [
        format!("/repos/{}/sync", app.fixture.fresh),
        format!("/repos/{}/deploy", app.fixture.base_os),
    ] {
        // Announced: refused before it is sent.
        let mut stream = connect(&app).await;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: 10000000\r\n\r\n",
            host(&app)
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        let answer = until_closed(&mut stream, WAIT).await;
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        // Chunked: refused once it passes the limit.
        let big = "a".repeat(64 * 1024);
        let reply = app.request("POST", &path, &[], &big).await;
        assert_eq!(reply.status, 413, "{path}");
    }
    assert!(app.mutations().is_empty());
}

#[tokio::test]
async fn shutdown_closes_idle_and_half_sent_connections_at_once_and_lets_a_deploy_finish() {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let settings = EdgeSettings {
        header_timeout: Duration::from_secs(30),
        idle_timeout: Duration::from_secs(30),
        body_timeout: Duration::from_secs(30),
        ..quick()
    };
    let shutdown = async move {
        let _ = stopped.await;
    };
    let mut app = fixture_app()
        .edge(settings)
        .until(shutdown)
        .task_delay(Duration::from_millis(1500))
        .spawn()
        .await;
    let mut idle = connect(&app).await;
    let mut half_header = connect(&app).await;
    half_header
        .write_all(b"GET / HTTP/1.1\r\nHo")
        .await
        .unwrap();
    let mut half_body = connect(&app).await;
    half_body
        .write_all(format!("{}version=4", deploy_head(&app, 100)).as_bytes())
        .await
        .unwrap();
    let deploying = {
        let client = WebClient {
            address: app.address.clone(),
        };
        let path = format!("/repos/{}/deploy", app.fixture.base_os);
        tokio::spawn(async move { client.post(&path, "version=4&confirm=base-os").await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = tokio::time::Instant::now();
    stop.send(()).unwrap();
    until_closed(&mut idle, Duration::from_secs(1)).await;
    until_closed(&mut half_header, Duration::from_secs(1)).await;
    let refused = until_closed(&mut half_body, Duration::from_secs(1)).await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert_eq!(deploying.await.unwrap().status, 303, "the deploy finished");
    timeout(WAIT, &mut app.served)
        .await
        .expect("serving ends")
        .unwrap()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "no wait for a timeout"
    );
    assert_eq!(app.production_version("base-os-prod"), Some(4));
}
