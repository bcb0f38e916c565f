//! Issue 25, events: the use cases record an event once the fact is durable (a deploy's
//! outcome line, a request kept, a synchronization seen failed), for the webhooks that want
//! its kind, once per fact; an outbox that cannot be written never fails a deploy.

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::memory::{
    Fault, FaultyPulp, InMemoryPulp, MemoryOptions, MemoryOutbox, MemoryRequestStore, Op,
    SyncScript,
};
use repo_console::app::deploy::{deploy, DeployOutcome};
use repo_console::app::{approvals::requests, pages::dashboard, sync, AppState, Events};
use repo_console::domain::deploy::ProductionChanged;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::event::{ConsoleEvent, EventData, EventKind, Subscription, WebhookUrl};
use repo_console::domain::identity::Operator;
use repo_console::domain::ids::RequestId;
use repo_console::domain::policy::{Approvals, Policy, Subject};
use repo_console::domain::sync::SyncState;

use crate::helpers::*;

pub struct Recording {
    pub state: AppState,
    pub outbox: Arc<MemoryOutbox>,
    pub memory: Arc<InMemoryPulp>,
    pub pulp: Arc<FaultyPulp>,
    pub fx: Fixture,
    pub dir: tempfile::TempDir,
}

/// The fixture's console (production serves v2 of base-os) with one webhook wanting
/// `kinds`, its events kept in memory.
pub fn recording(kinds: &[EventKind]) -> Recording {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay: Duration::ZERO,
        task_timeout: Duration::from_millis(300),
        ..Default::default()
    }));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, pulp) = test_state(&memory, &dir.path().join("audit.jsonl"));
    let outbox = Arc::new(MemoryOutbox::default());
    let hook = Subscription {
        url: WebhookUrl::parse("http://127.0.0.1:9/hook").unwrap(),
        events: kinds.iter().copied().collect(),
    };
    let events = Events::new(outbox.clone(), vec![hook], Arc::new(SystemClock));
    Recording {
        state: state.rebuild().events(events).build(),
        outbox,
        memory,
        pulp,
        fx,
        dir,
    }
}

fn kinds(events: &[ConsoleEvent]) -> Vec<EventKind> {
    events.iter().map(ConsoleEvent::kind).collect()
}

