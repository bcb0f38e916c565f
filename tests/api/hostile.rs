//! Hostile input: cross-site requests, oversized bodies, odd names, and readiness.

use repo_console::adapters::memory::{Fault, Op};
use repo_console::domain::repository::RepoVerification;

use crate::helpers::*;

#[tokio::test]
async fn a_cross_site_post_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let path = format!("/repos/{}/deploy", app.fixture.base_os);
    let form = ("content-type", "application/x-www-form-urlencoded");
    for extra in [
        ("origin", "http://evil.example"),
        ("sec-fetch-site", "cross-site"),
        ("origin", "null"),
    ] {
        let reply = app
            .request("POST", &path, &[form, extra], "version=4&confirm=base-os")
            .await;
        assert_eq!(reply.status, 403, "{extra:?}");
        assert!(reply.body.contains("another site"));
    }
    assert!(app.mutations().is_empty());
    let host = app.address.trim_start_matches("http://").to_owned();
    let origin = format!("http://{host}");
    let reply = app
        .request(
            "POST",
            &path,
            &[form, ("origin", &origin), ("hx-request", "true")],
            "version=4&confirm=base-os",
        )
        .await;
    assert_eq!(
        reply.status, 200,
        "the console's own page may deploy: {}",
        reply.body
    );
}

#[tokio::test]
async fn an_oversized_body_is_refused_with_413() {
    let app = spawn_app().await;
    let body = format!("version=4&confirm={}", "a".repeat(64 * 1024));
    let reply = app
        .request(
            "POST",
            &format!("/repos/{}/deploy", app.fixture.base_os),
            &[("content-type", "application/x-www-form-urlencoded")],
            &body,
        )
        .await;
    assert_eq!(reply.status, 413);
    assert!(app.mutations().is_empty());
}

#[tokio::test]
async fn unicode_rtl_and_very_long_names_are_rendered_escaped_and_whole() {
    let app = spawn_app().await;
    let rtl = "\u{202E}gnp.exe \u{5e9}\u{5dc}\u{5d5}\u{5dd} \"'<i>";
    let long = format!("{}<b>", "x".repeat(500));
    for name in [rtl.to_owned(), long] {
        let id = app.memory.add_repo(&name, RepoVerification::default());
        let reply = app.get(&format!("/repos/{id}/versions")).await;
        assert_eq!(reply.status, 200);
        assert!(
            !reply.body.contains("<i>") && !reply.body.contains("<b>"),
            "markup escaped"
        );
        let html = reply.html();
        assert_eq!(text(&select(&html, "h1")[0]), name, "the name round-trips");
    }
}

#[tokio::test]
async fn healthz_answers_while_readyz_follows_pulp() {
    let app = spawn_app().await;
    assert_eq!(app.get("/healthz").await.status, 200);
    assert_eq!(app.get("/readyz").await.status, 200);
    app.pulp.set(Op::ListRepos, Fault::Reset);
    let reply = app.get("/readyz").await;
    assert_eq!(reply.status, 503);
    assert!(reply.body.contains("unreachable"), "{}", reply.body);
    assert_eq!(
        app.get("/healthz").await.status,
        200,
        "the process is alive"
    );
}

#[tokio::test]
async fn pages_say_pulp_is_unreachable_with_the_status_of_the_outage() {
    let app = spawn_app().await;
    for op in [Op::ListRepos, Op::GetRepo] {
        app.pulp.set(op, Fault::Reset);
    }
    let dashboard = app.get("/").await;
    assert_eq!(
        dashboard.status, 503,
        "the page, with the status of its main read"
    );
    assert!(
        dashboard.body.contains("Pulp is unreachable"),
        "{}",
        dashboard.body
    );
    let versions = app
        .get(&format!("/repos/{}/versions", app.fixture.base_os))
        .await;
    assert_eq!(versions.status, 503);
    assert!(versions.body.contains("Pulp is unreachable"));
}

#[tokio::test]
async fn malformed_queries_and_bodies_get_a_readable_page() {
    let app = spawn_app().await;
    let page = app.get("/?page=abc").await;
    assert_eq!(page.status, 400);
    assert!(
        page.body.contains("page number") && page.body.contains("<html"),
        "{}",
        page.body
    );
    let path = format!("/repos/{}/deploy", app.fixture.base_os);
    let json = app
        .request(
            "POST",
            &path,
            &[("content-type", "application/json")],
            "{\"version\": 4}",
        )
        .await;
    assert_eq!(json.status, 415, "unsupported media type");
    assert!(
        json.body.contains("Content-Type") && json.body.contains("<html"),
        "{}",
        json.body
    );
    let query = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=1&version=2",
            app.fixture.base_os
        ))
        .await;
    assert_eq!(query.status, 400, "{}", query.body);
    assert!(app.mutations().is_empty());
}

