//! Issue 43, items 3 and 6, over HTTP through the whole edge on a console that trusts
//! 127.0.0.1's X-Remote-User and X-Remote-Groups: one key per person (RFC 8265), so the
//! fullwidth `ＡＬＩＣＥ` is alice (she cannot approve her own request with it, and shares
//! her write limit), and the invisible spellings `alice` + zero-width space and `ali` + soft
//! hyphen + `ce` are refused at the door with 401 saying why, on pages and the API (nor can
//! any of them approve the release request of alice's bot, which is hers); and tokens
//! apart: a proxy user `CI` is nothing of the token `ci` (not its policy entry, not its
//! schedule).

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::Arc;

use chrono::Duration;
use serde_json::{json, Value};

use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{ManualClock, MemoryScheduleStore};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Allowed, Policy, Subject};
use repo_console::ports::OperatorIdentity;

use crate::helpers::*;
use crate::identity_attacks::{deploy_v4, post, release_policy, request_id, serving, spawn};
use crate::schedules::{schedule_id, spawn_with_tokens};
use crate::test_app::clock_at;

/// The spellings of alice that hold an invisible code point, and the code point each names.
const INVISIBLE: [(&str, &str); 2] = [
    ("alice\u{200B}", "U+200B (zero-width space)"),
    ("ali\u{00AD}ce", "U+00AD (soft hyphen)"),
];

fn release(user: &str) -> [(&str, &str); 2] {
    [("x-remote-user", user), ("x-remote-groups", "release")]
}

#[tokio::test]
async fn fullwidth_alice_is_alice_and_cannot_approve_her_own_request() {
    let app = spawn(release_policy(1)).await;
    let id = request_id(&deploy_v4(&app, &release("alice")).await);
    let approve = format!("/requests/{id}/approve");
    let wide = post(&app, &approve, &release("ＡＬＩＣＥ"), "confirm=base-os").await;
    assert_eq!(wide.status, 403, "{}", wide.body);
    assert!(
        wide.body.contains("You asked for this deploy"),
        "{}",
        wide.body
    );
    assert_eq!(serving(&app), Some(2), "nothing moved");
}

#[tokio::test]
async fn invisible_spellings_of_alice_are_refused_at_the_door_on_pages_and_the_api() {
    let app = spawn(release_policy(1)).await;
    let id = request_id(&deploy_v4(&app, &release("alice")).await);
    for (name, said) in INVISIBLE {
        let page = post(
            &app,
            &format!("/requests/{id}/approve"),
            &release(name),
            "confirm=base-os",
        )
        .await;
        assert_eq!(page.status, 401, "{name:?}: {}", page.body);
        assert!(page.body.contains(said), "{name:?}: {}", page.body);
        let headers = [
            ("content-type", "application/json"),
            ("x-remote-user", name),
            ("x-remote-groups", "release"),
        ];
        let path = format!("/api/v1/requests/{id}/approve");
        let through_api = app.client.send("POST", &path, &headers, "").await;
        assert_eq!(through_api.status, 401, "{name:?}: {}", through_api.body);
        assert!(through_api.body.contains(said), "{}", through_api.body);
        let deploy = deploy_v4(&app, &release(name)).await;
        assert_eq!(deploy.status, 401, "{name:?}: {}", deploy.body);
    }
    assert_eq!(serving(&app), Some(2), "nothing moved");
    let listed = app.get("/api/v1/requests").await;
    let listed: Value = serde_json::from_str(&listed.body).unwrap();
    assert_eq!(listed["items"][0]["state"], "pending", "{listed}");
}

#[tokio::test]
async fn fullwidth_alice_shares_alices_write_limit() {
    let proxy: Arc<dyn OperatorIdentity> = Arc::new(
        TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
            .with_groups("X-Remote-Groups"),
    );
    let callers = BearerTokens::new(Vec::new(), Some(proxy.clone()), clock_at(NOW_PINNED));
    let app = fixture_app()
        .identity(proxy)
        .tokens(callers)
        .at(NOW_PINNED)
        .configure(|state| state.write_limit(NonZeroU32::new(1).unwrap()))
        .spawn()
        .await;
    let sync = format!("/api/v1/repositories/{}/sync", app.fixture.base_os);
    let as_user = |user: &'static str| {
        [
            ("content-type", "application/json"),
            ("x-remote-user", user),
        ]
    };
    let first = app.client.send("POST", &sync, &as_user("alice"), "").await;
    assert_ne!(first.status, 429, "{}", first.body);
    let wide = app
        .client
        .send("POST", &sync, &as_user("ＡＬＩＣＥ"), "")
        .await;
    assert_eq!(wide.status, 429, "one person, one limit: {}", wide.body);
    let bob = app.client.send("POST", &sync, &as_user("bob"), "").await;
    assert_ne!(bob.status, 429, "{}", bob.body);
}

