//! Every fault at every deploy step: on the first request of each step, on every poll of its
//! task, and on the re-read after it. The answer must be truthful, checked against what the
//! fake Pulp shows once every queued task has run: "no" only when production still serves
//! v2 then, "yes" only when it serves v4.

use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::memory::{Fault, FaultyPulp, InMemoryPulp, MemoryOptions, Op};
use repo_console::app::deploy::{deploy, DeployOutcome, DeployStep};
use repo_console::domain::deploy::{DeployRequest, ProductionChanged, SeenLive};
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::VersionNumber;

use crate::helpers::*;

/// How long the console waits for a task before its outcome counts as unknown.
const TASK_TIMEOUT: Duration = Duration::from_millis(100);
/// A slow task: still running when the console gives up on it.
const SLOW: Duration = Duration::from_millis(250);

fn request_faults() -> Vec<Fault> {
    vec![
        Fault::Http(400),
        Fault::Http(401),
        Fault::Http(404),
        Fault::Http(500),
        Fault::Timeout,
        Fault::Reset,
        Fault::Interrupted,
        Fault::Malformed,
    ]
}

fn task_faults() -> Vec<Fault> {
    vec![
        Fault::TaskFailed("worker lost".into()),
        Fault::TaskCanceled,
        Fault::TaskNeverEnds,
        Fault::AppliedThenTimeout,
        Fault::LostAnswer,
        Fault::Slow(SLOW),
    ]
}

/// What the console must answer for a fault on the distribution step's first request.
fn expected_at_distribution(fault: &Fault) -> ProductionChanged {
    use ProductionChanged::{No, Unknown, Yes};
    match fault {
        Fault::Http(status) if *status < 500 => No,
        Fault::Reset | Fault::TaskFailed(_) | Fault::TaskCanceled => No,
        // The change landed, or was queued and landed before the re-read: proven by it.
        Fault::AppliedThenTimeout | Fault::LostAnswer => Yes,
        // Still running when the console gave up: it lands later.
        Fault::Slow(_) => Unknown,
        Fault::Http(_) | Fault::Timeout | Fault::Interrupted | Fault::Malformed => Unknown,
        Fault::TaskNeverEnds => Unknown,
    }
}

struct Run {
    outcome: DeployOutcome,
    /// What production serves once every queued task has run.
    live_after: Option<u64>,
    audit: Vec<serde_json::Value>,
}

