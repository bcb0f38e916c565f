//! Issue 46: approvals and schedules on a Debian repository against the real Pulp, the same
//! use cases as for RPM. Each test makes its `deb/apt` repository anew (`rcdeb3-approvals`,
//! `rcdeb3-schedules`: versions as `apt.rs` makes them, the distributions `<repo>-testing`
//! and `<repo>-staging` serving v1, unsigned, under a policy that allows unsigned metadata).
//! A deploy to staging, which needs one approval by group:release, is requested by alice,
//! refused to her own approval, approved by bob, and lands: staging's distribution serves a
//! publication of the version asked. A schedule on the Debian repository fires a few seconds
//! ahead and moves testing's distribution; under the default policy (unsigned metadata
//! refused) the same schedule is refused as not verified. Pulp itself is read to tell. Needs the real Pulp
//! with pulp_deb, and dpkg-deb.

use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::MemoryScheduleStore;
use repo_console::app::deploy::DeployOutcome;
use repo_console::app::schedules::make::NotScheduled;
use repo_console::app::schedules::{make, run};
use repo_console::domain::deploy::Refusal;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Approvals, Policy, Subject};
use repo_console::domain::schedule::ScheduleState;

use super::apt::{allowing_unsigned_metadata, environment_path, make_repository, uploaded};
use super::console::over_upstream;
use super::policy::request_id;
use super::schedules::{alice, ask, ended};
use super::support::{exclusive, required_pulp, TestPulp};
use crate::host_tools::required;

/// The version of its repository that the `deb/apt` distribution `name` serves, by Pulp.
fn served_version(pulp: &TestPulp, name: &str) -> u64 {
    let href = pulp
        .href_named("distributions/deb/apt/", name)
        .unwrap_or_else(|| panic!("no distribution {name}"));
    let publication = pulp.raw_ok("GET", &href, None)["publication"]
        .as_str()
        .unwrap_or_else(|| panic!("{name} serves no publication"))
        .to_owned();
    pulp.publication_version(&publication).1
}

/// Unsigned metadata allowed, and staging's deploys need one approval by group:release.
fn staging_needs_release() -> Policy {
    let approvers = vec![Subject::parse("group:release").expect("a subject")];
    let approvals = Approvals::new(NonZeroU32::new(1).expect("one"), approvers).expect("approvers");
    allowing_unsigned_metadata().with_approvals(BTreeMap::from([(
        EnvironmentName::parse("staging").expect("a name"),
        approvals,
    )]))
}

#[tokio::test]
#[ignore = "needs a real Pulp with pulp_deb and dpkg-deb"]
async fn a_debian_deploy_needing_approval_is_requested_approved_by_someone_else_and_lands() {
    const REPO: &str = "rcdeb3-approvals";
    let dpkg_deb = required("dpkg-deb", "dpkg");
    let pulp = required_pulp();
    let _held = exclusive(REPO).await;
    let packages = uploaded(&pulp, &dpkg_deb);
    let id = make_repository(&pulp, REPO, &["testing", "staging"], &packages, None);
    let staging = format!("{REPO}-staging");
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()])
        .with_groups("X-Remote-Groups");
    let console = over_upstream(Arc::new(pulp.client()), 500)
        .environments(environment_path())
        .policy(staging_needs_release())
        .identity(Arc::new(identity))
        .requests()
        .spawn()
        .await;

    let asked = console
        .send_as(
            "POST",
            &format!("/repos/{id}/deploy"),
            "alice",
            "dev",
            &format!("version=3&env=staging&confirm={REPO}&live=1&reason=rebuild+b1"),
        )
        .await;
    let request = request_id(&asked);
    assert_eq!(
        served_version(&pulp, &staging),
        1,
        "a request changes nothing in Pulp"
    );

    let approve = |user: &'static str, groups: &'static str| {
        let path = format!("/requests/{request}/approve");
        let console = &console;
        async move {
            console
                .send_as("POST", &path, user, groups, &format!("confirm={REPO}"))
                .await
        }
    };
    let own = approve("alice", "dev,release").await;
    assert_eq!(own.status, 403, "self-approval: {}", own.body);
    assert!(
        own.body.contains("someone else must approve"),
        "{}",
        own.body
    );
    assert_eq!(
        served_version(&pulp, &staging),
        1,
        "a refused approval changes nothing in Pulp"
    );

    let approved = approve("bob", "release").await;
    assert_eq!(approved.status, 200, "{}", approved.body);
    assert_eq!(
        served_version(&pulp, &staging),
        3,
        "the approved deploy moved staging's distribution to v3"
    );
    assert_eq!(
        served_version(&pulp, &format!("{REPO}-testing")),
        1,
        "testing untouched"
    );
    let lines = console.audit_lines();
    let outcome = lines.last().expect("the deploy was audited");
    assert_eq!(outcome["outcome"], "deployed", "{outcome}");
    assert_eq!(outcome["request"]["requester"], "alice", "{outcome}");
    assert_eq!(
        outcome["request"]["approvers"],
        serde_json::json!(["bob"]),
        "{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a real Pulp with pulp_deb and dpkg-deb"]
