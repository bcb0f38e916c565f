//! Token scopes and the four-eyes owner rule (issue 33) against the real Pulp, on
//! `rc-policy` (production at v1 first and last; `exclusive("rc-policy")`): production's
//! deploys need one approval by group:release; a read-only token's deploy is refused (403,
//! naming the scope) and Pulp is unchanged; alice asks (through the trusted proxy), her own
//! bot token (owner alice, group release, `approve:production`) may not approve (403, saying
//! why), and Pulp is still unchanged; bob approves and Pulp serves v3, the audit naming the
//! request's requester and approver.

use std::collections::HashMap;
use std::sync::Arc;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::files::requests::JsonlRequestStore;
use repo_console::adapters::identity::bearer::{ApiToken, BearerTokens};
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::domain::identity::PersonName;
use repo_console::ports::OperatorIdentity;
use serde_json::json;

use super::console::{over_upstream, Console};
use super::policy::{four_eyes, request_id};
use super::seeded::SeededProduction;
use super::support::{exclusive, required_pulp};
use super::web::Reply;

const REPO: &str = "rc-policy";
const DASHBOARD: &str = "readonly-dashboard-real-pulp-3b9d";
const ALICE_BOT: &str = "alice-bot-real-pulp-e41c";

fn token(name: &str, text: &str, scopes: &[&str]) -> ApiToken {
    super::tokens::token(name, text, &["release"], scopes)
}

async fn as_token(console: &Console, path: &str, token: &str, body: &str) -> Reply {
    let bearer = format!("Bearer {token}");
    let headers = [
        ("content-type", "application/json"),
        ("authorization", bearer.as_str()),
    ];
    console.client.send("POST", path, &headers, body).await
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_token_acts_within_its_scopes_and_never_approves_its_owners_request() {
    let pulp = required_pulp();
    let _guard = exclusive(REPO).await;
    let production = SeededProduction::at_v1(pulp, REPO);
    let proxy: Arc<dyn OperatorIdentity> = Arc::new(
        TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
            .with_groups("X-Remote-Groups"),
    );
    let alice = PersonName::new("alice").expect("a name");
    let tokens = vec![
        token("readonly-dashboard", DASHBOARD, &["read"]),
        token("alice-bot", ALICE_BOT, &["read", "approve:production"]).owned_by(alice),
    ];
    let callers = BearerTokens::new(tokens, Some(proxy.clone()), Arc::new(SystemClock));
    let requests_dir = tempfile::tempdir().expect("a temporary directory");
    let store = JsonlRequestStore::new(requests_dir.path().join("requests.jsonl"));
    let names = HashMap::from([(REPO.to_owned(), format!("{REPO}-prod"))]);
    let console = over_upstream(Arc::new(production.pulp.client()), 25)
        .configure(move |state| {
            state
                .production(names)
                .identity(proxy)
                .api_callers(Arc::new(callers))
                .policy(four_eyes())
                .requests(Arc::new(store), chrono::Duration::hours(24))
        })
        .spawn()
        .await;
    let before = production.state();
    assert_eq!(before.version, 1);

    let deployments = format!("/api/v1/repositories/{}/deployments", production.id);
    let body = json!({"version": 3, "environment": "production", "expected_current": 1});
    let read_only = as_token(&console, &deployments, DASHBOARD, &body.to_string()).await;
    assert_eq!(read_only.status, 403, "{}", read_only.body);
    assert!(
        read_only
            .body
            .contains("lacks the scope 'deploy:production'"),
        "{}",
        read_only.body
    );
    assert_eq!(production.state(), before, "Pulp unchanged");

    let form = format!("version=3&env=production&confirm={REPO}&live=1");
    let deploy = format!("/repos/{}/deploy", production.id);
    let id = request_id(
        &console
            .send_as("POST", &deploy, "alice", "release", &form)
            .await,
    );
    let approve_api = format!("/api/v1/requests/{id}/approve");
    let own_bot = as_token(&console, &approve_api, ALICE_BOT, "").await;
    assert_eq!(own_bot.status, 403, "{}", own_bot.body);
    assert!(
        own_bot
            .body
            .contains("belongs to alice, who asked for this deploy"),
        "{}",
        own_bot.body
    );
    assert_eq!(production.state(), before, "Pulp unchanged");
    assert!(console.audit_lines().is_empty(), "nothing audited");

    let approve_page = format!("/requests/{id}/approve");
    let bob = console
        .send_as(
            "POST",
            &approve_page,
            "bob",
            "release",
            &format!("confirm={REPO}"),
        )
        .await;
    assert_eq!(bob.status, 200, "{}", bob.body);
    assert_eq!(production.state().version, 3, "Pulp serves v3");
    let lines = console.audit_lines();
    let outcome = lines.last().expect("the deploy's outcome line");
    assert_eq!(outcome["outcome"], "deployed", "{outcome}");
    assert_eq!(outcome["request"]["requester"], "alice", "{outcome}");
    assert_eq!(outcome["request"]["approvers"], json!(["bob"]), "{outcome}");
}
