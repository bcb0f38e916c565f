//! The use cases over in-memory adapters: every row of the spec's Errors table and every
//! transition of its deploy state table.

use std::sync::Arc;

use repo_console::adapters::memory::{Fault, InMemoryPulp, MemoryOptions, Op};
use repo_console::app::deploy::{deploy, DeployOutcome, DeployStep, StepError};
use repo_console::app::pages::versions::versions_page;
use repo_console::domain::deploy::{DeployRequest, ProductionChanged, Refusal};
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::{RepoId, VersionNumber};
use tokio_test::assert_ok;

use crate::helpers::*;

struct Setup {
    memory: Arc<InMemoryPulp>,
    pulp: Arc<repo_console::adapters::memory::FaultyPulp>,
    state: repo_console::app::AppState,
    fx: Fixture,
    _dir: tempfile::TempDir,
}

fn setup() -> Setup {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay: std::time::Duration::ZERO,
        task_timeout: std::time::Duration::from_millis(300),
        ..Default::default()
    }));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, pulp) = test_state(&memory, &dir.path().join("audit.jsonl"));
    Setup {
        memory,
        pulp,
        state,
        fx,
        _dir: dir,
    }
}

/// The step, verdict and error of a deploy that must have failed.
fn failed(outcome: DeployOutcome) -> (DeployStep, ProductionChanged, StepError) {
    match outcome {
        DeployOutcome::Failed {
            step,
            production_changed,
            error,
            ..
        } => (step, production_changed, error),
        other => panic!("expected a failed deploy, got {other:?}"),
    }
}

/// Deploys through the setup's state as the placeholder operator.
async fn deploy_with(s: &Setup, id: &RepoId, request: DeployRequest) -> DeployOutcome {
    deploy(&s.state, id, &request, &Operator::placeholder()).await
}

// ---- Errors table

#[tokio::test]
async fn get_repo_failing_renders_the_page_with_the_error_and_no_versions() {
    let s = setup();
    s.pulp.set(Op::GetRepo, Fault::Http(500));
    let page = assert_ok!(versions_page(&s.state, &s.fx.base_os, first_screen()).await);
    assert_eq!(
        page.repo_name,
        s.fx.base_os.as_str(),
        "the uuid stands in for the name"
    );
    assert!(page.versions.is_empty());
    assert!(page.error.unwrap().to_string().contains("HTTP 500"));
}

#[tokio::test]
async fn list_versions_failing_renders_the_page_with_the_error_and_no_versions() {
    let s = setup();
    s.pulp.set(Op::ListVersions, Fault::Http(503));
    let page = assert_ok!(versions_page(&s.state, &s.fx.base_os, first_screen()).await);
    assert_eq!(page.repo_name, s.fx.base_os.as_str());
    assert!(page.versions.is_empty());
    assert!(page.error.is_some());
}

#[tokio::test]
async fn list_distributions_failing_means_deployed_is_unknown() {
    let s = setup();
    s.pulp.set(Op::ListDistributions, Fault::Timeout);
    let page = assert_ok!(versions_page(&s.state, &s.fx.base_os, first_screen()).await);
    assert_eq!(page.deployed, None);
    assert!(page.deployed_unknown.is_some());
    assert_eq!(page.versions.len(), 5, "the page is still rendered");
    assert!(page.versions.iter().all(|v| !v.deployed));
}

#[tokio::test]
async fn a_publication_that_cannot_be_fetched_skips_its_distribution() {
    let s = setup();
    // The one-call join fails, so publications are fetched one by one; base-os's fails.
    s.pulp.set(Op::ListPublications, Fault::Http(500));
    let live = s
        .memory
        .distribution("base-os-prod")
        .unwrap()
        .publication
        .unwrap();
    s.pulp.fail_publication(&live);
    let second = s.memory.publish(&s.fx.base_os, VersionNumber::new(3));
    s.memory.add_distribution("base-os-mirror", Some(&second));
    let page = assert_ok!(versions_page(&s.state, &s.fx.base_os, first_screen()).await);
    assert_eq!(
        page.deployed,
        Some(VersionNumber::new(3)),
        "the next distribution decides"
    );
}

