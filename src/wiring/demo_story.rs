//! What the demo shows besides its repositories, so that a newcomer finds something on every
//! page: a release of three repositories and staging's approvals (configured as an operator
//! would, applied only on the demo's own environments), then, told through the same use cases
//! as a person's clicks, production's history with a rollback, a check report, a pending
//! approval request and a waiting schedule. The story is told only where the demo starts
//! afresh (its fresh directory): a kept audit already has its own history.

use chrono::{Duration, DurationRound, Utc};

use crate::app::checks::report::{find_repository, report, CheckAsk};
use crate::app::deploy::{deploy_asked, DeployOutcome};
use crate::app::schedules::make::schedule;
use crate::app::AppState;
use crate::domain::deploy::{Confirmation, DeployAsk, SeenLive};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::{Operator, Scope};
use crate::domain::repository::{RepoId, VersionNumber};

/// The people of the story (the demo's own operator is `operator`).
fn person(name: &str) -> Operator {
    Operator::new(name).expect("a valid name")
}

fn environment(name: &str) -> EnvironmentName {
    EnvironmentName::parse(name).expect("a valid name")
}

fn ask<'a>(target: u64, to: &str, serving: u64, rollback: Option<&'a str>) -> DeployAsk<'a> {
    DeployAsk {
        target: VersionNumber::new(target),
        environment: environment(to),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: SeenLive::Version(VersionNumber::new(serving)),
        rollback: rollback.is_some(),
        reason: rollback,
        override_freeze: false,
    }
}

/// Tells the story on rhel9-baseos (production v38, staging v44, testing v46): alice deploys
/// v44 to production and bob rolls it back to v38; the CI reports `smoke` passed for v46 on
/// testing; alice asks v46 for staging (a request waiting for the operator's approval); bob
/// schedules v46 for production tomorrow at 06:00 UTC. Answers what did not go as told.
pub async fn tell(state: &AppState) -> Result<(), String> {
    let baseos = find_repository(state, "rhel9-baseos")
        .await
        .map_err(|e| e.to_string())?
        .id;
    let (alice, bob) = (person("alice"), person("bob"));
    deployed(state, &baseos, ask(44, "production", 38, None), &alice).await?;
    let reason =
        "RHEA-2026:0420 (chrony's NTS pool) is gone from v44: back to v38 until we know why";
    deployed(
        state,
        &baseos,
        ask(38, "production", 44, Some(reason)),
        &bob,
    )
    .await?;
    let testing = environment("testing");
    let ci = person("ci").as_token(vec![Scope::check_in(&testing)], None);
    let smoke = CheckAsk {
        repository: "rhel9-baseos".to_owned(),
        environment: testing.to_string(),
        version: 46,
        name: "smoke".to_owned(),
        passed: true,
        url: Some("https://ci.example.com/rhel9-baseos/46/smoke".to_owned()),
    };
    report(state, smoke, &ci).await.map_err(|e| e.to_string())?;
    match deploy_asked(state, &baseos, ask(46, "staging", 44, None), &alice).await {
        DeployOutcome::Requested(_) => {}
        other => return Err(format!("the staging request was not made: {other:?}")),
    }
    let tomorrow = Utc::now()
        .duration_trunc(Duration::days(1))
        .map_err(|e| e.to_string())?
        + Duration::hours(30);
    schedule(
        state,
        &baseos,
        ask(46, "production", 38, None),
        tomorrow,
        &bob,
    )
    .await
    .map_err(|e| format!("the schedule was not made: {e}"))?;
    Ok(())
}

async fn deployed(
    state: &AppState,
    repo: &RepoId,
    ask: DeployAsk<'_>,
    operator: &Operator,
) -> Result<(), String> {
    match deploy_asked(state, repo, ask, operator).await {
        DeployOutcome::Deployed { .. } => Ok(()),
        other => Err(format!("a deploy of the story did not happen: {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::deploy::DeployKind;
    use crate::wiring::config::{load, Overrides};
    use crate::wiring::demo_state::place;
    use crate::wiring::startup::build_state;

    #[tokio::test]
    async fn the_story_reads_back_from_the_stores_as_real() {
        let overrides = Overrides::default().flag("demo.task_delay_ms", "0");
        let mut config = load(&overrides).unwrap();
        assert_eq!(config.releases.iter().count(), 1, "the demo's release");
        let dir = place(&mut config).unwrap().expect("a fresh demo");
        let (state, _, _) = build_state(&config).await.unwrap();
        tell(&state).await.unwrap();
        let baseos = find_repository(&state, "rhel9-baseos").await.unwrap().id;

        let history = state.audit.recent(&baseos, 10).await.unwrap();
        let production: Vec<_> = history
            .iter()
            .filter(|r| r.environment.as_str() == "production")
            .filter(|r| matches!(r.outcome, crate::domain::deploy::AuditOutcome::Deployed))
            .map(|r| (r.kind, r.previous_version, r.target_version))
            .collect();
        assert_eq!(
            production,
            vec![
                (DeployKind::Rollback, Some(44), 38),
                (DeployKind::Deploy, Some(38), 44)
            ]
        );
        let requests = state.requests.as_ref().unwrap();
        let pending = requests.recent(Some(&baseos), 10).await.unwrap();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].request.environment.as_str(), "staging");
        assert_eq!(pending[0].request.target_version, 46);
        let schedules = state.schedules.as_ref().unwrap().open().await.unwrap();
        assert_eq!(schedules.len(), 1);
        assert!(schedules[0].at > Utc::now());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
