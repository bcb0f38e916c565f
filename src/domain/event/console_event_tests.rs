use chrono::{DateTime, Utc};

use super::*;
use crate::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord, ProductionChanged};
use crate::domain::environment::EnvironmentName;
use crate::domain::repository::{
    Distribution, DistributionHref, DistributionRevision, PublicationHref, TaskHref,
};

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().into()
}

fn record(outcome: AuditOutcome) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new("d-1"),
        timestamp: at("2026-11-22T10:00:00Z"),
        operator: "alice".into(),
        repository_uuid: "01a202de-e818-7629-a483-70ecc3240361".into(),
        repository_name: "base-os".into(),
        previous_version: Some(2),
        target_version: 4,
        environment: EnvironmentName::production(),
        distribution: "base-os-prod".into(),
        publication: Some(PublicationHref::new("/p/4/")),
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

#[test]
fn every_kind_is_named_as_subscriptions_write_it() {
    for kind in EventKind::ALL {
        assert_eq!(EventKind::parse(kind.as_str()), Ok(kind));
        assert_eq!(
            kind.cloudevents_type(),
            format!("io.repo-console.{}", kind.as_str())
        );
    }
    let unknown = EventKind::parse("deployment.started").unwrap_err();
    assert!(
        unknown
            .to_string()
            .contains("deployment.finished, deployment.failed"),
        "{unknown}"
    );
}

#[test]
fn a_deploy_outcome_line_is_finished_or_failed_and_its_start_is_no_event() {
    assert_eq!(EventData::deployment(&record(AuditOutcome::Started)), None);
    let finished = EventData::deployment(&record(AuditOutcome::Deployed)).unwrap();
    assert_eq!(finished.kind(), EventKind::DeploymentFinished);
    let EventData::DeploymentFinished(data) = &finished else {
        unreachable!()
    };
    assert_eq!(
        (data.from_version, data.to_version, data.production_changed),
        (Some(2), 4, ProductionChanged::Yes)
    );
    let failed = EventData::deployment(&record(AuditOutcome::Failed {
        production_changed: ProductionChanged::Unknown,
        error: "timed out".into(),
    }))
    .unwrap();
    assert_eq!(failed.kind(), EventKind::DeploymentFailed);
    assert_eq!(
        failed.fact(),
        finished.fact(),
        "one event per deploy outcome"
    );
}

#[test]
fn an_event_is_kept_as_one_json_object_and_read_back() {
    let event = ConsoleEvent {
        id: EventId::new("e-1"),
        time: at("2026-11-22T10:00:00Z"),
        data: EventData::SyncFailed(SyncFailedData {
            repository: RepositoryRef {
                uuid: "u".into(),
                name: "base-os".into(),
            },
            task: TaskHref::new("/pulp/api/v3/tasks/t1/"),
            reason: "Cannot connect".into(),
        }),
    };
    let json = serde_json::to_value(&event).unwrap();
    assert_eq!(json["type"], "sync.failed");
    assert_eq!(json["data"]["task"], "/pulp/api/v3/tasks/t1/");
    assert_eq!(json["id"], "e-1");
    let back: ConsoleEvent = serde_json::from_value(json).unwrap();
    assert_eq!(back, event);
    assert_eq!(back.fact(), "sync.failed:/pulp/api/v3/tasks/t1/");
}

#[test]
fn a_drift_is_named_by_the_distributions_revision_so_each_outside_change_is_one_fact() {
    let baseline = record(AuditOutcome::Deployed);
    let repository = RepositoryRef {
        uuid: baseline.repository_uuid.clone(),
        name: "base-os".into(),
    };
    let mut distribution = Distribution {
        href: DistributionHref::new("/d/1/"),
        name: "base-os-prod".into(),
        base_path: "base-os".into(),
        publication: Some(PublicationHref::new("/p/3/")),
        revision: Some(DistributionRevision::new("2026-11-22T11:00:00Z")),
    };
    let drift = |d: &Distribution| {
        EventData::DriftDetected(DriftData::new(repository.clone(), &baseline, d, Some(3)))
    };
    let first = drift(&distribution);
    assert_eq!(first.fact(), "drift:/d/1/@2026-11-22T11:00:00Z");
    let EventData::DriftDetected(data) = &first else {
        unreachable!()
    };
    assert_eq!((data.from_version, data.to_version), (4, Some(3)));
    distribution.revision = Some(DistributionRevision::new("2026-11-22T12:00:00Z"));
    assert_ne!(drift(&distribution).fact(), first.fact(), "another write");
    distribution.revision = None;
    assert_eq!(drift(&distribution).fact(), "drift:/d/1/:/p/3/:d-1");
}