async fn a_schedule_on_a_debian_repository_fires_and_moves_its_distribution() {
    const REPO: &str = "rcdeb3-schedules";
    let dpkg_deb = required("dpkg-deb", "dpkg");
    let pulp = required_pulp();
    let _held = exclusive(REPO).await;
    let packages = uploaded(&pulp, &dpkg_deb);
    let id = make_repository(&pulp, REPO, &["testing", "staging"], &packages, None);
    let testing = format!("{REPO}-testing");

    // Under the default policy (unsigned metadata refused) the unsigned Debian repository is
    // not scheduled: the same verification gate as a deploy's, and Pulp is not touched.
    let strict = over_upstream(Arc::new(pulp.client()), 500)
        .environments(environment_path())
        .configure(|state| {
            state.schedules(
                Arc::new(MemoryScheduleStore::default()),
                chrono::Duration::minutes(10),
            )
        })
        .spawn()
        .await;
    let refused = make::schedule(
        &strict.state,
        &id,
        ask(4, "testing", 1),
        chrono::Utc::now() + chrono::Duration::seconds(3),
        &alice(),
    )
    .await;
    match refused {
        Err(NotScheduled::Deploy(outcome)) => assert!(
            matches!(
                *outcome,
                DeployOutcome::Refused(Refusal::NotVerified(ref why)) if why.contains("unsigned_metadata")
            ),
            "{outcome:?}"
        ),
        other => panic!("refused as not verified: {other:?}"),
    }
    assert_eq!(
        served_version(&pulp, &testing),
        1,
        "a refusal changes nothing"
    );

    let store = Arc::new(MemoryScheduleStore::default());
    let kept = store.clone();
    let console = over_upstream(Arc::new(pulp.client()), 500)
        .environments(environment_path())
        .policy(allowing_unsigned_metadata())
        .configure(move |state| state.schedules(kept, chrono::Duration::minutes(10)))
        .spawn()
        .await;
    let state = console.state.clone();
    let made = make::schedule(
        &state,
        &id,
        ask(4, "testing", 1),
        chrono::Utc::now() + chrono::Duration::seconds(3),
        &alice(),
    )
    .await
    .expect("scheduled");
    assert_eq!(
        served_version(&pulp, &testing),
        1,
        "making a schedule changes nothing in Pulp"
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let worker = tokio::spawn(run::work(state.clone(), Duration::from_secs(1), async {
        let _ = stopped.await;
    }));

    let done = ended(&state, store.as_ref(), &made.schedule.id).await;
    let _ = stop.send(());
    worker.await.expect("the worker stops");
    assert!(matches!(done, ScheduleState::Done { .. }), "{done:?}");
    assert_eq!(
        served_version(&pulp, &testing),
        4,
        "the schedule moved testing's distribution to v4"
    );
    assert_eq!(
        served_version(&pulp, &format!("{REPO}-staging")),
        1,
        "staging untouched"
    );
}
