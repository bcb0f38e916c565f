//! Issue 38, scheduled deploys over the in-memory upstream, on a clock the tests move: made
//! through the API and the confirm step's form (202), listed, cancelled by their author or a
//! deployer (every other caller refused), run at their time exactly once through the deploy
//! use case with every check made again (the environment moved meanwhile, a freeze added
//! since), across a restart, and after a replica's claim lapsed (the audit lines decide).

use std::collections::BTreeMap;
use std::io::Write;
use std::num::NonZeroU32;
use std::sync::Arc;

use chrono::Duration;
use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::files::schedules::JsonlScheduleStore;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{ManualClock, MemoryOutbox, MemoryScheduleStore};
use repo_console::app::schedules::run::{run_due, Ran};
use repo_console::app::Events;
use repo_console::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::event::{EventData, EventKind, Subscription, WebhookUrl};
use repo_console::domain::identity::PersonName;
use repo_console::domain::ids::ScheduleId;
use repo_console::domain::policy::{Allowed, Approvals, FreezeWindow, Policy, Subject};
use repo_console::domain::record_keys::Written;
use repo_console::domain::schedule::rules::claimed;
use repo_console::domain::schedule::{Schedule, ScheduleState};
use repo_console::ports::ScheduleStore;
use serde_json::{json, Value};

use crate::helpers::*;

const ALICE: &str = "alice-token-0123456789";
const BOB: &str = "bob-token-0123456789";
const CAROL: &str = "carol-token-0123456789";
const READER: &str = "reader-token-0123456789";

/// One hour after the pinned time: when the tests' schedules run.
const AT: &str = "2026-11-22T11:00:00Z";

pub(crate) struct Scheduling {
    pub(crate) app: TestApp,
    pub(crate) clock: Arc<ManualClock>,
    pub(crate) store: Arc<dyn ScheduleStore>,
    pub(crate) outbox: Arc<MemoryOutbox>,
}

fn tokens() -> BearerTokens {
    let all = ["read", "deploy:*", "approve:*"];
    let token = |name: &str, text: &str, groups: &[&str], scopes: &[&str]| {
        crate::tokens::token(name, text, groups, scopes).owned_by(PersonName::new(name).unwrap())
    };
    BearerTokens::new(
        vec![
            token("alice", ALICE, &["release"], &all),
            token("bob", BOB, &["dev"], &all),
            token("carol", CAROL, &["release"], &all),
            token("alice", READER, &["release"], &["read"]),
        ],
        None,
        Arc::new(SystemClock),
    )
}

/// Production's deployers: group release.
fn release_only() -> Policy {
    Policy::new(
        BTreeMap::from([(
            EnvironmentName::production(),
            Allowed::Only(vec![Subject::parse("group:release").unwrap()]),
        )]),
        Allowed::Everyone,
    )
}

async fn spawn_with(policy: Policy, store: Arc<dyn ScheduleStore>) -> Scheduling {
    let clock = Arc::new(ManualClock::new(pinned_time()));
    spawn_with_tokens(policy, store, tokens(), clock).await
}

/// The console under `policy`, its schedules in `store`, its API callers `tokens` (else the
/// trusted proxy of 127.0.0.1), on `clock`.
pub(crate) async fn spawn_with_tokens(
    policy: Policy,
    store: Arc<dyn ScheduleStore>,
    tokens: BearerTokens,
    clock: Arc<ManualClock>,
) -> Scheduling {
    let outbox = Arc::new(MemoryOutbox::default());
    let hook = Subscription {
        url: WebhookUrl::parse("http://127.0.0.1:9/hook").unwrap(),
        events: EventKind::ALL.into_iter().collect(),
    };
    let events = Events::new(outbox.clone(), vec![hook], Arc::new(SystemClock));
    let kept = store.clone();
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
        .with_groups("X-Remote-Groups");
    let app = fixture_app()
        .identity(Arc::new(identity))
        .clock(clock.clone())
        .tokens(tokens)
        .policy(policy)
        .requests()
        .configure(move |state| {
            state
                .schedules(kept, Duration::minutes(10))
                .replica("replica-test")
                .events(events)
        })
        .spawn()
        .await;
    Scheduling {
        app,
        clock,
        store,
        outbox,
    }
}

async fn spawn() -> Scheduling {
    spawn_with(release_only(), Arc::new(MemoryScheduleStore::default())).await
}

