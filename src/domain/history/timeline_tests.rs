use chrono::TimeZone;

use super::*;
use crate::domain::environment::EnvironmentName;

fn at(minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 10, minute, 0).unwrap()
}

fn line(id: &str, minute: u32, from: u64, to: u64, outcome: AuditOutcome) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(id),
        timestamp: at(minute),
        operator: "alice".into(),
        repository_uuid: "01a202de-e818-7629-a483-70ecc3240361".into(),
        repository_name: "base-os".into(),
        previous_version: Some(from),
        target_version: to,
        environment: EnvironmentName::production(),
        distribution: "base-os-prod".into(),
        publication: Some(PublicationHref::new(format!("/p/{to}/"))),
        kind: DeployKind::Deploy,
        reason: None,
        request: None,
        freeze_override: None,
        release: None,
        soak_override: None,
        schedule: None,
        checks_override: None,
        automation: None,
        outcome,
    }
}

fn change(task: &str, minute: u32, correlation: Option<&str>, by: &str) -> DistributionChange {
    DistributionChange {
        at: at(minute),
        by: by.into(),
        task: TaskHref::new(format!("/tasks/{task}/")),
        correlation: correlation.map(str::to_owned),
        state: ChangeState::Completed,
    }
}

/// A deploy of v3 (d1, minute 1), then an outside change (minute 5).
fn deploy_then_outside() -> (Vec<DeployRecord>, Vec<DistributionChange>) {
    let records = vec![
        line("d1", 1, 2, 3, AuditOutcome::Deployed),
        line("d1", 1, 2, 3, AuditOutcome::Started),
    ];
    let changes = vec![
        change("t2", 5, Some("5e9040d70f8042ab9a33ccd05fb55415"), "bob"),
        change("t1", 1, Some("d1"), "console"),
    ];
    (records, changes)
}

#[test]
fn one_entry_per_deploy_and_per_outside_change_newest_first() {
    let (records, changes) = deploy_then_outside();
    let history = build_history(&records, &changes, Some(VersionNumber::new(1)));
    assert_eq!(history.len(), 2, "{history:#?}");
    let outside = &history[0];
    assert_eq!(outside.origin, Origin::Outside);
    assert_eq!(
        (outside.who.as_str(), outside.from, outside.to),
        ("bob", None, Some(1))
    );
    assert_eq!(outside.task, Some(TaskHref::new("/tasks/t2/")));
    let console = &history[1];
    assert!(
        matches!(&console.origin, Origin::Console { deploy_id, .. } if deploy_id.as_str() == "d1")
    );
    assert_eq!(
        (console.from, console.to, console.outcome),
        (Some(2), Some(3), EntryOutcome::Deployed)
    );
    assert_eq!(
        console.task,
        Some(TaskHref::new("/tasks/t1/")),
        "its own task is attached"
    );
    assert_eq!(console.served(), Some(3));
}

#[test]
fn only_the_newest_outside_change_knows_what_it_set() {
    let changes = vec![change("t3", 9, None, "bob"), change("t2", 5, None, "carol")];
    let history = build_history(&[], &changes, Some(VersionNumber::new(4)));
    assert_eq!(history[0].to, Some(4));
    assert_eq!(
        history[1].to, None,
        "what an older outside change set is unknown"
    );
}

#[test]
fn a_started_line_without_outcome_reads_as_unfinished_and_failures_keep_their_verdict() {
    let records = vec![
        line("d2", 3, 3, 4, AuditOutcome::Started),
        line(
            "d1",
            1,
            2,
            3,
            AuditOutcome::Failed {
                production_changed: ProductionChanged::Unknown,
                error: "lost".into(),
            },
        ),
    ];
    let history = build_history(&records, &[], None);
    assert_eq!(history[0].outcome, EntryOutcome::Unfinished);
    assert_eq!(
        history[1].outcome,
        EntryOutcome::Failed(ProductionChanged::Unknown)
    );
    assert_eq!(
        history[1].served(),
        None,
        "no rollback to a version that may never have served"
    );
}

