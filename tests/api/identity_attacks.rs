//! The ways around the policy of issue 33 (items 1 to 4), each over HTTP against the
//! in-memory upstream, on a console that trusts 127.0.0.1's X-Remote-User and X-Remote-Groups:
//! groups from a second header, a name that is not plain ASCII (and mallory + zoë), four-eyes
//! by letter case, and tokens that were neither scoped nor owned. Each failed on the main of
//! before (the groups merged, zoë dropped, ALICE approved alice's request, alice-bot approved
//! it too, a read-only token deployed).

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::json;

use repo_console::adapters::identity::bearer::{ApiToken, BearerTokens};
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::FixedClock;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::PersonName;
use repo_console::domain::policy::{Allowed, Approvals, Policy, Subject};
use repo_console::ports::OperatorIdentity;

use crate::helpers::*;
use crate::policy::Guarded;

const NOW: &str = "2026-11-26T10:00:00Z";
const ALICE_BOT: &str = "alice-bot-7c1e";
const DASHBOARD: &str = "readonly-dashboard-51aa";
const OLD_BOT: &str = "expired-bot-0d2f";

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().into()
}

fn subjects(texts: &[&str]) -> Vec<Subject> {
    texts.iter().map(|t| Subject::parse(t).unwrap()).collect()
}

/// Production's deployers and approvers are group:release, `needed` approvals; the syncers
/// group:ops.
pub(crate) fn release_policy(needed: u32) -> Policy {
    let production = EnvironmentName::production();
    let approvals = Approvals::new(
        NonZeroU32::new(needed).unwrap(),
        subjects(&["group:release"]),
    )
    .unwrap();
    Policy::new(
        BTreeMap::from([(
            production.clone(),
            Allowed::Only(subjects(&["group:release"])),
        )]),
        Allowed::Only(subjects(&["group:ops"])),
    )
    .with_approvals(BTreeMap::from([(production, approvals)]))
}

fn token(name: &str, text: &str, scopes: &[&str]) -> ApiToken {
    crate::tokens::token(name, text, &["release"], scopes)
}

/// alice-bot (alice's, group release, may approve production), readonly-dashboard (read
/// only) and an expired bot.
fn tokens() -> Vec<ApiToken> {
    let alice = PersonName::new("alice").unwrap();
    vec![
        token("alice-bot", ALICE_BOT, &["read", "approve:production"]).owned_by(alice),
        token("readonly-dashboard", DASHBOARD, &["read"]),
        token("expired-bot", OLD_BOT, &["deploy:*"]).expiring(at("2026-11-01T00:00:00Z")),
    ]
}

/// The fixture's console (production serves v2 of base-os) under `policy`, with the tokens.
pub(crate) async fn spawn(policy: Policy) -> Guarded {
    let proxy: Arc<dyn OperatorIdentity> = Arc::new(
        TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
            .with_groups("X-Remote-Groups"),
    );
    let clock = Arc::new(FixedClock(at(NOW)));
    let callers = BearerTokens::new(tokens(), Some(proxy.clone()), clock.clone());
    fixture_app()
        .identity(proxy)
        .tokens(callers)
        .policy(policy)
        .clock(clock)
        .requests()
        .spawn()
        .await
}

/// A page's POST with these headers, as htmx sends it.
pub(crate) async fn post(app: &Guarded, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut all = vec![
        ("content-type", "application/x-www-form-urlencoded"),
        ("hx-request", "true"),
    ];
    all.extend_from_slice(headers);
    app.client.send("POST", path, &all, body).await
}

pub(crate) async fn deploy_v4(app: &Guarded, headers: &[(&str, &str)]) -> Reply {
    let path = format!("/repos/{}/deploy", app.fixture.base_os);
    post(app, &path, headers, "version=4&confirm=base-os&live=2").await
}

pub(crate) fn serving(app: &Guarded) -> Option<u64> {
    app.memory.serving_version("base-os-prod").map(|n| n.get())
}

fn audited_operators(app: &Guarded) -> Vec<String> {
    app.audit_lines()
        .iter()
        .map(|line| line["operator"].to_string())
        .collect()
}

/// The id of the request a 202 answer made.
pub(crate) fn request_id(reply: &Reply) -> String {
    assert_eq!(reply.status, 202, "{}", reply.body);
    let html = reply.html();
    let made = select(&html, "[data-request-id]");
    attr(&made[0], "data-request-id").to_owned()
}

async fn api(app: &Guarded, path: &str, token: &str, body: &str) -> Reply {
    let bearer = format!("Bearer {token}");
    let headers = [
        ("content-type", "application/json"),
        ("authorization", bearer.as_str()),
    ];
    app.client.send("POST", path, &headers, body).await
}

#[tokio::test]
async fn groups_from_a_second_groups_header_are_refused_not_merged() {
    let app = spawn(release_policy(1)).await;
    let sync = format!("/repos/{}/sync", app.fixture.base_os);
    let alone = post(
        &app,
        &sync,
        &[("x-remote-user", "carol"), ("x-remote-groups", "dev")],
        "",
    )
    .await;
    assert_eq!(alone.status, 403, "{}", alone.body);
    let second = post(
        &app,
        &sync,
        &[
            ("x-remote-user", "carol"),
            ("x-remote-groups", "dev"),
            ("x-remote-groups", "ops"),
        ],
        "",
    )
    .await;
    assert_eq!(second.status, 401, "{}", second.body);
    assert!(
        second
            .body
            .contains("X-Remote-Groups header was sent more than once"),
        "{}",
        second.body
    );
    assert!(!second.body.contains("sent no"), "{}", second.body);
    assert!(
        !app.memory.calls().iter().any(|c| c.starts_with("sync ")),
        "no sync ran"
    );
}

