//! Four-eyes approval and the freeze override (issue 24), over HTTP against the in-memory
//! upstream: a deploy to production that needs an approval records a request (202) and
//! changes nothing; someone else approves it and the deploy runs through every check; the
//! requester may not approve; a request asked against a version production no longer serves
//! is stale; two approvals at once run one deploy; requests expire, are rejected or
//! cancelled; someone listed in `override` deploys through a freeze with a reason, audited.

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::Arc;

use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::ManualClock;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Approvals, FreezeWindow, Policy, Subject};
use repo_console::domain::repository::VersionNumber;

use crate::helpers::*;
use crate::policy::Guarded;

fn subjects(texts: &[&str]) -> Vec<Subject> {
    texts.iter().map(|t| Subject::parse(t).unwrap()).collect()
}

/// Production needs `needed` approvals by group:release; group:sre may override its
/// year-end freeze.
fn policy(needed: u32) -> Policy {
    let approvals = Approvals::new(
        NonZeroU32::new(needed).unwrap(),
        subjects(&["group:release"]),
    )
    .unwrap();
    let production = EnvironmentName::production();
    let window = FreezeWindow::interval("2026-12-20T00:00:00Z/2027-01-04T00:00:00Z").unwrap();
    Policy::default()
        .with_approvals(BTreeMap::from([(production.clone(), approvals)]))
        .with_freezes(BTreeMap::from([(production.clone(), vec![window])]))
        .with_overriders(BTreeMap::from([(production, subjects(&["group:sre"]))]))
}

struct Approving {
    app: Guarded,
    clock: Arc<ManualClock>,
}

/// The fixture's console (production serves v2 of base-os) with `policy`, at `now`.
async fn spawn(policy: Policy, now: &str) -> Approving {
    let clock = Arc::new(ManualClock::new(
        chrono::DateTime::parse_from_rfc3339(now).unwrap().into(),
    ));
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
        .with_groups("X-Remote-Groups");
    let app = fixture_app()
        .identity(Arc::new(identity))
        .policy(policy)
        .clock(clock.clone())
        .requests()
        .spawn()
        .await;
    Approving { app, clock }
}

const BEFORE_FREEZE: &str = "2026-11-25T10:00:00Z";

impl Approving {
    async fn request_v4(&self, user: &str) -> Reply {
        let path = format!("/repos/{}/deploy", self.app.fixture.base_os);
        let body = "version=4&confirm=base-os&live=2&reason=CVE-2026-1234";
        self.app.send_as("POST", &path, user, "dev", body).await
    }

    async fn approve(&self, id: &str, user: &str, confirm: &str) -> Reply {
        let path = format!("/requests/{id}/approve");
        let body = format!("confirm={}", enc(confirm));
        self.app
            .send_as("POST", &path, user, "release", &body)
            .await
    }

    async fn state_of(&self, id: &str) -> String {
        let page = self.app.send_as("GET", "/requests", "viewer", "", "").await;
        assert_eq!(page.status, 200, "{}", page.body);
        let html = page.html();
        let rows = select(&html, &format!("tr[data-request-id='{id}']"));
        assert_eq!(rows.len(), 1, "{}", page.body);
        attr(&rows[0], "data-request-state").to_owned()
    }

    fn serving(&self) -> Option<u64> {
        self.app
            .memory
            .serving_version("base-os-prod")
            .map(|n| n.get())
    }

    fn audit_lines(&self) -> Vec<serde_json::Value> {
        self.app.audit_lines()
    }
}

/// The request id of a 202 answer.
fn request_id(reply: &Reply) -> String {
    assert_eq!(reply.status, 202, "{}", reply.body);
    let html = reply.html();
    let made = select(&html, "[data-request-id]");
    assert_eq!(attr(&made[0], "data-request-state"), "pending");
    attr(&made[0], "data-request-id").to_owned()
}

