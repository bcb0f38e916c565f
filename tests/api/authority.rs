//! Issue 43, item 4: authority at run time. A schedule, or a request whose approvals
//! complete, runs on behalf of its author only if the author could still ask it then: a
//! token author's token still configured and unexpired, a person still allowed by the
//! policy. Otherwise it ends refused (`authority_lapsed`), recorded and told, and nothing
//! moves: an expired token's schedule, a removed token's schedule across a restart, and an
//! approval completing a request whose token requester expired meanwhile (the request ends
//! `failed`, told by `request.failed`).

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use serde_json::json;

use repo_console::adapters::identity::bearer::{ApiToken, BearerTokens};
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{ManualClock, MemoryScheduleStore};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::event::EventData;
use repo_console::domain::policy::{Allowed, Approvals, Policy, Subject};
use repo_console::ports::{OperatorIdentity, ScheduleStore};

use crate::helpers::*;
use crate::schedules::{schedule_id, spawn_with_tokens, Scheduling};

const CI: &str = "ci-token-0123456789";
const AT: &str = "2026-11-22T11:00:00Z";

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().into()
}

fn subjects(texts: &[&str]) -> Vec<Subject> {
    texts.iter().map(|t| Subject::parse(t).unwrap()).collect()
}

/// Production's deployers: the token ci and group release.
fn policy() -> Policy {
    Policy::new(
        BTreeMap::from([(
            EnvironmentName::production(),
            Allowed::Only(subjects(&["token:ci", "group:release"])),
        )]),
        Allowed::Everyone,
    )
}

/// The token ci, which may deploy to production, expiring at `expires` if given.
fn ci(expires: Option<&str>) -> ApiToken {
    let token = crate::tokens::token("ci", CI, &[], &["read", "deploy:production"]);
    match expires {
        Some(text) => token.expiring(at(text)),
        None => token,
    }
}

/// The console with `tokens` (and the trusted proxy), its schedules in `store`.
async fn spawn(policy: Policy, store: Arc<dyn ScheduleStore>, tokens: Vec<ApiToken>) -> Scheduling {
    let clock = Arc::new(ManualClock::new(pinned_time()));
    let proxy: Arc<dyn OperatorIdentity> = Arc::new(
        TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
            .with_groups("X-Remote-Groups"),
    );
    let callers = BearerTokens::new(tokens, Some(proxy), clock.clone());
    spawn_with_tokens(policy, store, callers, clock).await
}