#[tokio::test]
async fn a_page_whose_main_read_succeeded_answers_200_with_a_notice_for_what_failed() {
    let app = spawn_app().await;
    // The dashboard lists repositories; their sync states are a secondary read.
    app.pulp.set(Op::SyncStates, Fault::Reset);
    let dashboard = app.get("/").await;
    assert_eq!(dashboard.status, 200, "{}", dashboard.body);
    assert!(
        !select(&dashboard.html(), "tr[data-repo]").is_empty(),
        "the rows"
    );
    assert!(
        dashboard.body.contains("Pulp is unreachable"),
        "a notice says what could not be read: {}",
        dashboard.body
    );
    // The versions page reads the repository and its versions; production is secondary.
    app.pulp.clear(Op::SyncStates);
    for op in [Op::ListDistributions, Op::GetDistribution] {
        app.pulp.set(op, Fault::Reset);
    }
    let versions = app
        .get(&format!("/repos/{}/versions", app.fixture.base_os))
        .await;
    assert_eq!(versions.status, 200, "{}", versions.body);
    assert!(
        !select(&versions.html(), "tr[data-version]").is_empty(),
        "the versions"
    );
    assert!(
        versions.body.contains("Pulp is unreachable"),
        "a notice says production could not be read: {}",
        versions.body
    );
}

/// Issue 33, attack 8: when Pulp fails, a caller the console cannot identify reads that Pulp
/// is unreachable, not its error's details (which name internal hosts and paths), and the
/// API keeps its error code. Issue 43, item 7: nor does an identified operator, who reads
/// the console's words and the correlation id the log keeps the details under.
#[tokio::test]
async fn an_unidentified_caller_reads_no_detail_of_an_upstream_failure() {
    use std::sync::Arc;
    let proxy: Arc<dyn repo_console::ports::OperatorIdentity> = Arc::new(
        repo_console::adapters::identity::proxy_header::TrustedProxyHeader::new(
            "X-Remote-User",
            vec!["127.0.0.1/32".parse().unwrap()],
        ),
    );
    let app = fixture_app().identity(proxy).spawn().await;
    for op in [Op::ListRepos, Op::GetRepo] {
        app.pulp.set(op, Fault::Reset);
    }
    let detail = "injected on";
    let anonymous = app.client.send("GET", "/", &[], "").await;
    assert_eq!(anonymous.status, 503);
    assert!(
        anonymous.body.contains("Pulp is unreachable"),
        "{}",
        anonymous.body
    );
    assert!(!anonymous.body.contains(detail), "{}", anonymous.body);
    let fragment = app
        .client
        .send("GET", "/", &[("hx-request", "true")], "")
        .await;
    assert!(!fragment.body.contains(detail), "{}", fragment.body);
    let api = app
        .client
        .send("GET", "/api/v1/repositories", &[], "")
        .await;
    assert_eq!(api.status, 503);
    let json: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    assert_eq!(json["error"]["code"], "unavailable", "{json}");
    assert!(!api.body.contains(detail), "{}", api.body);

    let alice = app
        .client
        .send("GET", "/", &[("x-remote-user", "alice")], "")
        .await;
    assert_eq!(alice.status, 503);
    assert!(!alice.body.contains(detail), "{}", alice.body);
    let id = alice.header("x-correlation-id");
    assert!(
        alice.body.contains(&format!("correlation id {id}")),
        "the operator reads where the details are: {}",
        alice.body
    );
    for reply in [&anonymous, &fragment, &api] {
        let id = reply.header("x-correlation-id");
        assert!(reply.body.contains(id), "{}", reply.body);
    }
}

/// Issue 43, item 7: a failing secondary read of Pulp (the dashboard's synchronization
/// states, the exposure's distributions): Pulp's words (here the fault's; in a real Pulp its
/// address and its database's host) never reach the page or the API answer, anonymous or
/// not; the answer names the request's correlation id (also its `X-Correlation-Id`), under
/// which the log keeps the details (`json_logs.rs` reads that line from the real binary).
#[tokio::test]
async fn a_failing_secondary_read_shows_the_correlation_id_never_pulps_words() {
    use std::sync::Arc;
    let proxy: Arc<dyn repo_console::ports::OperatorIdentity> = Arc::new(
        repo_console::adapters::identity::proxy_header::TrustedProxyHeader::new(
            "X-Remote-User",
            vec!["127.0.0.1/32".parse().unwrap()],
        ),
    );
    let app = fixture_app().identity(proxy).spawn().await;
    app.pulp.set(Op::SyncStates, Fault::Http(500));
    let pulps_words = "injected fault on SyncStates";
    for (who, headers) in [
        ("anonymous", vec![]),
        ("alice", vec![("x-remote-user", "alice")]),
    ] {
        let page = app.client.send("GET", "/", &headers, "").await;
        assert_eq!(page.status, 200, "{who}: a secondary read: {}", page.body);
        let id = page.header("x-correlation-id");
        assert_eq!(id.len(), 36, "{who}: a UUID: {id:?}");
        assert!(
            page.body.contains("Could not read synchronization tasks"),
            "{who}: {}",
            page.body
        );
        assert!(
            page.body.contains(&format!("correlation id {id}")),
            "{who}: {}",
            page.body
        );
        assert!(!page.body.contains(pulps_words), "{who}: {}", page.body);
        assert!(!page.body.contains("HTTP 500:"), "{who}: {}", page.body);
    }

    app.pulp.clear(Op::SyncStates);
    app.pulp.set(Op::ListDistributions, Fault::Http(500));
    let api = app
        .client
        .send("GET", "/api/v1/exposure?package=hello", &[], "")
        .await;
    assert_eq!(api.status, 200, "{}", api.body);
    let id = api.header("x-correlation-id");
    assert!(!api.body.contains("injected"), "{}", api.body);
    assert!(
        api.body.contains(&format!("correlation id {id}")),
        "{}",
        api.body
    );
}
