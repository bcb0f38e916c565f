//! Issue 25, the drift reconciler over the in-memory Pulp: a distribution changed behind the
//! console's back is found by the background check, which sets
//! `repo_console_drift{repository,environment}` to 1 (0 when it matches again) and records
//! `drift.detected` once per outside change, whoever checks again (the same console, or
//! another one over the same outbox); its upstream cost is a few calls per page of
//! repositories, whatever their number.

use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::metrics::Metrics;
use repo_console::app::{events::reconcile, Events};
use repo_console::domain::event::{EventData, EventKind};
use repo_console::domain::repository::VersionNumber;
use repo_console::ports::{DriftReading, EventMetrics};
use tokio::sync::oneshot;

use crate::events::{recording, Recording};
use crate::helpers::*;

const DRIFTED: &str = "repo_console_drift{repository=\"base-os\",environment=\"production\"} 1";
const MATCHES: &str = "repo_console_drift{repository=\"base-os\",environment=\"production\"} 0";

/// base-os deployed to v4 through the console.
async fn deployed_v4() -> Recording {
    let r = recording(&EventKind::ALL);
    assert_deployed(&deploy_v4(&r.state, &r.fx.base_os).await);
    r
}

fn base_os(readings: &[DriftReading]) -> Vec<bool> {
    readings
        .iter()
        .filter(|r| r.repository == "base-os")
        .map(|r| r.drifted)
        .collect()
}

fn drift_events(r: &Recording) -> Vec<EventData> {
    r.outbox
        .events()
        .into_iter()
        .filter(|e| e.kind() == EventKind::DriftDetected)
        .map(|e| e.data)
        .collect()
}

#[tokio::test]
async fn an_outside_change_is_found_and_told_once() {
    let r = deployed_v4().await;
    let found = reconcile::check(&r.state).await;
    assert!(found.complete);
    assert_eq!(base_os(&found.readings), [false], "{:?}", found.readings);
    assert!(
        found.readings.iter().all(|r| !r.drifted),
        "nothing else the console deployed"
    );
    assert!(drift_events(&r).is_empty());

    let v3 = r.memory.publish(&r.fx.base_os, VersionNumber::new(3));
    r.memory.point_distribution("base-os-prod", &v3);
    let found = reconcile::check(&r.state).await;
    assert_eq!(base_os(&found.readings), [true]);
    let told = drift_events(&r);
    assert_eq!(told.len(), 1);
    let EventData::DriftDetected(data) = &told[0] else {
        unreachable!()
    };
    assert_eq!(
        (
            data.from_version,
            data.to_version,
            data.distribution.as_str()
        ),
        (4, Some(3), "base-os-prod")
    );

    // Checked again, by this console and by a fresh one over the same outbox: still once.
    reconcile::check(&r.state).await;
    let hooks = r.state.events().unwrap().subscriptions().to_vec();
    let fresh = Events::new(r.outbox.clone(), hooks, Arc::new(SystemClock));
    let replica = r.state.rebuild().events(fresh).build();
    let found = reconcile::check(&replica).await;
    assert_eq!(base_os(&found.readings), [true], "it still drifts");
    assert_eq!(drift_events(&r).len(), 1);

    // Another outside change is another fact.
    let v1 = r.memory.publish(&r.fx.base_os, VersionNumber::new(1));
    r.memory.point_distribution("base-os-prod", &v1);
    reconcile::check(&r.state).await;
    assert_eq!(drift_events(&r).len(), 2);
}

#[tokio::test]
async fn the_background_check_sets_the_gauge_to_one_then_back_to_zero() {
    let r = deployed_v4().await;
    let metrics = Arc::new(Metrics::new());
    let (stop, stopped) = oneshot::channel::<()>();
    let measured = r.state.rebuild().metrics(metrics.clone()).build();
    let worker = tokio::spawn(reconcile::work(
        measured,
        Duration::from_millis(20),
        async move {
            let _ = stopped.await;
        },
    ));
    let shows = |line: &'static str| {
        let metrics = metrics.clone();
        async move {
            tokio::time::timeout(Duration::from_secs(10), async {
                while !metrics.render().lines().any(|l| l == line) {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
            .await
            .unwrap_or_else(|_| panic!("{line} never shown:\n{}", metrics.render()))
        }
    };
    shows(MATCHES).await;
    let live = r
        .memory
        .distribution("base-os-prod")
        .unwrap()
        .publication
        .unwrap();
    let v3 = r.memory.publish(&r.fx.base_os, VersionNumber::new(3));
    r.memory.point_distribution("base-os-prod", &v3);
    shows(DRIFTED).await;
    r.memory.point_distribution("base-os-prod", &live);
    shows(MATCHES).await;
    assert_eq!(drift_events(&r).len(), 1, "one outside change to v3");
    stop.send(()).unwrap();
    worker.await.expect("the reconciler stops when told");
}

#[tokio::test]
async fn a_check_costs_a_few_calls_per_page_of_repositories_whatever_their_number() {
    let r = deployed_v4().await;
    let calls_of_a_check = |r: &Recording| {
        let before = r.memory.calls().len();
        let state = r.state.clone();
        let memory = r.memory.clone();
        async move {
            reconcile::check(&state).await;
            memory.calls()[before..].to_vec()
        }
    };
    let six = calls_of_a_check(&r).await;
    for i in 0..12 {
        let id = r.memory.add_repo(&format!("extra-{i}"), verified());
        r.memory.add_version(&id, &["x-1"], &[]);
        let publication = r.memory.publish(&id, VersionNumber::new(1));
        r.memory
            .add_distribution(&format!("extra-{i}-prod"), Some(&publication));
    }
    let eighteen = calls_of_a_check(&r).await;
    assert_eq!(
        six.len(),
        eighteen.len(),
        "6 then 18 repositories, one page:\n{six:?}\n{eighteen:?}"
    );
    let mut kinds: Vec<&str> = six
        .iter()
        .map(|c| c.split(' ').next().unwrap_or(""))
        .collect();
    kinds.sort_unstable();
    assert_eq!(
        kinds,
        [
            "list_distributions",
            "list_repos",
            "publications",
            "sync_states"
        ],
        "the repositories, every distribution, what they serve, the newest syncs"
    );
}
