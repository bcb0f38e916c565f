//! Issue 34, no event lost: a deploy whose outcome line was written but whose event was not
//! (the console stopped between the two writes) is told at the next start, from the audit
//! log, once; what the outbox already holds is not told again; an outbox with no event yet is
//! left as it is. (The real binary killed between the two writes: `webhook_restart.rs`.)

use std::sync::Arc;

use repo_console::adapters::memory::{FixedClock, MemoryOutbox};
use repo_console::app::deploy::{deploy, DeployOutcome};
use repo_console::app::events::catch_up::{complete_from_audit, CaughtUp};
use repo_console::app::{AppState, Events};
use repo_console::domain::event::{EventData, EventKind, Subscription, WebhookUrl};
use repo_console::domain::identity::Operator;

use crate::events::{recording, Recording};
use crate::helpers::*;

/// The state of `r` with its events on the audit log's clock, kept in `outbox`.
fn on(r: &Recording, outbox: Arc<MemoryOutbox>) -> AppState {
    let hook = Subscription {
        url: WebhookUrl::parse("http://127.0.0.1:9/hook").unwrap(),
        events: EventKind::ALL.iter().copied().collect(),
    };
    let events = Events::new(outbox, vec![hook], Arc::new(FixedClock(pinned_time())));
    r.state.rebuild().events(events).build()
}

async fn deployed(state: &AppState, r: &Recording, version: u64) -> String {
    let outcome = deploy(
        state,
        &r.fx.base_os,
        &deploy_request(version, "base-os"),
        &Operator::placeholder(),
    )
    .await;
    let DeployOutcome::Deployed { deploy_id, .. } = outcome else {
        panic!("not deployed: {outcome:?}")
    };
    deploy_id.as_str().to_owned()
}

fn deploy_ids(outbox: &MemoryOutbox) -> Vec<String> {
    outbox
        .events()
        .iter()
        .map(|event| match &event.data {
            EventData::DeploymentFinished(data) => data.deploy_id.as_str().to_owned(),
            other => panic!("not a deployment: {other:?}"),
        })
        .collect()
}

#[tokio::test]
async fn an_outcome_line_whose_event_was_lost_is_told_at_the_next_start_once() {
    let r = recording(&EventKind::ALL);
    let outbox = Arc::new(MemoryOutbox::default());
    let state = on(&r, outbox.clone());
    let told = deployed(&state, &r, 3).await;
    outbox.fail(true);
    let lost = deployed(&state, &r, 4).await;
    outbox.fail(false);
    assert_eq!(
        deploy_ids(&outbox),
        std::slice::from_ref(&told),
        "the second event was lost"
    );

    let started_again = on(&r, outbox.clone());
    let caught = complete_from_audit(&started_again).await;
    assert_eq!(
        caught,
        CaughtUp {
            read: 2,
            recorded: 1
        }
    );
    assert_eq!(deploy_ids(&outbox), [told.clone(), lost.clone()]);

    let and_again = on(&r, outbox.clone());
    assert_eq!(
        complete_from_audit(&and_again).await.recorded,
        0,
        "told once"
    );
    assert_eq!(deploy_ids(&outbox), [told, lost]);
}

#[tokio::test]
async fn an_outbox_with_no_event_yet_is_not_completed() {
    let r = recording(&EventKind::ALL);
    let outbox = Arc::new(MemoryOutbox::default());
    outbox.fail(true);
    deployed(&on(&r, outbox.clone()), &r, 3).await;
    outbox.fail(false);
    let caught = complete_from_audit(&on(&r, outbox.clone())).await;
    assert_eq!(caught, CaughtUp::default());
    assert!(outbox.events().is_empty());
}