const NOW_PINNED: &str = "2026-11-22T10:00:00Z";

/// Production's deployers: the token ci alone.
fn ci_only() -> Policy {
    Policy::new(
        BTreeMap::from([(
            EnvironmentName::production(),
            Allowed::Only(vec![Subject::parse("token:ci").unwrap()]),
        )]),
        Allowed::Everyone,
    )
}

const CI: &str = "ci-token-0123456789";

#[tokio::test]
async fn a_proxy_user_named_like_a_token_gets_nothing_of_it() {
    let clock = Arc::new(ManualClock::new(pinned_time()));
    let proxy: Arc<dyn OperatorIdentity> = Arc::new(TrustedProxyHeader::new(
        "X-Remote-User",
        vec!["127.0.0.1/32".parse().unwrap()],
    ));
    let ci = crate::tokens::token("ci", CI, &[], &["read", "deploy:production"]);
    let tokens = BearerTokens::new(vec![ci], Some(proxy), clock.clone());
    let s = spawn_with_tokens(
        ci_only(),
        Arc::new(MemoryScheduleStore::default()),
        tokens,
        clock,
    )
    .await;
    let made = s.schedule(CI, "2026-11-22T11:00:00Z").await;
    assert_eq!(made.status, 202, "token:ci may: {}", made.body);
    let id = schedule_id(&made);

    let as_ci_person = [
        ("content-type", "application/json"),
        ("x-remote-user", "CI"),
    ];
    let cancel = format!("/api/v1/schedules/{id}/cancel");
    let cancelled = s.app.client.send("POST", &cancel, &as_ci_person, "").await;
    assert_eq!(cancelled.status, 403, "{}", cancelled.body);
    let deployments = format!("/api/v1/repositories/{}/deployments", s.app.fixture.base_os);
    let body = json!({"version": 4, "expected_current": 2}).to_string();
    let deployed = s
        .app
        .client
        .send("POST", &deployments, &as_ci_person, &body)
        .await;
    assert_eq!(deployed.status, 403, "{}", deployed.body);
    assert!(deployed.body.contains("token:ci"), "{}", deployed.body);
    assert_eq!(s.schedules().await[0]["state"], "waiting");

    s.clock.advance(Duration::hours(1));
    assert_eq!(s.run().await.ran, 1);
    assert_eq!(
        s.serving(),
        Some(4),
        "the token's own schedule ran as the token"
    );
    let listed: Value = s.schedules().await[0].clone();
    assert_eq!(listed["state"], "done", "{listed}");
}

const ALICE_RELEASE_BOT: &str = "alice-release-bot-4f2a";