#[tokio::test]
async fn a_deploy_needing_approval_is_a_request_that_someone_else_approves_then_it_runs() {
    let a = spawn(policy(1), BEFORE_FREEZE).await;
    let confirm = format!("/repos/{}/deploy/confirm?version=4", a.app.fixture.base_os);
    let modal = a.app.send_as("GET", &confirm, "alice", "dev", "").await;
    assert_eq!(modal.status, 200, "{}", modal.body);
    let html = modal.html();
    assert_eq!(
        attr(&select(&html, "#deploy-modal")[0], "data-approvals"),
        "1"
    );
    assert!(text(&select(&html, "[data-modal-confirm]")[0]).contains("Request approval"));

    let asked = a.request_v4("alice").await;
    let id = request_id(&asked);
    for fact in [
        "base-os",
        "production",
        "v2",
        "v4",
        "alice",
        "CVE-2026-1234",
    ] {
        assert!(asked.body.contains(fact), "{fact}: {}", asked.body);
    }
    assert_eq!(a.app.writes(), 0, "a request changes nothing upstream");
    assert_eq!(a.serving(), Some(2));
    assert!(
        a.audit_lines().is_empty(),
        "nothing deployed, nothing audited"
    );
    assert_eq!(a.state_of(&id).await, "pending");

    let page = a
        .app
        .send_as("GET", &format!("/requests/{id}"), "bob", "release", "")
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let html = page.html();
    assert!(
        !select(&html, "[data-change]").is_empty(),
        "the diff, as the confirm step"
    );
    assert!(!select(&html, "form.approve-form input[name=confirm]").is_empty());
    let versions = a
        .app
        .send_as(
            "GET",
            &format!("/repos/{}/versions", a.app.fixture.base_os),
            "bob",
            "release",
            "",
        )
        .await;
    assert_eq!(
        select(
            &versions.html(),
            &format!("#requests tr[data-request-id='{id}']")
        )
        .len(),
        1,
        "listed on the versions page"
    );

    let own = a.approve(&id, "alice", "base-os").await;
    assert_eq!(own.status, 403, "self-approval: {}", own.body);
    assert!(
        own.body.contains("someone else must approve"),
        "{}",
        own.body
    );
    let outsider = a
        .app
        .send_as(
            "POST",
            &format!("/requests/{id}/approve"),
            "carol",
            "dev",
            "confirm=base-os",
        )
        .await;
    assert_eq!(outsider.status, 403, "not an approver: {}", outsider.body);
    assert!(
        outsider.body.contains("only group:release may approve"),
        "{}",
        outsider.body
    );
    let mistyped = a.approve(&id, "bob", "base-OS").await;
    assert_eq!(mistyped.status, 422, "{}", mistyped.body);
    assert_eq!(a.app.writes(), 0);
    assert_eq!(a.state_of(&id).await, "pending");

    let approved = a.approve(&id, "bob", "base-os").await;
    assert_eq!(approved.status, 200, "{}", approved.body);
    assert_eq!(a.serving(), Some(4), "the approval ran the deploy");
    assert_eq!(a.state_of(&id).await, "executed");
    let lines = a.audit_lines();
    assert_eq!(lines.len(), 2, "started, then the outcome");
    let outcome = &lines[1];
    assert_eq!(outcome["outcome"], "deployed");
    assert_eq!(outcome["operator"], "alice", "on behalf of the requester");
    assert_eq!(outcome["reason"], "CVE-2026-1234");
    assert_eq!(outcome["request"]["request_id"], id.as_str());
    assert_eq!(outcome["request"]["requester"], "alice");
    assert_eq!(outcome["request"]["approvers"], serde_json::json!(["bob"]));

    let again = a.approve(&id, "dave", "base-os").await;
    assert_eq!(
        again.status, 409,
        "an executed request is closed: {}",
        again.body
    );
}