#[test]
fn an_automatic_promotion_tells_the_check_that_triggered_it() {
    use crate::domain::check::CheckName;
    use crate::domain::deploy::{Automation, CheckTrigger};
    let manual = EventData::deployment(&record(AuditOutcome::Deployed)).unwrap();
    let EventData::DeploymentFinished(data) = &manual else {
        unreachable!()
    };
    assert_eq!(data.triggered_by, None);
    let trigger = CheckTrigger {
        check: CheckName::parse("smoke").unwrap(),
        environment: EnvironmentName::parse("staging").unwrap(),
        version: 4,
        url: None,
        reporter: "ci-staging".into(),
    };
    let promoted = DeployRecord {
        automation: Some(Automation::triggered_by(trigger.clone())),
        ..record(AuditOutcome::Deployed)
    };
    let EventData::DeploymentFinished(data) = EventData::deployment(&promoted).unwrap() else {
        unreachable!()
    };
    assert_eq!(data.triggered_by, Some(trigger));
    let json = serde_json::to_value(&data).unwrap();
    assert_eq!(json["triggered_by"]["check"], "smoke");
    let old: DeploymentData = serde_json::from_value(serde_json::json!({
        "repository": {"uuid": "u", "name": "n"}, "environment": "production",
        "distribution": "d", "from_version": null, "to_version": 1, "kind": "deploy",
        "operator": "o", "deploy_id": "x", "outcome": "deployed", "production_changed": "yes",
        "error": null, "reason": null, "request_id": null
    }))
    .unwrap();
    assert_eq!(
        old.triggered_by, None,
        "an event kept before the field reads as none"
    );
}

#[test]
fn an_edge_s_events_name_the_digests_so_each_change_is_one_fact() {
    use crate::domain::edge::{EdgeName, EdgeState, MetadataDigest};
    use crate::domain::event::EdgeData;
    let digest = |c: char| MetadataDigest::parse(&c.to_string().repeat(64)).unwrap();
    let at = DateTime::parse_from_rfc3339("2026-11-28T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let data = |state: &EdgeState, central: char, served: char| {
        EdgeData::new(
            &EdgeName::parse("dc1").unwrap(),
            &EnvironmentName::production(),
            "prod",
            state,
            &digest(central),
            Some(&digest(served)),
            chrono::Duration::seconds(700),
            at,
        )
    };
    let behind = EdgeState::Behind { since: Some(at) };
    let first = EventData::EdgeBehind(data(&behind, 'a', 'b'));
    assert_eq!(first.kind(), EventKind::EdgeBehind);
    assert_eq!(
        first.fact(),
        EventData::EdgeBehind(data(&behind, 'a', 'c')).fact(),
        "behind once per digest production serves"
    );
    assert_ne!(
        first.fact(),
        EventData::EdgeBehind(data(&behind, 'd', 'b')).fact()
    );
    let failed = EdgeState::Failed {
        error: "403".into(),
    };
    assert_ne!(
        EventData::EdgeFailed(data(&failed, 'a', 'b')).fact(),
        EventData::EdgeFailed(data(&failed, 'd', 'b')).fact(),
        "a failure to reach another production digest is another fact"
    );
    assert_ne!(
        EventData::EdgeDrift(data(&EdgeState::Other, 'a', 'b')).fact(),
        EventData::EdgeDrift(data(&EdgeState::Other, 'a', 'e')).fact(),
        "other foreign metadata is another drift"
    );
    let EventData::EdgeFailed(told) = EventData::EdgeFailed(data(&failed, 'a', 'b')) else {
        unreachable!()
    };
    assert_eq!(told.error.as_deref(), Some("403"));
    assert_eq!(told.lag_secs, 700);
}