/// Alice's bot (owned by alice) asks to promote the release el9; one approval by group
/// release is needed. `ＡＬＩＣＥ` is alice (403: her own request), the invisible spellings
/// are refused at the door (401), and nothing moves until bob approves.
#[tokio::test]
async fn alices_bots_release_request_is_hers_in_every_spelling() {
    use crate::releases::{app as release_app, serving as members_serving, MEMBERS};
    use repo_console::domain::identity::PersonName;
    use repo_console::domain::policy::Approvals;
    let proxy: Arc<dyn OperatorIdentity> = Arc::new(
        TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
            .with_groups("X-Remote-Groups"),
    );
    let bot = crate::tokens::token("alice-bot", ALICE_RELEASE_BOT, &[], &["deploy:production"])
        .owned_by(PersonName::new("alice").unwrap());
    let callers = BearerTokens::new(vec![bot], Some(proxy.clone()), clock_at(NOW_PINNED));
    let approvals = Approvals::new(
        NonZeroU32::new(1).unwrap(),
        vec![Subject::parse("group:release").unwrap()],
    )
    .unwrap();
    let policy = Policy::default()
        .with_approvals(BTreeMap::from([(EnvironmentName::production(), approvals)]));
    let app = release_app(&MEMBERS)
        .identity(proxy)
        .tokens(callers)
        .at(NOW_PINNED)
        .requests()
        .configure(move |state| state.policy(policy))
        .spawn()
        .await;
    let body = json!({
        "environment": "production",
        "versions": {"baseos": 2, "appstream": 2, "epel": 2},
        "expected_current": {"baseos": 1, "appstream": 1, "epel": 1},
    });
    let bearer = format!("Bearer {ALICE_RELEASE_BOT}");
    let headers = [
        ("content-type", "application/json"),
        ("authorization", bearer.as_str()),
    ];
    let asked = app
        .client
        .send(
            "POST",
            "/api/v1/releases/el9/promotions",
            &headers,
            &body.to_string(),
        )
        .await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let asked: Value = serde_json::from_str(&asked.body).unwrap();
    let id = asked["request"]["id"]
        .as_str()
        .expect("a request")
        .to_owned();
    let approve = format!("/requests/{id}/approve");
    let form_of = |user: &'static str| {
        [
            ("content-type", "application/x-www-form-urlencoded"),
            ("hx-request", "true"),
            ("x-remote-user", user),
            ("x-remote-groups", "release"),
        ]
    };
    let wide = app
        .client
        .send("POST", &approve, &form_of("ＡＬＩＣＥ"), "confirm=el9")
        .await;
    assert_eq!(wide.status, 403, "{}", wide.body);
    assert!(
        wide.body.contains("You asked for this deploy"),
        "{}",
        wide.body
    );
    for (name, said) in INVISIBLE {
        let refused = app
            .client
            .send("POST", &approve, &form_of(name), "confirm=el9")
            .await;
        assert_eq!(refused.status, 401, "{name:?}: {}", refused.body);
        assert!(refused.body.contains(said), "{}", refused.body);
    }
    assert_eq!(
        members_serving(&app.memory),
        [Some(1), Some(1), Some(1)],
        "nothing moved"
    );
    let bob = app
        .client
        .send("POST", &approve, &form_of("bob"), "confirm=el9")
        .await;
    assert_eq!(bob.status, 200, "{}", bob.body);
    assert_eq!(members_serving(&app.memory), [Some(2), Some(2), Some(2)]);
}

/// A proxy user `CI` and the token `ci` are counted apart by the write limit: neither uses
/// up the other's writes.
#[tokio::test]
async fn a_proxy_user_named_like_a_token_has_a_write_limit_of_its_own() {
    let proxy: Arc<dyn OperatorIdentity> = Arc::new(TrustedProxyHeader::new(
        "X-Remote-User",
        vec!["127.0.0.1/32".parse().unwrap()],
    ));
    let ci = crate::tokens::token("ci", CI, &[], &["sync"]);
    let callers = BearerTokens::new(vec![ci], Some(proxy.clone()), clock_at(NOW_PINNED));
    let app = fixture_app()
        .identity(proxy)
        .tokens(callers)
        .at(NOW_PINNED)
        .configure(|state| state.write_limit(NonZeroU32::new(1).unwrap()))
        .spawn()
        .await;
    let sync = format!("/api/v1/repositories/{}/sync", app.fixture.base_os);
    let bearer = format!("Bearer {CI}");
    let as_token = [
        ("content-type", "application/json"),
        ("authorization", bearer.as_str()),
    ];
    let as_person = [
        ("content-type", "application/json"),
        ("x-remote-user", "CI"),
    ];
    let token = app.client.send("POST", &sync, &as_token, "").await;
    assert_ne!(token.status, 429, "{}", token.body);
    let person = app.client.send("POST", &sync, &as_person, "").await;
    assert_ne!(person.status, 429, "a count of its own: {}", person.body);
    let person_again = app.client.send("POST", &sync, &as_person, "").await;
    assert_eq!(person_again.status, 429, "{}", person_again.body);
    let token_again = app.client.send("POST", &sync, &as_token, "").await;
    assert_eq!(token_again.status, 429, "{}", token_again.body);
}