#[tokio::test]
async fn the_verification_gate_failing_refuses_and_leaves_upstream_unchanged() {
    let s = setup();
    let outcome = deploy_with(&s, &s.fx.tools, deploy_request(2, "tools")).await;
    assert!(
        matches!(outcome, DeployOutcome::Refused(Refusal::NotVerified(_))),
        "{outcome:?}"
    );
    assert!(s
        .memory
        .calls()
        .iter()
        .all(|c| !c.starts_with("create_publication") && !c.starts_with("update_distribution")));
}

#[tokio::test]
async fn a_failure_in_the_distribution_step_says_production_did_not_change() {
    let s = setup();
    s.pulp.set(
        Op::UpdateDistribution,
        Fault::TaskFailed("distribution is locked".into()),
    );
    let outcome = deploy_with(&s, &s.fx.base_os, deploy_request(4, "base-os")).await;
    let (step, production_changed, error) = failed(outcome);
    assert_eq!(step, DeployStep::PointDistribution);
    assert_eq!(production_changed, ProductionChanged::No);
    let shown = error.to_string();
    assert!(shown.contains("the Pulp task failed"), "{shown}");
    assert!(
        !shown.contains("distribution is locked"),
        "Pulp's words stay in the log: {shown}"
    );
    let page = assert_ok!(versions_page(&s.state, &s.fx.base_os, first_screen()).await);
    assert_eq!(page.deployed, Some(VersionNumber::new(2)));
}

// ---- Deploy state table

#[tokio::test]
async fn not_deployed_to_deployed_when_the_gate_passes_and_both_steps_succeed() {
    let s = setup();
    let outcome = deploy_with(&s, &s.fx.base_os, deploy_request(3, "base-os")).await;
    assert!(
        matches!(outcome, DeployOutcome::Deployed { audit: Ok(()), .. }),
        "{outcome:?}"
    );
    let page = assert_ok!(versions_page(&s.state, &s.fx.base_os, first_screen()).await);
    assert_eq!(page.deployed, Some(VersionNumber::new(3)));
    let flags: Vec<(u64, bool)> = page
        .versions
        .iter()
        .map(|v| (v.number.unwrap().get(), v.deployed))
        .collect();
    assert_eq!(
        flags,
        [(4, false), (3, true), (2, false), (1, false), (0, false)],
        "the previous one is no longer deployed"
    );
}

#[tokio::test]
async fn a_publish_failure_leaves_production_unchanged() {
    let s = setup();
    for fault in [
        Fault::Http(400),
        Fault::Reset,
        Fault::TaskFailed("disk full".into()),
        Fault::TaskCanceled,
    ] {
        s.pulp.set(Op::CreatePublication, fault.clone());
        let outcome = deploy_with(&s, &s.fx.base_os, deploy_request(4, "base-os")).await;
        let (step, production_changed, _) = failed(outcome);
        assert_eq!(
            (step, production_changed),
            (DeployStep::Publish, ProductionChanged::No),
            "{fault:?}"
        );
    }
    assert_eq!(
        assert_ok!(versions_page(&s.state, &s.fx.base_os, first_screen()).await).deployed,
        Some(VersionNumber::new(2))
    );
}

#[tokio::test]
async fn a_lost_answer_after_the_change_landed_is_reported_as_changed() {
    let s = setup();
    s.pulp
        .set(Op::UpdateDistribution, Fault::AppliedThenTimeout);
    let outcome = deploy_with(&s, &s.fx.base_os, deploy_request(4, "base-os")).await;
    let (_, production_changed, _) = failed(outcome);
    assert_eq!(
        production_changed,
        ProductionChanged::Yes,
        "the distribution was read again"
    );
}

#[tokio::test]
async fn an_ambiguous_failure_that_cannot_be_checked_is_unknown() {
    let s = setup();
    s.pulp.set(Op::UpdateDistribution, Fault::Timeout);
    s.pulp.set_after(Op::GetDistribution, Fault::Reset, 1); // the check before step 2 passes, the re-read fails
    let outcome = deploy_with(&s, &s.fx.base_os, deploy_request(4, "base-os")).await;
    let (_, production_changed, _) = failed(outcome);
    assert_eq!(production_changed, ProductionChanged::Unknown);
}

#[tokio::test]
async fn deploying_the_deployed_version_is_refused() {
    let s = setup();
    let outcome = deploy_with(&s, &s.fx.base_os, deploy_request(2, "base-os")).await;
    assert!(
        matches!(
            outcome,
            DeployOutcome::Refused(Refusal::AlreadyDeployed { version: 2, .. })
        ),
        "{outcome:?}"
    );
}