async fn run_with(arm: impl FnOnce(&FaultyPulp)) -> Run {
    let options = MemoryOptions {
        task_delay: Duration::ZERO,
        task_timeout: TASK_TIMEOUT,
        ..Default::default()
    };
    let memory = Arc::new(InMemoryPulp::new(options));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let audit_path = dir.path().join("audit.jsonl");
    let (state, pulp) = test_state(&memory, &audit_path);
    arm(&pulp);
    let request = DeployRequest {
        seen_live: SeenLive::Version(VersionNumber::new(2)),
        ..deploy_request(4, "base-os")
    };
    let outcome = deploy(&state, &fx.base_os, &request, &Operator::placeholder()).await;
    tokio::time::sleep(SLOW).await;
    memory.settle_tasks();
    let live_after = memory.serving_version("base-os-prod").map(|n| n.get());
    let audit = std::fs::read_to_string(&audit_path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Run {
        outcome,
        live_after,
        audit,
    }
}

fn claimed(outcome: &DeployOutcome) -> (Option<DeployStep>, ProductionChanged) {
    match outcome {
        DeployOutcome::Failed {
            step,
            production_changed,
            ..
        } => (Some(*step), *production_changed),
        DeployOutcome::Deployed { .. } => (None, ProductionChanged::Yes),
        DeployOutcome::Refused(_) | DeployOutcome::NotStarted(_) | DeployOutcome::Requested(_) => {
            (None, ProductionChanged::No)
        }
    }
}

/// The deploy failed at `step` claiming `changed`, truthfully.
fn assert_claim(case: &str, run: &Run, step: DeployStep, changed: ProductionChanged) {
    assert_eq!(
        claimed(&run.outcome),
        (Some(step), changed),
        "{case}: {:?}",
        run.outcome
    );
    assert_truthful(case, run);
}

/// The claim agrees with what Pulp shows after every queued task ran, and with the audit.
fn assert_truthful(case: &str, run: &Run) {
    let (_, changed) = claimed(&run.outcome);
    match changed {
        ProductionChanged::No => assert_eq!(run.live_after, Some(2), "{case}: said unchanged"),
        ProductionChanged::Yes => assert_eq!(run.live_after, Some(4), "{case}: said changed"),
        ProductionChanged::Unknown => {}
    }
    if let Some(last) = run.audit.last() {
        let said = match changed {
            ProductionChanged::No => "no",
            ProductionChanged::Yes => "yes",
            ProductionChanged::Unknown => "unknown",
        };
        if last["outcome"] == "failed" {
            assert_eq!(
                last["production_changed"], said,
                "{case}: the audit line agrees"
            );
        }
    }
}

#[tokio::test]
async fn every_fault_in_the_publish_step_leaves_production_unchanged() {
    for fault in request_faults().into_iter().chain(task_faults()) {
        let case = format!("publish {fault:?}");
        let run = run_with(|p| p.set(Op::CreatePublication, fault)).await;
        assert_eq!(
            claimed(&run.outcome),
            (Some(DeployStep::Publish), ProductionChanged::No),
            "{case}: {:?}",
            run.outcome
        );
        assert_truthful(&case, &run);
        assert_eq!(run.audit.len(), 2, "{case}: started and failed lines");
    }
}

#[tokio::test]
async fn every_fault_on_the_publish_tasks_polls_leaves_production_unchanged() {
    for fault in request_faults() {
        let case = format!("publish polls {fault:?}");
        let run = run_with(|p| p.fail_polls(Op::CreatePublication, fault, None)).await;
        assert_eq!(
            claimed(&run.outcome),
            (Some(DeployStep::Publish), ProductionChanged::No),
            "{case}: {:?}",
            run.outcome
        );
        let DeployOutcome::Failed { error, task, .. } = &run.outcome else {
            unreachable!()
        };
        assert!(
            error
                .to_string()
                .contains("may still create the publication")
                && task.is_some(),
            "{case}: the operator learns a publication may appear, and which task: {error}"
        );
        assert_truthful(&case, &run);
    }
}

#[tokio::test]
async fn every_fault_on_the_distribution_steps_first_request_is_answered_truthfully() {
    for fault in request_faults().into_iter().chain(task_faults()) {
        let case = format!("distribution {fault:?}");
        let expected = expected_at_distribution(&fault);
        let run = run_with(|p| p.set(Op::UpdateDistribution, fault)).await;
        assert_claim(&case, &run, DeployStep::PointDistribution, expected);
    }
}

#[tokio::test]
async fn a_queued_change_whose_polls_fail_is_never_said_to_have_left_production_unchanged() {
    // The distribution task is accepted and still runs; every look at it fails. It lands
    // after the console gave up: the only truthful answer then is "unknown".
    for fault in request_faults() {
        let case = format!("distribution polls {fault:?} on a running task");
        let run = run_with(|p| {
            p.set(Op::UpdateDistribution, Fault::Slow(SLOW));
            p.fail_polls(Op::UpdateDistribution, fault, None);
        })
        .await;
        assert_claim(
            &case,
            &run,
            DeployStep::PointDistribution,
            ProductionChanged::Unknown,
        );
        assert_eq!(run.live_after, Some(4), "{case}: the queued task landed");
    }
}

#[tokio::test]
async fn polls_that_fail_for_a_moment_are_retried_and_the_deploy_completes() {
    for fault in request_faults() {
        let case = format!("distribution polls blip {fault:?}");
        let run = run_with(|p| p.fail_polls(Op::UpdateDistribution, fault, Some(2))).await;
        assert!(
            matches!(run.outcome, DeployOutcome::Deployed { .. }),
            "{case}: {:?}",
            run.outcome
        );
        assert_truthful(&case, &run);
    }
}

#[tokio::test]
async fn a_reread_that_fails_after_an_inconclusive_answer_gives_unknown_never_no() {
    let inconclusive = [
        Fault::TaskFailed("worker lost".into()),
        Fault::TaskNeverEnds,
        Fault::LostAnswer,
        Fault::Slow(SLOW),
        Fault::Http(500),
    ];
    for fault in inconclusive {
        for reread in [Fault::Http(500), Fault::Timeout, Fault::Reset] {
            let case = format!("distribution {fault:?}, re-read {reread:?}");
            let run = run_with(|p| {
                p.set(Op::UpdateDistribution, fault.clone());
                // The check before step 2 passes; the re-read after it fails.
                p.set_after(Op::GetDistribution, reread, 1);
            })
            .await;
            assert_claim(
                &case,
                &run,
                DeployStep::PointDistribution,
                ProductionChanged::Unknown,
            );
        }
    }
}

#[tokio::test]
async fn a_fault_while_reading_before_the_steps_changes_nothing_and_audits_nothing() {
    for op in [Op::GetRepo, Op::ListVersions, Op::ListDistributions] {
        for fault in [
            Fault::Http(500),
            Fault::Timeout,
            Fault::Reset,
            Fault::Malformed,
        ] {
            let case = format!("{op:?} {fault:?}");
            let run = run_with(|p| p.set(op, fault)).await;
            assert!(
                matches!(run.outcome, DeployOutcome::NotStarted(_)),
                "{case}: {:?}",
                run.outcome
            );
            assert_eq!(run.live_after, Some(2), "{case}");
            assert!(run.audit.is_empty(), "{case}");
        }
    }
}

#[tokio::test]
async fn a_fault_in_the_check_before_the_distribution_step_stops_with_production_unchanged() {
    for fault in [Fault::Http(500), Fault::Timeout, Fault::Interrupted] {
        let case = format!("re-read {fault:?}");
        let run = run_with(|p| p.set(Op::GetDistribution, fault)).await;
        assert_eq!(
            claimed(&run.outcome),
            (Some(DeployStep::PointDistribution), ProductionChanged::No),
            "{case}"
        );
        assert_truthful(&case, &run);
    }
}