#[test]
fn an_outside_change_after_the_consoles_deploy_is_drift_with_who_and_when() {
    let (records, changes) = deploy_then_outside();
    let drift = detect_drift(&records, &changes, Some(&PublicationHref::new("/p/1/"))).unwrap();
    let change = drift.change.unwrap();
    assert_eq!((change.by.as_str(), change.at), ("bob", at(5)));
    // Even when the outside change set the same publication again.
    let same = detect_drift(&records, &changes, Some(&PublicationHref::new("/p/3/")));
    assert!(same.is_some());
}

#[test]
fn production_as_the_console_left_it_is_no_drift() {
    let (records, changes) = deploy_then_outside();
    let serving = PublicationHref::new("/p/3/");
    assert_eq!(detect_drift(&records, &changes[1..], Some(&serving)), None);
    assert_eq!(
        detect_drift(&records, &[], Some(&serving)),
        None,
        "upstream's record unread"
    );
    assert_eq!(
        detect_drift(&[], &changes, None),
        None,
        "no console deploy: nothing to drift from"
    );
}

#[test]
fn a_moved_publication_is_drift_even_without_upstreams_record() {
    let (records, _) = deploy_then_outside();
    let drift = detect_drift(&records, &[], Some(&PublicationHref::new("/p/9/")));
    assert_eq!(drift, Some(Drift { change: None }));
}

#[test]
fn a_later_console_change_is_not_an_outside_change() {
    let mut records = vec![line(
        "d2",
        4,
        3,
        4,
        AuditOutcome::Failed {
            production_changed: ProductionChanged::No,
            error: "refused".into(),
        },
    )];
    records.extend(deploy_then_outside().0);
    let changes = vec![
        DistributionChange {
            state: ChangeState::Failed,
            ..change("t9", 4, Some("d2"), "console")
        },
        change("t1", 1, Some("d1"), "console"),
    ];
    assert_eq!(
        detect_drift(&records, &changes, Some(&PublicationHref::new("/p/3/"))),
        None
    );
}

#[test]
fn a_past_entry_offers_its_version_and_the_live_ones_change_offers_undo() {
    let (records, changes) = deploy_then_outside();
    let history = build_history(&records, &changes, Some(VersionNumber::new(1)));
    assert_eq!(
        history[0].rollback_target(Some(1)),
        None,
        "live, and what it replaced is unknown"
    );
    assert_eq!(
        history[1].rollback_target(Some(1)),
        Some(3),
        "the version it set"
    );
    assert_eq!(
        history[1].rollback_target(Some(3)),
        Some(2),
        "undo: the version before"
    );
}

#[test]
fn drift_is_judged_from_the_newest_console_change_of_production_and_only_from_one() {
    let failed = |production_changed| AuditOutcome::Failed {
        production_changed,
        error: "a fault".into(),
    };
    let unchanged = vec![
        line("d3", 3, 3, 5, AuditOutcome::Started),
        line("d2", 2, 3, 4, failed(ProductionChanged::No)),
        line("d1", 1, 3, 4, failed(ProductionChanged::Unknown)),
    ];
    assert_eq!(drift_baseline(&unchanged), None);
    let (_, changes) = deploy_then_outside();
    assert_eq!(
        detect_drift(&unchanged, &changes, Some(&PublicationHref::new("/p/9/"))),
        None,
        "without a baseline nothing is claimed, whatever upstream records: its record is \
         not needed"
    );

    let mut records = vec![line("d4", 4, 4, 6, failed(ProductionChanged::Yes))];
    records.extend(unchanged);
    records.push(line("d0", 0, 2, 3, AuditOutcome::Deployed));
    let baseline = drift_baseline(&records).map(|r| r.deploy_id.as_str());
    assert_eq!(
        baseline,
        Some("d4"),
        "a failure that changed production counts"
    );
}