#[tokio::test]
async fn a_request_asked_against_a_version_production_no_longer_serves_is_stale() {
    let a = spawn(policy(1), BEFORE_FREEZE).await;
    let id = request_id(&a.request_v4("alice").await);
    let base_os = a.app.fixture.base_os.clone();
    let v3 = a.app.memory.publish(&base_os, VersionNumber::new(3));
    a.app.memory.point_distribution("base-os-prod", &v3);
    let writes = a.app.writes();
    let stale = a.approve(&id, "bob", "base-os").await;
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert!(stale.body.contains("stale"), "{}", stale.body);
    assert_eq!(a.serving(), Some(3), "nothing changed");
    assert_eq!(a.app.writes(), writes);
    assert_eq!(a.state_of(&id).await, "stale");
}

#[tokio::test]
async fn two_approvals_at_once_run_one_deploy() {
    let a = spawn(policy(1), BEFORE_FREEZE).await;
    let id = request_id(&a.request_v4("alice").await);
    let (bob, dave) = tokio::join!(
        a.approve(&id, "bob", "base-os"),
        a.approve(&id, "dave", "base-os")
    );
    let mut statuses = [bob.status, dave.status];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{}\n{}", bob.body, dave.body);
    let deploys = a
        .app
        .memory
        .calls()
        .iter()
        .filter(|c| c.starts_with("update_distribution"))
        .count();
    assert_eq!(deploys, 1, "one deploy");
    assert_eq!(a.serving(), Some(4));
}

#[tokio::test]
async fn two_approvals_are_two_distinct_approvers() {
    let a = spawn(policy(2), BEFORE_FREEZE).await;
    let id = request_id(&a.request_v4("alice").await);
    let first = a.approve(&id, "bob", "base-os").await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert!(first.body.contains("1 more needed"), "{}", first.body);
    assert_eq!(a.serving(), Some(2));
    let twice = a.approve(&id, "bob", "base-os").await;
    assert_eq!(twice.status, 409, "{}", twice.body);
    let second = a.approve(&id, "dave", "base-os").await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(a.serving(), Some(4));
    let lines = a.audit_lines();
    assert_eq!(
        lines.last().unwrap()["request"]["approvers"],
        serde_json::json!(["bob", "dave"])
    );
}

#[tokio::test]
async fn requests_expire_and_are_rejected_by_approvers_or_cancelled_by_their_requester() {
    let a = spawn(policy(1), BEFORE_FREEZE).await;
    let expiring = request_id(&a.request_v4("frank").await);
    let rejected = request_id(&a.request_v4("alice").await);

    let post = |id: &str, action: &str, user: &str, groups: &str| {
        let path = format!("/requests/{id}/{action}");
        let (user, groups) = (user.to_owned(), groups.to_owned());
        let app = &a.app;
        async move { app.send_as("POST", &path, &user, &groups, "").await }
    };
    assert_eq!(post(&rejected, "reject", "alice", "dev").await.status, 403);
    assert_eq!(post(&rejected, "reject", "carol", "dev").await.status, 403);
    assert_eq!(
        post(&rejected, "reject", "bob", "release").await.status,
        200
    );
    assert_eq!(a.state_of(&rejected).await, "rejected");
    let cancelled = request_id(&a.request_v4("alice").await);
    assert_ne!(cancelled, rejected, "a closed request is asked anew");
    assert_eq!(
        post(&cancelled, "cancel", "bob", "release").await.status,
        403
    );
    assert_eq!(post(&cancelled, "cancel", "alice", "dev").await.status, 200);
    assert_eq!(a.state_of(&cancelled).await, "cancelled");
    assert_eq!(a.approve(&cancelled, "bob", "base-os").await.status, 409);

    a.clock.advance(chrono::Duration::hours(24));
    assert_eq!(a.state_of(&expiring).await, "expired");
    let late = a.approve(&expiring, "bob", "base-os").await;
    assert_eq!(late.status, 409, "{}", late.body);
    assert!(late.body.contains("expired"), "{}", late.body);
    assert_eq!(a.serving(), Some(2));
    assert_eq!(a.app.writes(), 0);
}