fn audit_lines(r: &Recording) -> Vec<serde_json::Value> {
    std::fs::read_to_string(r.dir.path().join("audit.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn a_deploy_records_deployment_finished_after_its_outcome_line() {
    let r = recording(&EventKind::ALL);
    assert_deployed(&deploy_v4(&r.state, &r.fx.base_os).await);
    let events = r.outbox.events();
    assert_eq!(kinds(&events), [EventKind::DeploymentFinished]);
    let EventData::DeploymentFinished(data) = &events[0].data else {
        unreachable!()
    };
    let lines = audit_lines(&r);
    assert_eq!(lines.len(), 2, "started, then deployed");
    assert_eq!(data.deploy_id.as_str(), lines[1]["deploy_id"]);
    assert_eq!(
        (data.from_version, data.to_version, data.production_changed),
        (Some(2), 4, ProductionChanged::Yes)
    );
    assert_eq!(
        (data.repository.name.as_str(), data.operator.as_str()),
        ("base-os", "operator")
    );
    assert_eq!(data.environment, EnvironmentName::production());
    assert_eq!(r.outbox.pending(), 1, "one delivery, to the one webhook");
}

#[tokio::test]
async fn a_failed_deploy_records_deployment_failed_saying_whether_production_changed() {
    let r = recording(&EventKind::ALL);
    r.pulp.set(
        Op::UpdateDistribution,
        Fault::TaskFailed("the worker was lost".into()),
    );
    let outcome = deploy_v4(&r.state, &r.fx.base_os).await;
    let DeployOutcome::Failed {
        production_changed, ..
    } = outcome
    else {
        panic!("a failed deploy: {outcome:?}")
    };
    assert_eq!(production_changed, ProductionChanged::No);
    let events = r.outbox.events();
    assert_eq!(kinds(&events), [EventKind::DeploymentFailed]);
    let EventData::DeploymentFailed(data) = &events[0].data else {
        unreachable!()
    };
    assert_eq!(data.outcome, "failed");
    assert_eq!(data.production_changed, production_changed);
    let error = data.error.as_deref().unwrap_or("");
    assert!(error.contains("the Pulp task failed"), "{data:?}");
    assert!(
        !error.contains("the worker was lost"),
        "Pulp's words stay in the console's log: {data:?}"
    );
    let id = data.deploy_id.as_str();
    assert!(
        error.contains(&format!("correlation id {id}")),
        "the deploy's id finds the details in the log: {data:?}"
    );
}

#[tokio::test]
async fn an_outbox_that_cannot_be_written_never_fails_the_deploy() {
    let r = recording(&EventKind::ALL);
    r.outbox.fail(true);
    assert_deployed(&deploy_v4(&r.state, &r.fx.base_os).await);
    assert_eq!(
        r.memory.serving_version("base-os-prod").map(|n| n.get()),
        Some(4)
    );
    assert!(r.outbox.events().is_empty());
}

#[tokio::test]
async fn only_the_kinds_a_webhook_wants_are_kept() {
    let r = recording(&[EventKind::DriftDetected]);
    assert_deployed(&deploy_v4(&r.state, &r.fx.base_os).await);
    assert!(
        r.outbox.events().is_empty(),
        "nobody wants deployment.finished"
    );
}

#[tokio::test]
async fn a_request_records_request_created_its_completed_approval_and_last_request_executed() {
    let r = recording(&EventKind::ALL);
    let approvals = Approvals::new(
        NonZeroU32::new(1).unwrap(),
        vec![Subject::parse("group:release").unwrap()],
    )
    .unwrap();
    let policy = Policy::default()
        .with_approvals(BTreeMap::from([(EnvironmentName::production(), approvals)]));
    let state = r
        .state
        .rebuild()
        .policy(policy)
        .requests(
            Arc::new(MemoryRequestStore::default()),
            chrono::Duration::hours(24),
        )
        .build();
    let alice = Operator::new("alice").unwrap();
    let asked = deploy(&state, &r.fx.base_os, &deploy_request(4, "base-os"), &alice).await;
    let DeployOutcome::Requested(request) = asked else {
        panic!("a request: {asked:?}")
    };
    assert_eq!(kinds(&r.outbox.events()), [EventKind::RequestCreated]);

    let bob = Operator::new("bob")
        .unwrap()
        .with_groups(vec!["release".into()]);
    let id = RequestId::parse(request.id.as_str()).unwrap();
    let acted = requests::approve(&state, &id, &bob, "base-os".into()).await;
    assert!(
        matches!(acted, Ok(requests::Acted::Executed { .. })),
        "{acted:?}"
    );
    let events = r.outbox.events();
    assert_eq!(
        kinds(&events),
        [
            EventKind::RequestCreated,
            EventKind::RequestApproved,
            EventKind::DeploymentFinished,
            EventKind::RequestExecuted
        ]
    );
    let EventData::RequestApproved(approved) = &events[1].data else {
        unreachable!()
    };
    assert_eq!(approved.requester, "alice");
    assert_eq!(approved.approvers, ["bob"]);
    assert_eq!((approved.from_version, approved.to_version), (Some(2), 4));
    let EventData::DeploymentFinished(deployed) = &events[2].data else {
        unreachable!()
    };
    assert_eq!(deployed.request_id.as_ref(), Some(&approved.request_id));
    assert_eq!(deployed.operator, "alice", "on behalf of the requester");
    let EventData::RequestExecuted(executed) = &events[3].data else {
        unreachable!()
    };
    assert_eq!(executed.request_id, approved.request_id);
    assert_eq!(executed.deploy_id.as_ref(), Some(&deployed.deploy_id));
}

#[tokio::test]
async fn a_failed_synchronization_is_recorded_once_however_often_it_is_seen() {
    let r = recording(&EventKind::ALL);
    let script = SyncScript::Fails {
        duration: Duration::ZERO,
        reason: "Cannot connect to the remote".into(),
    };
    r.memory.add_remote(&r.fx.tools, script);
    let operator = Operator::placeholder();
    sync::start_sync(&r.state, &r.fx.tools, &operator)
        .await
        .expect("started");
    let failed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let cell = sync::current_sync(&r.state, &r.fx.tools).await.unwrap();
            if matches!(cell.state, SyncState::Failed(_)) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    failed.await.expect("the synchronization fails");
    sync::current_sync(&r.state, &r.fx.tools).await.unwrap();
    dashboard::dashboard(&r.state, 0).await;
    let events = r.outbox.events();
    assert_eq!(kinds(&events), [EventKind::SyncFailed]);
    let EventData::SyncFailed(data) = &events[0].data else {
        unreachable!()
    };
    assert_eq!(data.repository.name, "tools");
    assert!(data.reason.contains("failed in Pulp"), "{data:?}");
    assert!(
        !data.reason.contains("Cannot connect"),
        "Pulp's words stay in the console's log: {data:?}"
    );
    assert!(data.task.as_str().contains("/tasks/"), "{data:?}");

    // A console started again over the same outbox knows the fact already.
    let hooks = r.state.events().unwrap().subscriptions().to_vec();
    let fresh = Events::new(r.outbox.clone(), hooks, Arc::new(SystemClock));
    let again = r.state.rebuild().events(fresh).build();
    dashboard::dashboard(&again, 0).await;
    assert_eq!(r.outbox.events().len(), 1);
}

/// Issue 33, attack 7, across replicas: two consoles sharing one request store (as replicas
/// share PostgreSQL) asked the same deploy 200 times at once keep one request and record one
/// `request.created`.
#[tokio::test]
async fn the_same_ask_on_two_replicas_at_once_is_one_request_and_one_event() {
    let r = recording(&EventKind::ALL);
    let approvals = Approvals::new(
        NonZeroU32::new(1).unwrap(),
        vec![Subject::parse("group:release").unwrap()],
    )
    .unwrap();
    let policy = Policy::default()
        .with_approvals(BTreeMap::from([(EnvironmentName::production(), approvals)]));
    let store = Arc::new(MemoryRequestStore::default());
    let replica = || {
        r.state
            .rebuild()
            .policy(policy.clone())
            .requests(store.clone(), chrono::Duration::hours(24))
            .build()
    };
    let replicas = [replica(), replica()];
    let alice = Operator::new("alice").unwrap();
    let request = deploy_request(4, "base-os");
    let asks = (0..200).map(|i| deploy(&replicas[i % 2], &r.fx.base_os, &request, &alice));
    let mut ids = std::collections::BTreeSet::new();
    for outcome in futures::future::join_all(asks).await {
        let DeployOutcome::Requested(asked) = outcome else {
            panic!("a request: {outcome:?}")
        };
        ids.insert(asked.id.to_string());
    }
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert_eq!(kinds(&r.outbox.events()), [EventKind::RequestCreated]);
    use repo_console::ports::RequestStore;
    assert_eq!(store.recent(None, 10).await.unwrap().len(), 1);
}