impl Scheduling {
    pub(crate) async fn call(&self, method: &str, path: &str, token: &str, body: &Value) -> Reply {
        let bearer = format!("Bearer {token}");
        let headers = [
            ("content-type", "application/json"),
            ("authorization", bearer.as_str()),
        ];
        self.app
            .client
            .send(method, path, &headers, &body.to_string())
            .await
    }

    /// v4 of base-os to production at `at`, by `token`, expecting v2 (what it serves).
    pub(crate) async fn schedule(&self, token: &str, at: &str) -> Reply {
        let path = format!(
            "/api/v1/repositories/{}/deployments",
            self.app.fixture.base_os
        );
        let body =
            json!({"version": 4, "expected_current": 2, "reason": "patch Tuesday", "at": at});
        self.call("POST", &path, token, &body).await
    }

    pub(crate) async fn schedules(&self) -> Vec<Value> {
        let reply = self.app.get("/api/v1/schedules").await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        json_of(&reply)["items"].as_array().unwrap().clone()
    }

    pub(crate) async fn run(&self) -> Ran {
        run_due(&self.app.state).await.unwrap()
    }

    pub(crate) fn serving(&self) -> Option<u64> {
        self.app.production_version("base-os-prod")
    }

    pub(crate) fn publications(&self) -> usize {
        self.app
            .mutations()
            .iter()
            .filter(|m| m.starts_with("create_publication"))
            .count()
    }
}