#[tokio::test]
async fn a_name_that_is_not_ascii_deploys_as_itself_and_a_second_name_is_refused() {
    let app = spawn(Policy::default()).await;
    let both = deploy_v4(
        &app,
        &[("x-remote-user", "mallory"), ("x-remote-user", "zoë")],
    )
    .await;
    assert_eq!(both.status, 401, "{}", both.body);
    assert!(
        both.body
            .contains("X-Remote-User header was sent more than once"),
        "{}",
        both.body
    );
    assert_eq!(serving(&app), Some(2), "mallory deployed nothing");
    assert!(audited_operators(&app).is_empty());

    let zoe = deploy_v4(&app, &[("x-remote-user", "zoë")]).await;
    assert_eq!(zoe.status, 200, "{}", zoe.body);
    assert_eq!(serving(&app), Some(4));
    assert_eq!(audited_operators(&app), ["\"zoë\"", "\"zoë\""]);
}

/// One raw HTTP/1.1 request whose X-Remote-User is the bytes `name`, as a client that does
/// not encode its header in UTF-8 sends it; the answer's status line and body.
async fn raw_deploy(app: &Guarded, name: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = app.client.address.trim_start_matches("http://").to_owned();
    let path = format!("/repos/{}/deploy", app.fixture.base_os);
    let body = "version=4&confirm=base-os&live=2";
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nhost: {address}\r\nhx-request: true\r\n\
         content-type: application/x-www-form-urlencoded\r\ncontent-length: {}\r\n\
         connection: close\r\nx-remote-user: ",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(name);
    request.extend_from_slice(format!("\r\n\r\n{body}").as_bytes());
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(&request).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn a_name_that_is_not_utf8_is_refused_saying_so() {
    let app = spawn(Policy::default()).await;
    let latin1 = raw_deploy(&app, b"zo\xeb").await;
    assert!(latin1.starts_with("HTTP/1.1 401"), "{latin1}");
    assert!(
        latin1.contains("X-Remote-User header is not valid UTF-8"),
        "{latin1}"
    );
    assert_eq!(serving(&app), Some(2));
}

#[tokio::test]
async fn four_eyes_compares_people_not_letter_case() {
    let app = spawn(release_policy(2)).await;
    let release = |user: &'static str| [("x-remote-user", user), ("x-remote-groups", "release")];
    let id = request_id(&deploy_v4(&app, &release("alice")).await);
    let approve = format!("/requests/{id}/approve");
    let shouted = post(&app, &approve, &release("ALICE"), "confirm=base-os").await;
    assert_eq!(shouted.status, 403, "{}", shouted.body);
    assert!(
        shouted.body.contains("You asked for this deploy"),
        "{}",
        shouted.body
    );
    let bob = post(&app, &approve, &release("bob"), "confirm=base-os").await;
    assert_eq!(bob.status, 200, "{}", bob.body);
    let bob_again = post(&app, &approve, &release("BOB"), "confirm=base-os").await;
    assert_eq!(bob_again.status, 409, "{}", bob_again.body);
    assert!(
        bob_again.body.contains("already approved"),
        "{}",
        bob_again.body
    );
    assert_eq!(
        serving(&app),
        Some(2),
        "one person counted once: not deployed"
    );
}

#[tokio::test]
async fn a_token_owned_by_the_requester_cannot_approve_her_request() {
    let app = spawn(release_policy(1)).await;
    let release = [("x-remote-user", "alice"), ("x-remote-groups", "release")];
    let id = request_id(&deploy_v4(&app, &release).await);
    let approve = format!("/api/v1/requests/{id}/approve");
    let own_bot = api(&app, &approve, ALICE_BOT, "").await;
    assert_eq!(own_bot.status, 403, "{}", own_bot.body);
    assert!(
        own_bot
            .body
            .contains("The API token 'alice-bot' belongs to alice, who asked for this deploy"),
        "{}",
        own_bot.body
    );
    assert_eq!(serving(&app), Some(2));
}

#[tokio::test]
async fn a_read_only_token_cannot_deploy_even_where_no_policy_limits_anyone() {
    let app = spawn(Policy::default()).await;
    let deployments = format!("/api/v1/repositories/{}/deployments", app.fixture.base_os);
    let body = json!({"version": 4, "expected_current": 2}).to_string();
    let refused = api(&app, &deployments, DASHBOARD, &body).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("the API token 'readonly-dashboard' lacks the scope 'deploy:production'"),
        "{}",
        refused.body
    );
    let sync = format!("/api/v1/repositories/{}/sync", app.fixture.base_os);
    let refused = api(&app, &sync, DASHBOARD, "").await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(refused.body.contains("'sync'"), "{}", refused.body);
    assert_eq!(serving(&app), Some(2));
    assert!(audited_operators(&app).is_empty());
}

#[tokio::test]
async fn an_expired_token_is_refused_with_401_naming_it() {
    let app = spawn(Policy::default()).await;
    let deployments = format!("/api/v1/repositories/{}/deployments", app.fixture.base_os);
    let body = json!({"version": 4, "expected_current": 2}).to_string();
    let refused = api(&app, &deployments, OLD_BOT, &body).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("the API token 'expired-bot' expired at"),
        "{}",
        refused.body
    );
    assert_eq!(serving(&app), Some(2));
}
