//! The `PinStore` contract, run against every store: in memory and the JSON Lines file
//! (tests/api/pin_store.rs), PostgreSQL (tests/real_pulp/postgres_pins.rs). The in-memory
//! store is the reference behaviour.

#![allow(dead_code)] // each binary uses its own part

use chrono::{DateTime, Duration, Utc};
use repo_console::domain::deploy::DeployId;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::pin::{Hold, Lift, LiftedBy, Pin, PinKey, PinRecord};
use repo_console::domain::repository::{RepoId, VersionNumber};
use repo_console::ports::PinStore;

pub const REPO_A: &str = "0199a1b2-0000-7000-8000-0000000000fa";
pub const REPO_B: &str = "0199a1b2-0000-7000-8000-0000000000fb";

pub fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-28T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::minutes(minutes)
}

pub fn key(repo: &str, env: &str) -> PinKey {
    PinKey::new(
        RepoId::parse(repo).unwrap(),
        EnvironmentName::parse(env).unwrap(),
    )
}

/// A rollback of `repo` in `env` to `version`, `minutes` after 09:00.
pub fn pin(repo: &str, env: &str, version: u64, minutes: i64) -> Pin {
    Pin {
        repository: RepoId::parse(repo).unwrap(),
        repository_name: "base-os".into(),
        environment: EnvironmentName::parse(env).unwrap(),
        version: VersionNumber::new(version),
        set_by: "alice".into(),
        reason: format!("v{} breaks logins", version + 1),
        at: at(minutes),
        deploy_id: DeployId::new(format!("rollback-{minutes}")),
    }
}

pub fn lift(repo: &str, env: &str, version: u64, minutes: i64, how: LiftedBy) -> Lift {
    Lift {
        repository: RepoId::parse(repo).unwrap(),
        repository_name: "base-os".into(),
        environment: EnvironmentName::parse(env).unwrap(),
        version: VersionNumber::new(version),
        by: "bob".into(),
        reason: "fixed in v9".into(),
        at: at(minutes),
        how,
    }
}

pub fn hold(repo: &str, env: &str, version: u64, target: u64, minutes: i64) -> Hold {
    Hold {
        repository: RepoId::parse(repo).unwrap(),
        environment: EnvironmentName::parse(env).unwrap(),
        version: VersionNumber::new(version),
        target: VersionNumber::new(target),
        asked_by: "automatic promotion: smoke passed on staging".into(),
        at: at(minutes),
    }
}

/// Set, replaced, held back, lifted: the last set or lift of a pin decides, other pins and
/// repositories do not count, and every record reads back as kept, in order.
pub async fn a_pin_is_set_replaced_held_and_lifted(store: &dyn PinStore) {
    let production = key(REPO_A, "production");
    assert_eq!(store.standing(&production).await.unwrap(), None);
    assert!(store
        .of_repository(&production.repository)
        .await
        .unwrap()
        .is_empty());

    let records = vec![
        PinRecord::Set(pin(REPO_A, "production", 3, 0)),
        PinRecord::Set(pin(REPO_A, "staging", 5, 1)),
        PinRecord::Set(pin(REPO_B, "production", 7, 2)),
        PinRecord::Set(pin(REPO_A, "production", 2, 3)),
        PinRecord::Held(hold(REPO_A, "production", 2, 4, 4)),
    ];
    for record in &records {
        store.append(record).await.unwrap();
    }
    assert_eq!(
        store.standing(&production).await.unwrap(),
        Some(pin(REPO_A, "production", 2, 3)),
        "a rollback replaces the pin; a move held back leaves it"
    );
    assert_eq!(
        store.standing(&key(REPO_A, "staging")).await.unwrap(),
        Some(pin(REPO_A, "staging", 5, 1))
    );
    assert_eq!(store.standing(&key(REPO_A, "testing")).await.unwrap(), None);

    let by_deploy = LiftedBy::Deploy {
        deploy_id: DeployId::new("d-9"),
        to_version: VersionNumber::new(9),
    };
    let lifted = PinRecord::Lifted(lift(REPO_A, "production", 2, 5, by_deploy));
    store.append(&lifted).await.unwrap();
    assert_eq!(store.standing(&production).await.unwrap(), None);
    assert_eq!(
        store.standing(&key(REPO_B, "production")).await.unwrap(),
        Some(pin(REPO_B, "production", 7, 2)),
        "another repository's pin is its own"
    );

    let of_a = store.of_repository(&production.repository).await.unwrap();
    let expected: Vec<PinRecord> = records
        .iter()
        .chain([&lifted])
        .filter(|r| r.key().repository == production.repository)
        .cloned()
        .collect();
    assert_eq!(
        of_a, expected,
        "every record of the repository, in order, as kept"
    );

    let unpinned = PinRecord::Lifted(lift(REPO_A, "staging", 5, 6, LiftedBy::Unpin));
    store.append(&unpinned).await.unwrap();
    assert_eq!(store.standing(&key(REPO_A, "staging")).await.unwrap(), None);
    store
        .append(&PinRecord::Set(pin(REPO_A, "production", 9, 7)))
        .await
        .unwrap();
    assert_eq!(
        store.standing(&production).await.unwrap(),
        Some(pin(REPO_A, "production", 9, 7)),
        "a pin lifted is set again by the next rollback"
    );
}

/// Two stores on one place (two replicas, or a restart): what one keeps, the other holds.
pub async fn every_replica_holds_the_same_pin(first: &dyn PinStore, second: &dyn PinStore) {
    let production = key(REPO_A, "production");
    first
        .append(&PinRecord::Set(pin(REPO_A, "production", 3, 0)))
        .await
        .unwrap();
    assert_eq!(
        second.standing(&production).await.unwrap(),
        Some(pin(REPO_A, "production", 3, 0))
    );
    second
        .append(&PinRecord::Lifted(lift(
            REPO_A,
            "production",
            3,
            1,
            LiftedBy::Unpin,
        )))
        .await
        .unwrap();
    assert_eq!(first.standing(&production).await.unwrap(), None);
    assert_eq!(
        first.of_repository(&production.repository).await.unwrap(),
        second.of_repository(&production.repository).await.unwrap()
    );
}