pub(crate) fn json_of(reply: &Reply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

pub(crate) fn schedule_id(reply: &Reply) -> String {
    json_of(reply)["schedule"]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_scheduled_deploy_waits_for_its_time_then_runs_once_on_behalf_of_its_author() {
    let s = spawn().await;
    let made = s.schedule(ALICE, "2026-11-22T12:00:00+01:00").await;
    assert_eq!(made.status, 202, "{}", made.body);
    let body = json_of(&made);
    assert_eq!(body["request"], Value::Null);
    assert_eq!(body["schedule"]["state"], "waiting");
    assert_eq!(body["schedule"]["at"], AT, "kept in UTC");
    assert_eq!(body["schedule"]["author"], "alice");
    assert_eq!(body["schedule"]["expected_current"], 2);
    let id = schedule_id(&made);
    assert_eq!(s.schedules().await[0]["id"], id.as_str());
    assert!(
        s.app.mutations().is_empty(),
        "nothing moved when it was made"
    );

    s.clock.advance(Duration::minutes(59));
    assert_eq!(s.run().await, Ran::default(), "not yet");
    assert_eq!(s.serving(), Some(2));

    s.clock.advance(Duration::minutes(1));
    assert_eq!(s.run().await, Ran { ran: 1, lost: 0 });
    assert_eq!(s.serving(), Some(4));
    assert_eq!(s.run().await, Ran::default(), "once");
    assert_eq!(s.publications(), 1);

    let listed = &s.schedules().await[0];
    assert_eq!(listed["state"], "done");
    let deploy_id = listed["deploy_id"].as_str().unwrap();
    let lines = s.app.audit_lines();
    assert_eq!(lines.len(), 2, "started, deployed");
    for line in &lines {
        assert_eq!(line["deploy_id"], deploy_id);
        assert_eq!(line["operator"], "alice", "on behalf of its author");
        assert_eq!(
            line["schedule"],
            json!({"schedule_id": id, "author": "alice"})
        );
        assert_eq!(line["reason"], "patch Tuesday");
    }
    let events = s.outbox.events();
    let Some(EventData::DeploymentFinished(data)) = events.first().map(|e| &e.data) else {
        panic!("{events:?}")
    };
    assert_eq!(
        data.schedule.as_ref().map(|m| m.schedule_id.as_str()),
        Some(id.as_str())
    );
}

#[tokio::test]
async fn at_its_time_a_schedule_is_refused_when_the_environment_moved_meanwhile() {
    let s = spawn().await;
    let id = schedule_id(&s.schedule(ALICE, AT).await);
    let path = format!("/api/v1/repositories/{}/deployments", s.app.fixture.base_os);
    let moved = s
        .call(
            "POST",
            &path,
            CAROL,
            &json!({"version": 3, "expected_current": 2}),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.body);
    s.clock.advance(Duration::hours(1));
    assert_eq!(s.run().await.ran, 1);
    assert_eq!(s.serving(), Some(3), "nothing moved");
    let listed = &s.schedules().await[0];
    assert_eq!(listed["id"], id.as_str());
    assert_eq!(listed["state"], "refused");
    let why = listed["message"].as_str().unwrap();
    assert!(why.contains("it served v2, it now serves v3"), "{why}");
    let refused: Vec<_> = s
        .outbox
        .events()
        .into_iter()
        .filter(|e| e.kind() == EventKind::ScheduleRefused)
        .collect();
    assert_eq!(refused.len(), 1);
    let EventData::ScheduleRefused(data) = &refused[0].data else {
        unreachable!()
    };
    assert_eq!(data.author.as_str(), "alice");
    assert_eq!(data.schedule_id.as_str(), id);
}

#[tokio::test]
async fn a_freeze_refuses_a_schedule_when_made_and_again_at_its_time() {
    let frozen = FreezeWindow::interval("2026-11-22T10:30:00Z/2026-11-22T12:00:00Z").unwrap();
    let policy = release_only().with_freezes(BTreeMap::from([(
        EnvironmentName::production(),
        vec![frozen.clone()],
    )]));
    let store: Arc<dyn ScheduleStore> = Arc::new(MemoryScheduleStore::default());
    let s = spawn_with(policy, store.clone()).await;
    let inside = s.schedule(ALICE, AT).await;
    assert_eq!(inside.status, 409, "{}", inside.body);
    assert_eq!(json_of(&inside)["error"]["code"], "frozen");
    assert!(s.schedules().await.is_empty());

    // Made before the freeze was configured; the console restarted with it.
    let before = spawn_with(release_only(), store.clone()).await;
    let made = before.schedule(ALICE, AT).await;
    assert_eq!(made.status, 202, "{}", made.body);
    s.clock.advance(Duration::hours(1));
    assert_eq!(s.run().await.ran, 1);
    assert_eq!(s.serving(), Some(2));
    let listed = &s.schedules().await[0];
    assert_eq!(listed["state"], "refused");
    assert!(
        listed["message"].as_str().unwrap().contains("frozen"),
        "{listed}"
    );
}

#[tokio::test]
async fn a_schedule_is_made_for_a_time_ahead_and_never_for_a_rollback() {
    let s = spawn().await;
    let past = s.schedule(ALICE, "2026-11-22T09:59:59Z").await;
    assert_eq!(past.status, 422, "{}", past.body);
    assert_eq!(json_of(&past)["error"]["code"], "bad_time");
    let local = s.schedule(ALICE, "2026-11-22T11:00:00").await;
    assert_eq!(local.status, 422, "no offset: {}", local.body);
    let path = format!("/api/v1/repositories/{}/deployments", s.app.fixture.base_os);
    let rollback =
        json!({"version": 1, "expected_current": 2, "rollback": true, "reason": "x", "at": AT});
    let refused = s.call("POST", &path, ALICE, &rollback).await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert_eq!(json_of(&refused)["error"]["code"], "rollback_not_scheduled");
    let nobody = s.schedule(BOB, AT).await;
    assert_eq!(nobody.status, 403, "bob is no deployer: {}", nobody.body);
    let unsure = json!({"version": 4, "at": AT});
    let refused = s.call("POST", &path, ALICE, &unsure).await;
    assert_eq!(
        json_of(&refused)["error"]["code"],
        "expected_current_missing"
    );
    assert!(s.schedules().await.is_empty());
}

/// Production needs one approval by group:release.
fn four_eyes() -> Policy {
    let approvals = Approvals::new(
        NonZeroU32::new(1).unwrap(),
        vec![Subject::parse("group:release").unwrap()],
    )
    .unwrap();
    release_only().with_approvals(BTreeMap::from([(EnvironmentName::production(), approvals)]))
}

/// Where production needs approvals the schedule carries a request: its approval runs
/// nothing (`scheduled`, `request.scheduled`), the schedule runs it at its time under the
/// approvals; one not approved by then is refused, and its request expires an hour later.
#[tokio::test]
async fn a_schedule_carries_a_request_and_runs_only_once_approved() {
    let s = spawn_with(four_eyes(), Arc::new(MemoryScheduleStore::default())).await;
    let made = s.schedule(ALICE, AT).await;
    assert_eq!(made.status, 202, "{}", made.body);
    let body = json_of(&made);
    let request = body["request"]["id"].as_str().unwrap().to_owned();
    assert_eq!(body["request"]["state"], "pending");
    assert_eq!(
        body["request"]["expires"], "2026-11-22T12:00:00.000Z",
        "an hour after its time"
    );
    assert_eq!(body["schedule"]["request_id"], request.as_str());

    let approve = format!("/api/v1/requests/{request}/approve");
    let approved = s.call("POST", &approve, CAROL, &json!({})).await;
    assert_eq!(approved.status, 200, "{}", approved.body);
    assert_eq!(json_of(&approved)["request"]["state"], "scheduled");
    assert!(s.app.mutations().is_empty(), "the approval ran nothing");
    assert!(s
        .outbox
        .events()
        .iter()
        .any(|e| e.kind() == EventKind::RequestScheduled));

    s.clock.advance(Duration::hours(1));
    assert_eq!(s.run().await.ran, 1);
    assert_eq!(s.serving(), Some(4));
    let line = s.app.audit_lines().into_iter().last().unwrap();
    assert_eq!(line["request"]["request_id"], request.as_str());
    assert_eq!(line["request"]["approvers"], json!(["carol"]));
    assert_eq!(line["schedule"]["author"], "alice");
    let listed = s.app.get("/api/v1/requests").await;
    assert_eq!(json_of(&listed)["items"][0]["state"], "executed");

    // Not approved by its time: refused, nothing moves; the request expires an hour later.
    let path = format!("/api/v1/repositories/{}/deployments", s.app.fixture.base_os);
    let body = json!({"version": 3, "expected_current": 4, "at": "2026-11-22T12:00:00Z"});
    let unapproved = s.call("POST", &path, ALICE, &body).await;
    assert_eq!(unapproved.status, 202, "{}", unapproved.body);
    let unapproved = json_of(&unapproved);
    s.clock.advance(Duration::hours(1));
    assert_eq!(s.run().await.ran, 1);
    assert_eq!(s.serving(), Some(4));
    let items = s.schedules().await;
    let of = |id: &Value| items.iter().find(|i| &i["id"] == id).unwrap().clone();
    let first = of(&unapproved["schedule"]["id"]);
    assert_eq!(first["state"], "refused");
    assert!(
        first["message"].as_str().unwrap().contains("is pending"),
        "{first}"
    );
    s.clock.advance(Duration::hours(1));
    let listed = s.app.get("/api/v1/requests?state=expired").await;
    assert_eq!(json_of(&listed)["items"].as_array().unwrap().len(), 1);

    // Cancelled with its schedule: the request waiting for approvals is withdrawn.
    let body = json!({"version": 3, "expected_current": 4, "at": "2026-11-22T16:00:00Z"});
    let made = json_of(&s.call("POST", &path, ALICE, &body).await);
    let cancel = format!(
        "/api/v1/schedules/{}/cancel",
        made["schedule"]["id"].as_str().unwrap()
    );
    assert_eq!(s.call("POST", &cancel, CAROL, &json!({})).await.status, 200);
    let listed = s.app.get("/api/v1/requests?state=cancelled").await;
    let items = json_of(&listed)["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["id"], made["request"]["id"]);
}

#[tokio::test]
async fn only_the_author_or_a_deployer_cancels_and_only_while_it_waits() {
    let s = spawn().await;
    let first = schedule_id(&s.schedule(ALICE, AT).await);
    let cancel = |id: &str| format!("/api/v1/schedules/{id}/cancel");
    let no_body = json!({});
    let bob = s.call("POST", &cancel(&first), BOB, &no_body).await;
    assert_eq!(bob.status, 403, "neither author nor deployer: {}", bob.body);
    let reader = s.call("POST", &cancel(&first), READER, &no_body).await;
    assert_eq!(
        reader.status, 403,
        "the author's token without deploy scope: {}",
        reader.body
    );
    let anonymous = s.app.client.send("POST", &cancel(&first), &[], "").await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(
        s.schedules().await[0]["state"],
        "waiting",
        "every refusal changed nothing"
    );

    let by_author = s.call("POST", &cancel(&first), ALICE, &no_body).await;
    assert_eq!(by_author.status, 200, "{}", by_author.body);
    assert_eq!(json_of(&by_author)["state"], "cancelled");
    assert_eq!(json_of(&by_author)["cancelled_by"], "alice");
    let replay = s.call("POST", &cancel(&first), ALICE, &no_body).await;
    assert_eq!(replay.status, 409, "{}", replay.body);

    let second = schedule_id(&s.schedule(ALICE, AT).await);
    let by_deployer = s.call("POST", &cancel(&second), CAROL, &no_body).await;
    assert_eq!(
        by_deployer.status, 200,
        "a deployer of production: {}",
        by_deployer.body
    );
    let unknown = s
        .call("POST", &cancel("no-such-schedule"), ALICE, &no_body)
        .await;
    assert_eq!(unknown.status, 404);

    s.clock.advance(Duration::hours(1));
    assert_eq!(
        s.run().await,
        Ran::default(),
        "a cancelled schedule never runs"
    );
    assert_eq!(s.serving(), Some(2));
}

#[tokio::test]
async fn a_schedule_kept_in_the_file_runs_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let file = || -> Arc<dyn ScheduleStore> {
        Arc::new(JsonlScheduleStore::new(dir.path().join("schedules.jsonl")))
    };
    let before = spawn_with(release_only(), file()).await;
    let id = schedule_id(&before.schedule(ALICE, AT).await);
    drop(before);
    let after = spawn_with(release_only(), file()).await;
    after.clock.advance(Duration::hours(1));
    assert_eq!(after.run().await.ran, 1);
    assert_eq!(after.serving(), Some(4));
    assert_eq!(after.schedules().await[0]["id"], id.as_str());
    assert_eq!(after.schedules().await[0]["state"], "done");
}

/// A replica claimed the schedule and stopped: the others leave it until the claim lapses;
/// then the audit lines of the claim's deploy decide: none, it runs now; `started` alone,
/// its end is unknown and it never runs twice.
#[tokio::test]
async fn a_lapsed_claim_is_taken_over_and_the_audit_decides_what_happened() {
    let s = spawn().await;
    let quiet = ScheduleId::parse(&schedule_id(&s.schedule(ALICE, AT).await)).unwrap();
    let started = ScheduleId::parse(&schedule_id(&s.schedule(ALICE, AT).await)).unwrap();
    s.clock.advance(Duration::hours(1));
    let now = pinned_time() + Duration::hours(1);
    for (id, deploy) in [(&quiet, "d-quiet"), (&started, "d-started")] {
        let waiting = s.store.get(id).await.unwrap().unwrap();
        let dead = claimed(
            waiting,
            "replica-dead",
            now,
            Duration::minutes(10),
            DeployId::new(deploy),
        );
        s.store.replace(&dead).await.unwrap();
    }
    // The dead replica wrote the started line of one of them.
    let line = started_line("d-started", &s.app.fixture.base_os.to_string(), now);
    std::fs::create_dir_all(s.app.audit_path.parent().unwrap()).unwrap();
    std::fs::write(
        &s.app.audit_path,
        format!("{}\n", serde_json::to_string(&line).unwrap()),
    )
    .unwrap();

    s.clock.advance(Duration::minutes(9));
    assert_eq!(s.run().await, Ran::default(), "claimed: left alone");
    s.clock.advance(Duration::minutes(1));
    assert_eq!(s.run().await.ran, 2);
    let quiet_now = s.store.get(&quiet).await.unwrap().unwrap();
    assert!(
        matches!(&quiet_now.state, ScheduleState::Done { deploy_id, .. } if deploy_id.as_str() == "d-quiet"),
        "never started: run now, under the claim's deploy id: {quiet_now:?}"
    );
    let started_now = s.store.get(&started).await.unwrap().unwrap();
    let ScheduleState::Failed { message, .. } = &started_now.state else {
        panic!("{started_now:?}")
    };
    assert!(
        message.contains("unknown") && message.contains("replica-dead"),
        "{message}"
    );
    assert_eq!(s.publications(), 1, "the started one was not run again");
}

fn started_line(deploy_id: &str, repo: &str, at: chrono::DateTime<chrono::Utc>) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(deploy_id),
        timestamp: at,
        operator: "alice".into(),
        repository_uuid: repo.into(),
        repository_name: "base-os".into(),
        previous_version: Some(2),
        target_version: 4,
        environment: EnvironmentName::production(),
        distribution: "base-os-prod".into(),
        publication: None,
        kind: DeployKind::Deploy,
        reason: None,
        request: None,
        freeze_override: None,
        soak_override: None,
        release: None,
        checks_override: None,
        automation: None,
        schedule: None,
        outcome: AuditOutcome::Started,
    }
}

