//! The limit on writes per caller (issue 34): beyond `api.writes_per_minute`, 429 with
//! Retry-After and nothing recorded, on the pages and the API alike; reads never limited;
//! callers counted apart; the window read on the console's clock.

use std::num::NonZeroU32;
use std::sync::Arc;

use repo_console::adapters::identity::bearer::{ApiToken, BearerTokens};
use repo_console::adapters::memory::{ManualClock, SyncScript};

use crate::helpers::*;
use crate::policy::Guarded;

const CI: &str = "ci-token-0123456789";
const OTHER: &str = "other-token-9876543210";

fn token(name: &str, text: &str) -> ApiToken {
    crate::tokens::token(name, text, &[], &["read", "sync"])
}

/// The fixture's console allowing two writes a minute per caller, on a clock the test moves.
async fn limited() -> (Guarded, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(pinned_time()));
    let callers = BearerTokens::new(
        vec![token("ci", CI), token("other", OTHER)],
        None,
        clock.clone(),
    );
    let app = fixture_app()
        .clock(clock.clone())
        .tokens(callers)
        .configure(|state| state.write_limit(NonZeroU32::new(2).unwrap()))
        .spawn()
        .await;
    let script = SyncScript::Succeeds {
        duration: std::time::Duration::from_millis(1),
        add: vec![],
        remove: vec![],
    };
    app.memory.add_remote(&app.fixture.base_os, script);
    (app, clock)
}

fn syncs(app: &Guarded) -> usize {
    app.memory
        .calls()
        .iter()
        .filter(|call| call.starts_with("sync "))
        .count()
}

async fn page_sync(app: &Guarded) -> Reply {
    let path = format!("/repos/{}/sync", app.fixture.base_os);
    app.client
        .send("POST", &path, &[("hx-request", "true")], "")
        .await
}

async fn api_sync(app: &Guarded, token: &str) -> Reply {
    let path = format!("/api/v1/repositories/{}/sync", app.fixture.base_os);
    let bearer = format!("Bearer {token}");
    app.client
        .send("POST", &path, &[("authorization", bearer.as_str())], "")
        .await
}

#[tokio::test]
async fn a_page_write_beyond_the_limit_is_refused_with_retry_after_and_records_nothing() {
    let (app, clock) = limited().await;
    // Within the limit: handled (a second sync while the first runs is a 409, not a 429).
    for _ in 0..2 {
        let reply = page_sync(&app).await;
        assert_ne!(reply.status, 429, "{}", reply.body);
    }
    let before = syncs(&app);
    clock.advance(chrono::Duration::seconds(20));
    let refused = page_sync(&app).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert_eq!(refused.header("retry-after"), "40");
    assert!(
        refused.body.contains("Too many changes") && refused.body.contains("Nothing was changed"),
        "{}",
        refused.body
    );
    assert_eq!(syncs(&app), before, "the refused write reached upstream");

    // Reads are never limited.
    for _ in 0..10 {
        assert_eq!(app.client.send("GET", "/", &[], "").await.status, 200);
    }
    clock.advance(chrono::Duration::seconds(40));
    assert_ne!(page_sync(&app).await.status, 429, "the window moved on");
}

#[tokio::test]
async fn an_api_write_beyond_the_limit_is_a_json_429_and_each_token_counts_apart() {
    let (app, _clock) = limited().await;
    for _ in 0..2 {
        let reply = api_sync(&app, CI).await;
        assert_ne!(reply.status, 429, "{}", reply.body);
    }
    let before = syncs(&app);
    let refused = api_sync(&app, CI).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert_eq!(refused.header("retry-after"), "60");
    let body: serde_json::Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(body["error"]["code"], "too_many_writes", "{body}");
    assert_eq!(syncs(&app), before, "the refused write reached upstream");

    let other = api_sync(&app, OTHER).await;
    assert!(
        other.status < 300,
        "another caller is not held back: {}",
        other.status
    );
    let read = app
        .client
        .send(
            "GET",
            "/api/v1/repositories",
            &[("authorization", &format!("Bearer {CI}"))],
            "",
        )
        .await;
    assert_eq!(read.status, 200, "reads are not limited");
}

#[tokio::test]
async fn an_unidentified_write_is_not_counted_against_anyone() {
    let (app, _clock) = limited().await;
    for _ in 0..3 {
        let reply = api_sync(&app, "not-a-token").await;
        assert_eq!(reply.status, 401, "{}", reply.body);
    }
    assert_ne!(api_sync(&app, CI).await.status, 429);
}
