use super::*;
use crate::domain::deploy::{DeployId, DeployKind};

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().into()
}

fn staging() -> EnvironmentName {
    EnvironmentName::parse("staging").unwrap()
}

fn line(version: u64, when: &str, outcome: AuditOutcome) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(format!("d-{version}-{when}")),
        timestamp: at(when),
        operator: "alice".into(),
        repository_uuid: "r".into(),
        repository_name: "base-os".into(),
        previous_version: None,
        target_version: version,
        environment: staging(),
        distribution: "base-os-staging".into(),
        publication: None,
        kind: DeployKind::Deploy,
        reason: None,
        request: None,
        freeze_override: None,
        soak_override: None,
        schedule: None,
        release: None,
        checks_override: None,
        automation: None,
        outcome,
    }
}

fn serving(version: u64, since: Option<&str>) -> PreviousServing {
    PreviousServing {
        environment: staging(),
        serving: Some(VersionNumber::new(version)),
        since: since.map(at),
    }
}

#[test]
fn soak_times_are_the_freezes_durations_plus_seconds() {
    let secs = |text: &str| SoakTime::parse(text).map(|s| s.as_delta().num_seconds());
    assert_eq!(secs("24h"), Ok(86_400));
    assert_eq!(secs("90s"), Ok(90));
    assert_eq!(secs("1h30m"), Ok(5_400));
    assert_eq!(secs("2d"), Ok(172_800));
    assert_eq!(secs(" 1d2h3m4s "), Ok(93_784));
    for bad in ["", "0h", "0s", "30s1m", "1w", "h", "367d", "24"] {
        assert!(SoakTime::parse(bad).is_err(), "{bad:?}");
    }
    assert_eq!(SoakTime::parse("90s").unwrap().to_string(), "1m30s");
    assert_eq!(SoakTime::parse("24h").unwrap().to_string(), "1d");
}

#[test]
fn a_version_goes_once_the_previous_environment_served_it_that_long() {
    let soak = SoakTime::parse("24h").unwrap();
    let previous = serving(5, Some("2026-11-25T10:00:00Z"));
    let v5 = VersionNumber::new(5);
    let early = check_soak(soak, &previous, v5, at("2026-11-26T09:59:59Z")).unwrap_err();
    assert_eq!(early.until, Some(at("2026-11-26T10:00:00Z")));
    assert_eq!(early.until_text().as_deref(), Some("2026-11-26T10:00:00Z"));
    assert_eq!(
        check_soak(soak, &previous, v5, at("2026-11-26T10:00:00Z")),
        Ok(())
    );
}

#[test]
fn a_version_the_previous_environment_does_not_serve_has_no_moment_yet() {
    let soak = SoakTime::parse("1h").unwrap();
    let refused = check_soak(
        soak,
        &serving(4, Some("2026-01-01T00:00:00Z")),
        VersionNumber::new(5),
        at("2026-11-26T10:00:00Z"),
    )
    .unwrap_err();
    assert_eq!(refused.until, None);
    assert!(refused.why.contains("staging serves v4"), "{}", refused.why);
    let unknown = check_soak(
        soak,
        &serving(5, None),
        VersionNumber::new(5),
        at("2026-11-26T10:00:00Z"),
    )
    .unwrap_err();
    assert_eq!(unknown.until, None, "unproven soak waits");
}

#[test]
fn the_soak_restarts_when_the_version_is_deployed_again() {
    let deployed = || AuditOutcome::Deployed;
    let records = vec![
        line(5, "2026-11-20T10:00:00Z", deployed()),
        line(6, "2026-11-21T10:00:00Z", deployed()),
        line(5, "2026-11-25T08:00:00Z", deployed()),
        line(6, "2026-11-25T09:00:00Z", AuditOutcome::Started),
        line(
            6,
            "2026-11-25T09:00:01Z",
            AuditOutcome::Failed {
                production_changed: ProductionChanged::No,
                error: "boom".into(),
            },
        ),
    ];
    let since = served_since(&records, &staging(), Some(VersionNumber::new(5)), None);
    assert_eq!(
        since,
        Some(at("2026-11-25T08:00:00Z")),
        "the redeploy, not the first"
    );
}

#[test]
fn a_change_outside_the_console_counts_from_upstreams_last_update() {
    let records = vec![line(5, "2026-11-20T10:00:00Z", AuditOutcome::Deployed)];
    let outside = Some(at("2026-11-24T07:00:00Z"));
    assert_eq!(
        served_since(&records, &staging(), Some(VersionNumber::new(7)), outside),
        outside
    );
    assert_eq!(
        served_since(&[], &staging(), Some(VersionNumber::new(7)), outside),
        outside
    );
    let stale = Some(at("2026-11-19T07:00:00Z"));
    assert_eq!(
        served_since(&records, &staging(), Some(VersionNumber::new(7)), stale),
        None,
        "an update older than the console's own change cannot have set what it serves"
    );
    assert_eq!(served_since(&records, &staging(), None, outside), None);
}