#[tokio::test]
async fn the_confirm_steps_form_schedules_and_the_pages_list_it() {
    let s = spawn().await;
    let base_os = s.app.fixture.base_os.clone();
    let form = format!(
        "version=4&env=production&confirm=base-os&live=2&at={}",
        enc(AT)
    );
    let made = s
        .app
        .send_as(
            "POST",
            &format!("/repos/{base_os}/deploy"),
            "alice",
            "release",
            &form,
        )
        .await;
    assert_eq!(made.status, 202, "{}", made.body);
    let html = made.html();
    let tagged = select(&html, "[data-schedule-id]");
    assert_eq!(attr(&tagged[0], "data-schedule-state"), "waiting");
    let id = attr(&tagged[0], "data-schedule-id").to_owned();

    let confirm = s
        .app
        .get(&format!("/repos/{base_os}/deploy/confirm?version=4"))
        .await;
    assert_eq!(confirm.status, 200);
    assert_eq!(
        select(&confirm.html(), "input[name=at]").len(),
        1,
        "offered"
    );

    let list = s.app.get("/schedules").await;
    assert_eq!(list.status, 200);
    let list_html = list.html();
    let rows = select(&list_html, "tr[data-schedule-id]");
    assert_eq!(attr(&rows[0], "data-schedule-id"), id);
    assert_eq!(attr(&rows[0], "data-schedule-state"), "waiting");
    let versions = s.app.get(&format!("/repos/{base_os}/versions")).await;
    let versions_html = versions.html();
    let listed = select(&versions_html, "#schedules tr[data-schedule-id]");
    assert_eq!(listed.len(), 1, "the versions page lists it");

    let cancel = format!("/schedules/{id}/cancel");
    let refused = s.app.send_as("POST", &cancel, "bob", "dev", "").await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let done = s.app.send_as("POST", &cancel, "alice", "release", "").await;
    assert_eq!(done.status, 303, "{}", done.body);
    let list = s.app.get("/schedules").await.html();
    let rows = select(&list, "tr[data-schedule-id]");
    assert_eq!(attr(&rows[0], "data-schedule-state"), "cancelled");
}