#[tokio::test]
async fn only_those_listed_in_override_deploy_through_a_freeze_and_only_with_a_reason() {
    let production = EnvironmentName::production();
    let window = FreezeWindow::interval("2026-12-20T00:00:00Z/2027-01-04T00:00:00Z").unwrap();
    let frozen = Policy::default()
        .with_freezes(BTreeMap::from([(production.clone(), vec![window])]))
        .with_overriders(BTreeMap::from([(production, subjects(&["group:sre"]))]));
    let a = spawn(frozen, "2026-12-24T18:00:00Z").await;
    let base_os = &a.app.fixture.base_os;
    let confirm = format!("/repos/{base_os}/deploy/confirm?version=4");
    let deploy = format!("/repos/{base_os}/deploy");

    let plain = a.app.send_as("GET", &confirm, "carol", "dev", "").await;
    assert_eq!(plain.status, 409, "{}", plain.body);
    assert!(
        !plain.body.contains("override"),
        "not offered: {}",
        plain.body
    );
    let offered = a.app.send_as("GET", &confirm, "sam", "sre", "").await;
    assert_eq!(offered.status, 200, "{}", offered.body);
    assert_eq!(select(&offered.html(), "input[name=override]").len(), 1);
    let page = a
        .app
        .send_as(
            "GET",
            &format!("/repos/{base_os}/versions"),
            "sam",
            "sre",
            "",
        )
        .await;
    let html = page.html();
    let button = &select(&html, "button[data-deploy-version='4']")[0];
    assert!(
        button.value().attr("disabled").is_none(),
        "an overrider's button is enabled"
    );

    let as_sam = |body: &'static str| a.app.send_as("POST", &deploy, "sam", "sre", body);
    let carol = "version=4&confirm=base-os&override=1&reason=urgent";
    let refused = a.app.send_as("POST", &deploy, "carol", "dev", carol).await;
    assert_eq!(refused.status, 409, "not listed: {}", refused.body);
    let no_flag = as_sam("version=4&confirm=base-os&reason=urgent").await;
    assert_eq!(
        no_flag.status, 409,
        "the override is asked for: {}",
        no_flag.body
    );
    assert!(
        no_flag.body.contains("data-refusal=\"freeze\""),
        "{}",
        no_flag.body
    );
    assert!(
        no_flag.body.contains("Override the freeze"),
        "{}",
        no_flag.body
    );
    let no_reason = as_sam("version=4&confirm=base-os&override=1").await;
    assert_eq!(no_reason.status, 422, "{}", no_reason.body);
    assert_eq!(a.app.writes(), 0);
    assert_eq!(a.serving(), Some(2));

    let body = "version=4&confirm=base-os&override=1&reason=CVE-2026-9999+exploited";
    let through = as_sam(body).await;
    assert_eq!(through.status, 200, "{}", through.body);
    assert_eq!(a.serving(), Some(4));
    let lines = a.audit_lines();
    let outcome = lines.last().unwrap();
    assert_eq!(outcome["outcome"], "deployed");
    assert_eq!(outcome["reason"], "CVE-2026-9999 exploited");
    assert_eq!(
        outcome["freeze_override"]["window"],
        "2026-12-20T00:00:00Z/2027-01-04T00:00:00Z"
    );
    assert!(outcome["freeze_override"]["until"]
        .as_str()
        .unwrap()
        .contains("2027-01-04"));

    let history = format!("/repos/{base_os}/history");
    let rollback = |reply: &Reply| {
        let html = reply.html();
        let button = &select(&html, "button[data-rollback-version='2']")[0];
        (
            button.value().attr("data-denied").map(str::to_owned),
            button.value().attr("disabled").is_some(),
        )
    };
    let carol = a.app.send_as("GET", &history, "carol", "dev", "").await;
    assert_eq!(
        rollback(&carol),
        (Some("freeze".into()), true),
        "frozen for carol"
    );
    let sam = a.app.send_as("GET", &history, "sam", "sre", "").await;
    assert_eq!(rollback(&sam), (None, false), "sam may override");
}

