//! Pulp down or hanging: pages say so within the timeouts and never hang. These use the real
//! `PulpClient` against local sockets that refuse or never answer.

use std::sync::Arc;
use std::time::{Duration, Instant};

use repo_console::adapters::pulp::{PulpClient, PulpSettings};
use repo_console::wiring::default_pulp_settings;

use crate::test_app::TestApp;

/// The console over a `PulpClient` pointed at `base_url` (1 s to connect, 2 s to answer).
async fn console_over(base_url: String) -> TestApp<()> {
    let settings = PulpSettings {
        connect_timeout: Duration::from_secs(1),
        request_timeout: Duration::from_secs(2),
        ..default_pulp_settings(&base_url).unwrap()
    };
    let client = Arc::new(PulpClient::new(settings).unwrap());
    TestApp::builder()
        .configure(move |state| state.manager(client))
        .spawn()
        .await
}

const SOME_REPO: &str = "/repos/01a202de-e818-7629-a483-70ecc3240361/versions";

const SOME_ID: &str = "01a202de-e818-7629-a483-70ecc3240361";

/// Every page and fragment that reads Pulp first, with whether htmx asks for it.
fn pages_and_fragments() -> Vec<(String, bool)> {
    let repo = format!("/repos/{SOME_ID}");
    vec![
        ("/".into(), false),
        (format!("{repo}/versions"), false),
        (format!("{repo}/versions"), true),
        (format!("{repo}/history"), false),
        (format!("{repo}/versions/2/changes?against=1"), false),
        (format!("{repo}/deploy/confirm?version=2"), true),
        (format!("{repo}/sync"), true),
    ]
}

#[tokio::test]
async fn one_outage_one_status_on_every_page_and_fragment() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let app = console_over(format!("http://127.0.0.1:{port}")).await;
    for (path, htmx) in pages_and_fragments() {
        let headers: &[(&str, &str)] = if htmx { &[("hx-request", "true")] } else { &[] };
        let started = Instant::now();
        let reply = app.request("GET", &path, headers, "").await;
        println!(
            "{path} (htmx {htmx}): {} in {:?}",
            reply.status,
            started.elapsed()
        );
        assert_eq!(reply.status, 503, "{path} (htmx {htmx}): {}", reply.body);
        assert!(
            reply.body.contains("Pulp is unreachable"),
            "{path}: says why: {}",
            reply.body
        );
        if !htmx {
            assert!(
                reply.body.contains("href=\"/\""),
                "{path}: a whole page with the way back: {}",
                reply.body
            );
        }
    }
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status, 503);
}

#[tokio::test]
async fn a_pulp_that_never_answers_times_out_with_a_clear_message() {
    let hanging = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = hanging.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = hanging.accept().await {
            held.push(socket); // accept, read nothing, answer nothing
        }
    });
    let app = console_over(format!("http://127.0.0.1:{port}")).await;
    let started = Instant::now();
    let reply = app.get(SOME_REPO).await;
    let took = started.elapsed();
    println!("hanging Pulp: versions page answered in {took:?} (request timeout 2 s)");
    assert_eq!(
        reply.status, 504,
        "the status of the failure: Pulp too slow"
    );
    assert!(
        reply.body.contains("did not answer in time"),
        "{}",
        reply.body
    );
    assert!(
        took < Duration::from_secs(20),
        "bounded by the timeouts, not hanging: {took:?}"
    );
}