/// Issue 43: a refused schedule's line holds no key twice, reads back refused, and stays
/// refused across a restart and past its claim's lapse, even where the environment serves
/// again what it served when the schedule was made (the new console's upstream starts over).
#[tokio::test]
async fn a_refused_schedule_stays_refused_across_a_restart_and_past_its_claim() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schedules.jsonl");
    let file = || -> Arc<dyn ScheduleStore> { Arc::new(JsonlScheduleStore::new(&path)) };
    let before = spawn_with(release_only(), file()).await;
    let id = schedule_id(&before.schedule(ALICE, AT).await);
    let moved = before
        .call(
            "POST",
            &format!(
                "/api/v1/repositories/{}/deployments",
                before.app.fixture.base_os
            ),
            CAROL,
            &json!({"version": 3, "expected_current": 2}),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.body);
    before.clock.advance(Duration::hours(1));
    assert_eq!(before.run().await.ran, 1);
    assert_eq!(before.schedules().await[0]["state"], "refused");
    drop(before);
    let text = std::fs::read_to_string(&path).unwrap();
    let last = text.lines().last().unwrap();
    assert_eq!(
        Written::parse(last.as_bytes()).unwrap().duplicate_keys(),
        Vec::<String>::new(),
        "{last}"
    );
    assert!(last.contains("\"refusal\":"), "{last}");

    let after = spawn_with(release_only(), file()).await;
    assert_eq!(after.serving(), Some(2), "the environment serves v2 again");
    after.clock.advance(Duration::hours(2));
    assert_eq!(
        after.run().await,
        Ran::default(),
        "a refused schedule never runs"
    );
    assert_eq!(after.serving(), Some(2));
    let listed = &after.schedules().await[0];
    assert_eq!(listed["id"], id.as_str());
    assert_eq!(listed["state"], "refused");
    assert_eq!(
        listed["reason"], "patch Tuesday",
        "the schedule's own reason"
    );
    let why = listed["message"].as_str().unwrap();
    assert!(why.contains("it now serves v3"), "the refusal: {why}");
}