#[tokio::test]
async fn the_versions_page_makes_its_upstream_calls_concurrently() {
    let latency = std::time::Duration::from_millis(40);
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        latency,
        ..Default::default()
    }));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = test_state(&memory, &dir.path().join("a.jsonl"));
    memory.take_most_in_flight();
    let page = assert_ok!(versions_page(&state, &fx.base_os, first_screen()).await);
    assert_eq!(page.deployed, Some(VersionNumber::new(2)));
    assert_eq!(
        memory.take_most_in_flight(),
        3,
        "first load: the repository, a screen of versions and production's candidates at once"
    );
    assert_ok!(versions_page(&state, &fx.base_os, first_screen()).await);
    assert_eq!(
        memory.take_most_in_flight(),
        3,
        "no record of production's changes while the console never changed production"
    );
    assert_deployed(&deploy_v4(&state, &fx.base_os).await);
    memory.take_most_in_flight();
    assert_ok!(versions_page(&state, &fx.base_os, first_screen()).await);
    assert_eq!(
        memory.take_most_in_flight(),
        4,
        "once it did, production's record too, at once with the rest (production's \
         distribution is known from the loads before)"
    );
    // That record was read before this load saw the revision the deploy wrote: it is read
    // again, still at once with the rest, then kept.
    let calls = memory.calls().len();
    assert_ok!(versions_page(&state, &fx.base_os, first_screen()).await);
    assert_eq!(memory.take_most_in_flight(), 4);
    let records = |from: usize| {
        memory.calls()[from..]
            .iter()
            .filter(|c| c.starts_with("distribution_changes"))
            .count()
    };
    assert_eq!(records(calls), 1);
    let calls = memory.calls().len();
    assert_ok!(versions_page(&state, &fx.base_os, first_screen()).await);
    assert_eq!(
        (memory.take_most_in_flight(), records(calls)),
        (3, 0),
        "kept while the distribution is unwritten"
    );
}

#[tokio::test]
async fn an_audit_write_that_fails_after_the_change_is_reported_with_the_deploy() {
    let s = setup();
    let audit = Arc::new(repo_console::adapters::memory::RecordingAuditSink::default());
    audit.fail_after(1, "disk full");
    let state = s.state.rebuild().audit(audit.clone()).build();
    let outcome = deploy_v4(&state, &s.fx.base_os).await;
    let DeployOutcome::Deployed {
        audit: Err(error), ..
    } = outcome
    else {
        panic!("production changed, and the failed outcome line must say so: {outcome:?}")
    };
    assert!(error.to_string().contains("disk full"));
    assert_eq!(audit.records().len(), 1, "only the started line was kept");
    assert_eq!(
        assert_ok!(versions_page(&state, &s.fx.base_os, first_screen()).await).deployed,
        Some(VersionNumber::new(4))
    );
}

#[tokio::test]
async fn a_configured_production_is_read_by_name_without_listing_every_distribution() {
    let s = setup();
    let before = s.memory.calls().len();
    let page = assert_ok!(versions_page(&s.state, &s.fx.fresh, first_screen()).await);
    assert_eq!(page.deployed, None, "fresh-prod serves nothing yet");
    assert!(page.deployed_unknown.is_none());
    let calls: Vec<String> = s.memory.calls()[before..].to_vec();
    assert!(
        calls.iter().any(|c| c.starts_with("distributions_named"))
            && !calls.iter().any(|c| c == "list_distributions"),
        "{calls:?}"
    );
    let outcome = deploy_with(&s, &s.fx.fresh, deploy_request(1, "fresh")).await;
    assert!(
        matches!(outcome, DeployOutcome::Deployed { .. }),
        "{outcome:?}"
    );
    let before = s.memory.calls().len();
    let page = assert_ok!(versions_page(&s.state, &s.fx.base_os, first_screen()).await);
    assert_eq!(page.deployed, Some(VersionNumber::new(2)));
    let calls: Vec<String> = s.memory.calls()[before..].to_vec();
    assert!(
        calls.iter().any(|c| c == "list_distributions"),
        "a repository without a configured production follows the spec's rule: {calls:?}"
    );
}
