//! Operator identity from a trusted proxy, over HTTP through the real server (which gives
//! the identity middleware the peer address): who may change things, and who the audit names.

use std::sync::Arc;

use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;

use crate::helpers::*;

/// The fixture's console served through the edge (which gives the identity middleware the
/// peer address), naming operators by `X-Remote-User` from `trusted`.
async fn spawn_proxied(trusted: &str) -> TestApp {
    let identity = TrustedProxyHeader::new("X-Remote-User", vec![trusted.parse().unwrap()]);
    fixture_app().identity(Arc::new(identity)).spawn().await
}

/// The text of the one element `css` selects in `reply`.
fn text_of(reply: &Reply, css: &str) -> String {
    let html = reply.html();
    let found = select(&html, css);
    assert_eq!(found.len(), 1, "one {css} in {}", reply.body);
    text(&found[0])
}

/// A deploy of base-os v4, as `user` when named by the proxy's header.
async fn deploy_as(app: &TestApp, user: Option<&str>) -> Reply {
    let mut headers = vec![
        ("content-type", "application/x-www-form-urlencoded"),
        ("hx-request", "true"),
    ];
    headers.extend(user.map(|u| ("x-remote-user", u)));
    let path = format!("/repos/{}/deploy", app.fixture.base_os);
    app.request("POST", &path, &headers, "version=4&confirm=base-os")
        .await
}

/// The operator each audit line names.
fn audited_operators(app: &TestApp) -> Vec<String> {
    let lines = app.audit_lines().into_iter();
    lines
        .map(|l| l["operator"].as_str().unwrap().to_owned())
        .collect()
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

    let reply = deploy_as(&app, Some("alice")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        audited_operators(&app),
        ["alice", "alice"],
        "started and outcome lines name alice"
    );
}

#[tokio::test]
async fn without_the_header_deploy_and_sync_are_refused_with_401_and_the_page_says_why() {
    let app = spawn_proxied("127.0.0.1/32").await;
    let reply = deploy_as(&app, None).await;
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
    assert_eq!(app.mutations().len(), 0, "nothing was changed upstream");
    assert!(audited_operators(&app).is_empty(), "nothing was audited");

    let page = app.client.get("/").await;
    assert_eq!(page.status, 200, "reading stays open");
    assert_eq!(text_of(&page, "#operator"), "not identified");
    assert!(text_of(&page, "#unidentified").contains("You cannot deploy, roll back or synchronize"));
}

#[tokio::test]
async fn the_header_from_an_untrusted_peer_is_not_believed() {
    let app = spawn_proxied("10.0.0.0/8").await;
    let reply = deploy_as(&app, Some("mallory")).await;
    assert_eq!(reply.status, 401);
    assert!(
        reply.body.contains(
            "the request came from 127.0.0.1, which is not one of identity.trusted_proxies."
        ),
        "{}",
        reply.body
    );
    assert_eq!(app.mutations().len(), 0);
    assert!(audited_operators(&app).is_empty());
}

#[tokio::test]
async fn without_an_identity_scheme_everyone_is_the_placeholder_operator() {
    let app = spawn_app().await;
    let page = app.get("/").await;
    assert_eq!(text_of(&page, "#operator"), "operator");
}