/// The schedule's one state, as its store holds it, and the refusal it was told with.
async fn refused(s: &Scheduling) -> String {
    let open = s.store.open().await.unwrap();
    assert!(open.is_empty(), "no schedule left open: {open:?}");
    let listed = &s.schedules().await[0];
    assert_eq!(listed["state"], "refused", "{listed}");
    let told: Vec<String> = s
        .outbox
        .events()
        .iter()
        .filter_map(|e| match &e.data {
            EventData::ScheduleRefused(data) => Some(data.message.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(told.len(), 1, "told once: {told:?}");
    told[0].clone()
}

#[tokio::test]
async fn an_expired_tokens_schedule_ends_refused_and_nothing_moves() {
    let store: Arc<dyn ScheduleStore> = Arc::new(MemoryScheduleStore::default());
    let s = spawn(policy(), store, vec![ci(Some("2026-11-22T10:30:00Z"))]).await;
    let made = s.schedule(CI, AT).await;
    assert_eq!(made.status, 202, "{}", made.body);

    s.clock.advance(Duration::hours(1));
    assert_eq!(s.run().await.ran, 1);
    let message = refused(&s).await;
    assert!(message.contains("authority lapsed"), "{message}");
    assert!(
        message.contains("the API token 'ci' that asked for it expired at 2026-11-22T10:30:00Z"),
        "{message}"
    );
    assert_eq!(s.serving(), Some(2), "nothing moved");
    assert_eq!(s.publications(), 0);
    assert!(s.app.audit_lines().is_empty(), "no deploy started");
}

#[tokio::test]
async fn a_removed_tokens_schedule_ends_refused_after_a_restart() {
    // The store outlives the console, as the shared PostgreSQL does. (The same over
    // `schedules.jsonl` needs its refused lines read back: issue 43, item 2.)
    let kept: Arc<dyn ScheduleStore> = Arc::new(MemoryScheduleStore::default());
    let file = || kept.clone();
    let before = spawn(policy(), file(), vec![ci(None)]).await;
    let path = format!(
        "/api/v1/repositories/{}/deployments",
        before.app.fixture.base_os
    );
    let body = json!({"version": 4, "expected_current": 2, "at": AT});
    let made = before.call("POST", &path, CI, &body).await;
    assert_eq!(made.status, 202, "{}", made.body);
    let id = schedule_id(&made);
    drop(before);

    // Restarted without the token (and a person named like it gets nothing of it).
    let after = spawn(policy(), file(), Vec::new()).await;
    after.clock.advance(Duration::hours(1));
    assert_eq!(after.run().await.ran, 1);
    let message = refused(&after).await;
    assert!(
        message.contains("the API token 'ci' that asked for it is no longer configured"),
        "{message}"
    );
    assert_eq!(after.serving(), Some(2), "nothing moved");
    let kept = file().open().await.unwrap();
    assert!(kept.is_empty(), "refused is kept: {kept:?}");
    let all = after.schedules().await;
    assert_eq!(all[0]["id"], id.as_str());
    let again = spawn(policy(), file(), Vec::new()).await;
    again.clock.advance(Duration::hours(2));
    assert_eq!(again.run().await.ran, 0, "a refused schedule never runs");
    assert_eq!(again.serving(), Some(2));
}

#[tokio::test]
async fn an_approval_completing_an_expired_tokens_request_is_refused_authority_lapsed() {
    let production = EnvironmentName::production();
    let approvals =
        Approvals::new(NonZeroU32::new(1).unwrap(), subjects(&["group:release"])).unwrap();
    let four_eyes = policy().with_approvals(BTreeMap::from([(production, approvals)]));
    let store: Arc<dyn ScheduleStore> = Arc::new(MemoryScheduleStore::default());
    let s = spawn(four_eyes, store, vec![ci(Some("2026-11-22T10:30:00Z"))]).await;
    let path = format!("/api/v1/repositories/{}/deployments", s.app.fixture.base_os);
    let asked = s
        .call(
            "POST",
            &path,
            CI,
            &json!({"version": 4, "expected_current": 2}),
        )
        .await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let body: serde_json::Value = serde_json::from_str(&asked.body).unwrap();
    let id = body["request"]["id"].as_str().unwrap().to_owned();

    s.clock.advance(Duration::hours(1));
    let headers = [
        ("content-type", "application/json"),
        ("x-remote-user", "bob"),
        ("x-remote-groups", "release"),
    ];
    let approve = format!("/api/v1/requests/{id}/approve");
    let body = json!({}).to_string();
    let refused = s.app.client.send("POST", &approve, &headers, &body).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused.body.contains("authority_lapsed"),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("expired"), "{}", refused.body);
    assert_eq!(s.serving(), Some(2), "nothing moved");
    assert!(s.app.audit_lines().is_empty(), "no deploy started");
    let listed = s.app.get("/api/v1/requests").await;
    let listed: serde_json::Value = serde_json::from_str(&listed.body).unwrap();
    assert_eq!(
        listed["items"][0]["state"], "failed",
        "ended, recorded: {listed}"
    );
    let failed: Vec<String> = s
        .outbox
        .events()
        .iter()
        .filter_map(|e| match &e.data {
            EventData::RequestFailed(data) => data.outcome.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(failed.len(), 1, "told once: {failed:?}");
    assert!(failed[0].contains("authority lapsed"), "{}", failed[0]);
}
