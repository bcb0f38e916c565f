//! Every fault at every deploy step: the answer says truthfully whether production changed,
//! and what Pulp shows afterwards agrees with it.

use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::memory::{Fault, InMemoryPulp, MemoryOptions, Op};
use repo_console::app::deploy::{deploy, DeployOutcome, DeployStep};
use repo_console::domain::{DeployRequest, ProductionChanged, SeenLive, VersionNumber};

use crate::helpers::*;

fn faults() -> Vec<Fault> {
    vec![
        Fault::Http(400),
        Fault::Http(404),
        Fault::Http(500),
        Fault::Timeout,
        Fault::Reset,
        Fault::Interrupted,
        Fault::Malformed,
        Fault::TaskFailed("worker lost".into()),
        Fault::TaskCanceled,
        Fault::TaskNeverEnds,
        Fault::AppliedThenTimeout,
    ]
}

/// What the console must answer for a fault in the distribution step.
fn expected_at_distribution(fault: &Fault) -> ProductionChanged {
    match fault {
        Fault::Http(status) if *status < 500 => ProductionChanged::No,
        Fault::Reset | Fault::TaskFailed(_) | Fault::TaskCanceled => ProductionChanged::No,
        Fault::AppliedThenTimeout => ProductionChanged::Yes,
        Fault::Http(_)
        | Fault::Timeout
        | Fault::Interrupted
        | Fault::Malformed
        | Fault::TaskNeverEnds => ProductionChanged::Unknown,
    }
}

struct Run {
    outcome: DeployOutcome,
    live_after: Option<u64>,
    audit: Vec<serde_json::Value>,
}

async fn run_with(op: Op, fault: Fault) -> Run {
    let options = MemoryOptions {
        task_delay: Duration::ZERO,
        task_timeout: Duration::from_millis(200),
        ..Default::default()
    };
    let memory = Arc::new(InMemoryPulp::new(options));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let audit_path = dir.path().join("audit.jsonl");
    let (state, pulp) = test_state(&memory, &audit_path);
    pulp.set(op, fault);
    let request = DeployRequest {
        target: VersionNumber::new(4),
        confirm: "base-os".into(),
        seen_live: SeenLive::Version(VersionNumber::new(2)),
    };
    let outcome = deploy(&state, &fx.base_os, &request).await;
    let dist = memory.distribution("base-os-prod").unwrap();
    let live_after = dist
        .publication
        .and_then(|p| memory.publication_version(&p))
        .map(|n| n.get());
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
        DeployOutcome::Refused(_) | DeployOutcome::NotStarted(_) => (None, ProductionChanged::No),
    }
}

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
    for fault in faults() {
        let case = format!("publish {fault:?}");
        let run = run_with(Op::CreatePublication, fault).await;
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
async fn every_fault_in_the_distribution_step_is_answered_truthfully() {
    for fault in faults() {
        let case = format!("distribution {fault:?}");
        let expected = expected_at_distribution(&fault);
        let run = run_with(Op::UpdateDistribution, fault).await;
        assert_eq!(
            claimed(&run.outcome),
            (Some(DeployStep::PointDistribution), expected),
            "{case}: {:?}",
            run.outcome
        );
        assert_truthful(&case, &run);
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
            let run = run_with(op, fault).await;
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
        let run = run_with(Op::GetDistribution, fault).await;
        assert_eq!(
            claimed(&run.outcome),
            (Some(DeployStep::PointDistribution), ProductionChanged::No),
            "{case}"
        );
        assert_truthful(&case, &run);
    }
}