/// A `refused` line written before 0.9 holds `reason` twice: it is read by the order its
/// writer used (the schedule's, then the refusal's), so the schedule stays refused.
#[tokio::test]
async fn a_refused_line_written_with_reason_twice_is_read_and_not_run_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schedules.jsonl");
    let s = spawn_with(release_only(), Arc::new(JsonlScheduleStore::new(&path))).await;
    let made = Schedule {
        reason: Some("patch Tuesday".into()),
        repository_uuid: s.app.fixture.base_os.to_string(),
        ..waiting_schedule()
    };
    s.store.create(&made).await.unwrap();
    let refused = made.clone().into_state(ScheduleState::Refused {
        ended: pinned_time() + Duration::hours(1),
        reason: "production moved: it served v2, it now serves v3".into(),
    });
    let line = serde_json::to_string(&refused)
        .unwrap()
        .replace("\"refusal\":", "\"reason\":");
    assert_eq!(
        Written::parse(line.as_bytes()).unwrap().duplicate_keys(),
        ["reason"]
    );
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(format!("{line}\n").as_bytes())
        .unwrap();

    s.clock.advance(Duration::hours(2));
    assert_eq!(
        s.run().await,
        Ran::default(),
        "it would deploy v4, were it waiting"
    );
    assert_eq!(s.serving(), Some(2));
    let read = s.store.get(&made.id).await.unwrap().unwrap();
    assert_eq!(read, refused, "both reasons read back where they belong");
}

