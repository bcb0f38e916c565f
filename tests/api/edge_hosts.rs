//! The HTTP edge against DNS rebinding and odd origins: the Host (or HTTP/2 authority) must
//! be one of the console's, and a POST's Origin one of its sites, scheme and port included.

use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::AsyncWriteExt;

use repo_console::adapters::web::Site;

use crate::edge_limits::{connect, host, quick, until_closed};
use crate::helpers::*;

const FORM: (&str, &str) = ("content-type", "application/x-www-form-urlencoded");
const DEPLOY_FORM: &str = "version=4&confirm=base-os";

/// Sends `head` (without the final blank line) and `body` as they are; the whole answer.
async fn raw(app: &TestApp, head: &[u8], body: &str) -> String {
    let mut stream = connect(app).await;
    let length = format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    for part in [head, length.as_bytes(), body.as_bytes()] {
        stream.write_all(part).await.unwrap();
    }
    until_closed(&mut stream, Duration::from_secs(10)).await
}

fn deploy_path(app: &TestApp) -> String {
    format!("/repos/{}/deploy", app.fixture.base_os)
}

#[tokio::test]
async fn a_request_for_another_host_is_refused_before_any_handler() {
    let app = spawn_app().await;
    let port = host(&app).rsplit(':').next().unwrap().to_owned();
    let evil = format!("evil.example:{port}");
    let origin = format!("http://{evil}");
    let rebound = [FORM, ("host", &evil), ("origin", &origin)];
    let reply = app
        .request("POST", &deploy_path(&app), &rebound, DEPLOY_FORM)
        .await;
    assert_eq!(reply.status, 421, "{}", reply.body);
    assert!(reply.body.contains("server.allowed_hosts"));
    assert!(app.mutations().is_empty());
    for (host, status) in [
        (evil.as_str(), 421),
        ("127.0.0.1:1", 421),
        ("127.0.0.1", 421),
        (&format!("localhost:{port}"), 200),
        (&format!("127.0.0.1:{port}"), 200),
    ] {
        let reply = app.request("GET", "/", &[("host", host)], "").await;
        assert_eq!(reply.status, status, "{host}");
    }
    let hostless = raw(&app, b"GET /healthz HTTP/1.0\r\n", "").await;
    assert!(hostless.starts_with("HTTP/1.0 400"), "{hostless}");
}

#[tokio::test]
async fn origins_that_are_unreadable_or_of_another_scheme_are_refused() {
    let app = spawn_app().await;
    let head = |origin: &[u8]| {
        let mut head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nOrigin: ",
            deploy_path(&app),
            host(&app)
        )
        .into_bytes();
        head.extend_from_slice(origin);
        head.extend_from_slice(b"\r\n");
        head
    };
    let https = format!("https://{}", host(&app));
    let unreadable = format!("http://{}\u{e9}", host(&app));
    for origin in [https.as_bytes(), unreadable.as_bytes(), b"http://\xff"] {
        let answer = raw(&app, &head(origin), DEPLOY_FORM).await;
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    }
    assert!(app.mutations().is_empty());
    let own = format!("http://{}", host(&app));
    let answer = raw(&app, &head(own.as_bytes()), DEPLOY_FORM).await;
    assert!(answer.starts_with("HTTP/1.1 303"), "{answer}");
}

#[tokio::test]
async fn behind_a_proxy_the_public_site_is_listed_and_forwarded_headers_are_not_trusted() {
    let mut settings = quick();
    settings.allowed_hosts = vec![Site::parse_entry("https://console.example").unwrap()];
    let app = fixture_app().edge(settings).spawn().await;
    let forwarded = [
        FORM,
        ("x-forwarded-host", "evil.example"),
        ("origin", "http://evil.example"),
    ];
    let reply = app
        .request("POST", &deploy_path(&app), &forwarded, DEPLOY_FORM)
        .await;
    assert_eq!(reply.status, 403);
    assert!(app.mutations().is_empty());
    let public = [
        FORM,
        ("host", "console.example"),
        ("origin", "https://console.example"),
    ];
    let reply = app
        .request("POST", &deploy_path(&app), &public, DEPLOY_FORM)
        .await;
    assert_eq!(reply.status, 303, "{}", reply.body);
}

/// Sends one request over HTTP/2 without TLS (prior knowledge), as hyper's client does.
async fn h2c(app: &TestApp, authority: &str, path: &str, origin: &str) -> (u16, String) {
    let io = TokioIo::new(connect(app).await);
    let (mut sender, connection) = hyper::client::conn::http2::handshake(TokioExecutor::new(), io)
        .await
        .expect("an HTTP/2 handshake");
    tokio::spawn(connection);
    let request = hyper::Request::post(format!("http://{authority}{path}"))
        .header("content-type", FORM.1)
        .header("origin", origin)
        .body(Full::new(Bytes::from(DEPLOY_FORM)))
        .unwrap();
    let response = sender.send_request(request).await.expect("an answer");
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn a_same_origin_post_over_h2c_deploys_and_another_authority_is_refused() {
    let app = spawn_app().await;
    let own = host(&app);
    let (status, body) = h2c(
        &app,
        "evil.example",
        &deploy_path(&app),
        "http://evil.example",
    )
    .await;
    assert_eq!(status, 421, "{body}");
    assert!(app.mutations().is_empty());
    let (status, body) = h2c(&app, &own, &deploy_path(&app), &format!("http://{own}")).await;
    assert_eq!(status, 303, "{body}");
    assert_eq!(app.production_version("base-os-prod"), Some(4));
}

#[tokio::test]
async fn a_refused_htmx_request_gets_a_fragment_not_a_page() {
    let app = spawn_app().await;
    let htmx = [FORM, ("hx-request", "true"), ("hx-target", "modal-host")];
    let reply = app
        .request(
            "POST",
            &deploy_path(&app),
            &htmx,
            "version=abc&confirm=base-os",
        )
        .await;
    assert_eq!(reply.status, 400);
    assert!(!reply.body.contains("<html"), "{}", reply.body);
    assert!(reply.body.contains("id=\"deploy-modal\""), "{}", reply.body);
    assert!(reply.body.contains("id=\"deploy-error\""), "{}", reply.body);
    assert!(reply.body.contains("is not a version number"));
    let reply = app
        .request("POST", "/repos/nope/sync", &[("hx-request", "true")], "")
        .await;
    assert_eq!(reply.status, 404);
    assert!(!reply.body.contains("<html"), "{}", reply.body);
    let client = WebClient {
        address: app.address.clone(),
    };
    let page = client.post(&deploy_path(&app), "version=abc").await;
    assert_eq!(page.status, 400);
    assert!(page.body.contains("<html"), "without htmx: the page");
}