#[tokio::test]
async fn a_frozen_environment_refuses_the_approval_that_would_run_the_deploy() {
    let a = spawn(policy(1), "2026-12-19T23:00:00Z").await;
    let id = request_id(&a.request_v4("alice").await);
    a.clock.advance(chrono::Duration::hours(2));
    let frozen = a.approve(&id, "bob", "base-os").await;
    assert_eq!(frozen.status, 409, "{}", frozen.body);
    assert!(frozen.body.contains("frozen"), "{}", frozen.body);
    assert_eq!(
        a.state_of(&id).await,
        "pending",
        "the approval is not spent"
    );
    assert_eq!(a.serving(), Some(2));
}

/// Issue 33, attack 5: two requests for the same deploy, approved at once. One deploys; the
/// other's deploy is refused (production moved): that request ends `stale`, never a bare
/// `approved`, in the pages and in the JSON API.
#[tokio::test]
async fn of_two_requests_approved_at_once_the_one_refused_ends_stale_not_approved() {
    let a = spawn(policy(1), BEFORE_FREEZE).await;
    let alice = request_id(&a.request_v4("alice").await);
    let carol = request_id(&a.request_v4("carol").await);
    assert_ne!(alice, carol, "two requesters, two requests");
    let (bob, dave) = tokio::join!(
        a.approve(&alice, "bob", "base-os"),
        a.approve(&carol, "dave", "base-os")
    );
    let mut statuses = [bob.status, dave.status];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{}\n{}", bob.body, dave.body);
    assert_eq!(a.serving(), Some(4));
    let mut states = [a.state_of(&alice).await, a.state_of(&carol).await];
    states.sort();
    assert_eq!(states, ["executed", "stale"]);
    let listed = a
        .app
        .send_as("GET", "/api/v1/requests", "viewer", "", "")
        .await;
    let json: serde_json::Value = serde_json::from_str(&listed.body).unwrap();
    let mut api_states: Vec<&str> = json["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["state"].as_str().unwrap())
        .collect();
    api_states.sort();
    assert_eq!(api_states, ["executed", "stale"]);
}

/// Issue 33, attack 7: the same ask two hundred times at once is one request; every answer is
/// the same 202 naming it. Once it is closed, asking again makes a new one.
#[tokio::test]
async fn the_same_ask_two_hundred_times_is_one_request_answered_each_time() {
    let a = spawn(policy(1), BEFORE_FREEZE).await;
    let asks = (0..200).map(|_| a.request_v4("alice"));
    let replies = futures::future::join_all(asks).await;
    let ids: std::collections::BTreeSet<String> = replies.iter().map(request_id).collect();
    assert_eq!(ids.len(), 1, "one request: {ids:?}");
    let listed = a
        .app
        .send_as("GET", "/api/v1/requests", "viewer", "", "")
        .await;
    let json: serde_json::Value = serde_json::from_str(&listed.body).unwrap();
    assert_eq!(
        json["items"].as_array().unwrap().len(),
        1,
        "{}",
        listed.body
    );
    let other = request_id(&a.request_v4("carol").await);
    assert!(!ids.contains(&other), "another requester asks anew");
    let first = ids.into_iter().next().unwrap();
    let cancelled = a
        .app
        .send_as(
            "POST",
            &format!("/requests/{first}/cancel"),
            "alice",
            "dev",
            "",
        )
        .await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.body);
    let again = request_id(&a.request_v4("alice").await);
    assert_ne!(again, first, "a closed request is not answered again");
    assert_eq!(request_id(&a.request_v4("alice").await), again);
}