/// A line that cannot be read, naming a schedule, makes that schedule unreadable: never run
/// (its time passed, its environment still serving what it expects), listed as unreadable by
/// the API and the page, named by /readyz (still ready), and not cancelled (500).
#[tokio::test]
async fn a_corrupt_line_makes_its_schedule_unreadable_and_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schedules.jsonl");
    let file = || -> Arc<dyn ScheduleStore> { Arc::new(JsonlScheduleStore::new(&path)) };
    let before = spawn_with(release_only(), file()).await;
    let id = schedule_id(&before.schedule(ALICE, AT).await);
    drop(before);
    let text = std::fs::read_to_string(&path).unwrap();
    let corrupt = text
        .lines()
        .last()
        .unwrap()
        .replace("\"target_version\":4", "\"target_version\":\"four\"")
        .replace("\"revision\":0", "\"revision\":1");
    assert_ne!(corrupt, text.lines().last().unwrap());
    std::fs::write(&path, format!("{text}{corrupt}\n")).unwrap();

    let s = spawn_with(release_only(), file()).await;
    s.clock.advance(Duration::hours(2));
    assert_eq!(
        s.run().await,
        Ran::default(),
        "an unreadable schedule is not run"
    );
    assert_eq!(s.serving(), Some(2));
    assert_eq!(s.publications(), 0);

    let reply = s.app.get("/api/v1/schedules").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let listed = json_of(&reply);
    assert_eq!(listed["items"], json!([]), "not listed as readable");
    assert_eq!(listed["unreadable"][0]["id"], id.as_str());
    assert!(
        listed["unreadable"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("invalid type"),
        "{listed}"
    );
    let page = s.app.get("/schedules").await;
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains(&format!("data-schedule-unreadable=\"{id}\"")),
        "{}",
        page.body
    );
    let ready = s.app.get("/readyz").await;
    assert_eq!(ready.status, 200, "{}", ready.body);
    assert!(
        ready.body.starts_with("ready; attention: schedule ")
            && ready.body.contains(&id)
            && ready.body.contains("line 2 of"),
        "{}",
        ready.body
    );
    let cancel = s
        .call(
            "POST",
            &format!("/api/v1/schedules/{id}/cancel"),
            ALICE,
            &json!({}),
        )
        .await;
    assert_eq!(cancel.status, 500, "{}", cancel.body);
    assert!(cancel.body.contains("cannot be read"), "{}", cancel.body);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count(),
        2,
        "nothing written over it"
    );
}

/// A schedule waiting for its time, as the store keeps it.
fn waiting_schedule() -> Schedule {
    let author = PersonName::new("alice").unwrap();
    Schedule {
        id: ScheduleId::parse("s-old").unwrap(),
        repository_uuid: String::new(),
        repository_name: "base-os".into(),
        environment: EnvironmentName::production(),
        target_version: 4,
        expected: Some(2),
        kind: DeployKind::Deploy,
        reason: None,
        override_freeze: false,
        author_key: author.key(repo_console::domain::identity::CaseMatching::Caseless),
        author,
        author_groups: vec!["release".into()],
        author_kind: None,
        at: pinned_time() + Duration::hours(1),
        created: pinned_time(),
        request_id: None,
        revision: 0,
        state: ScheduleState::Waiting,
    }
}
