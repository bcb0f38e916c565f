//! Operator identity from a trusted proxy, over HTTP through the real server (which gives
//! the identity middleware the peer address): who may change things, and who the audit names.

use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{InMemoryPulp, MemoryOptions};
use repo_console::adapters::web;

use crate::helpers::*;

struct ProxiedApp {
    client: WebClient,
    memory: Arc<InMemoryPulp>,
    fixture: Fixture,
    audit_path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

/// The console served by `web::serve`, naming operators by `X-Remote-User` from `trusted`.
async fn spawn_proxied(trusted: &str) -> ProxiedApp {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay: Duration::from_millis(5),
        ..Default::default()
    }));
    let fixture = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let audit_path = dir.path().join("audit.jsonl");
    let (state, _) = test_state(&memory, &audit_path);
    let identity = TrustedProxyHeader::new("X-Remote-User", vec![trusted.parse().unwrap()]);
    let state = state.rebuild().identity(Arc::new(identity)).build();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let never = std::future::pending::<()>();
    tokio::spawn(web::serve(listener, state, never, Duration::from_secs(1)));
    ProxiedApp {
        client: WebClient { address },
        memory,
        fixture,
        audit_path,
        _dir: dir,
    }
}

/// The text of the one element `css` selects in `reply`.
fn text_of(reply: &Reply, css: &str) -> String {
    let html = reply.html();
    let found = select(&html, css);
    assert_eq!(found.len(), 1, "one {css} in {}", reply.body);
    text(&found[0])
}

impl ProxiedApp {
    async fn deploy_as(&self, user: Option<&str>) -> Reply {
        let mut headers = vec![
            ("content-type", "application/x-www-form-urlencoded"),
            ("hx-request", "true"),
        ];
        headers.extend(user.map(|u| ("x-remote-user", u)));
        let path = format!("/repos/{}/deploy", self.fixture.base_os);
        let body = "version=4&confirm=base-os";
        self.client.send("POST", &path, &headers, body).await
    }

    fn changes(&self) -> usize {
        let calls = self.memory.calls().into_iter();
        calls
            .filter(|c| {
                c.starts_with("create_publication")
                    || c.starts_with("update_distribution")
                    || c.starts_with("sync ")
            })
            .count()
    }

    fn audited_operators(&self) -> Vec<String> {
        let text = std::fs::read_to_string(&self.audit_path).unwrap_or_default();
        text.lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["operator"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    }
}

#[tokio::test]
async fn the_proxy_named_operator_deploys_and_is_audited_and_shown() {
    let app = spawn_proxied("127.0.0.1/32").await;
    let page = app
        .client
        .send("GET", "/", &[("x-remote-user", "alice")], "")
        .await;
    assert_eq!(page.status, 200);
    assert_eq!(text_of(&page, "#operator"), "alice");
    assert!(select(&page.html(), "#unidentified").is_empty());

    let reply = app.deploy_as(Some("alice")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        app.audited_operators(),
        ["alice", "alice"],
        "started and outcome lines name alice"
    );
}

#[tokio::test]
async fn without_the_header_deploy_and_sync_are_refused_with_401_and_the_page_says_why() {
    let app = spawn_proxied("127.0.0.1/32").await;
    let reply = app.deploy_as(None).await;
    assert_eq!(reply.status, 401);
    assert!(
        reply.body.contains("cannot tell who you are") && reply.body.contains("X-Remote-User"),
        "{}",
        reply.body
    );
    assert!(
        reply.body.contains("Nothing was changed."),
        "the form was not read: no environment is named: {}",
        reply.body
    );
    let sync = format!("/repos/{}/sync", app.fixture.base_os);
    let reply = app
        .client
        .send("POST", &sync, &[("hx-request", "true")], "")
        .await;
    assert_eq!(reply.status, 401);
    assert_eq!(app.changes(), 0, "nothing was changed upstream");
    assert!(app.audited_operators().is_empty(), "nothing was audited");

    let page = app.client.get("/").await;
    assert_eq!(page.status, 200, "reading stays open");
    assert_eq!(text_of(&page, "#operator"), "not identified");
    assert!(text_of(&page, "#unidentified").contains("You cannot deploy, roll back or synchronize"));
}

#[tokio::test]
async fn the_header_from_an_untrusted_peer_is_not_believed() {
    let app = spawn_proxied("10.0.0.0/8").await;
    let reply = app.deploy_as(Some("mallory")).await;
    assert_eq!(reply.status, 401);
    assert!(
        reply.body.contains(
            "the request came from 127.0.0.1, which is not one of identity.trusted_proxies."
        ),
        "{}",
        reply.body
    );
    assert_eq!(app.changes(), 0);
    assert!(app.audited_operators().is_empty());
}

#[tokio::test]
async fn without_an_identity_scheme_everyone_is_the_placeholder_operator() {
    let app = spawn_app().await;
    let page = app.get("/").await;
    assert_eq!(text_of(&page, "#operator"), "operator");
}
