//! The `EvidenceStore` contract, run against every store: in memory and the JSON Lines file
//! (tests/api/evidence_store.rs), PostgreSQL (tests/real_pulp/postgres_evidence.rs). The
//! in-memory store is the reference behaviour.

#![allow(dead_code)] // each binary uses its own part

use chrono::{DateTime, Duration, Utc};
use repo_console::domain::deploy::DeployId;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::evidence::dsse::{Envelope, Signature};
use repo_console::ports::evidence_store::{EvidenceStore, StoredEvidence};

fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-27T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::minutes(minutes)
}

fn evidence(id: &str, repo: &str, env: &str, minutes: i64) -> StoredEvidence {
    StoredEvidence {
        deploy_id: DeployId::new(id),
        repository_uuid: repo.into(),
        environment: EnvironmentName::parse(env).unwrap(),
        at: at(minutes),
        envelope: Envelope {
            payload: format!("{{\"deploy\":\"{id}\"}}").into_bytes(),
            payload_type: "application/vnd.in-toto+json".into(),
            signatures: vec![Signature {
                keyid: "k".into(),
                sig: vec![1, 2, 3],
            }],
        },
    }
}

/// Kept evidence is found by its deploy, the newest of a repository and environment is the
/// chain's previous, and a deploy's evidence is kept once.
pub async fn kept_found_and_once(store: &dyn EvidenceStore) {
    let env = EnvironmentName::parse("production").unwrap();
    assert_eq!(store.newest_of("rcev-a", &env).await.unwrap(), None);
    let first = evidence("rcev-d1", "rcev-a", "production", 0);
    let other_env = evidence("rcev-d2", "rcev-a", "staging", 1);
    let other_repo = evidence("rcev-d3", "rcev-b", "production", 2);
    let second = evidence("rcev-d4", "rcev-a", "production", 3);
    for kept in [&first, &other_env, &other_repo, &second] {
        store.put(kept).await.unwrap();
    }
    assert_eq!(
        store.of_deploy(&DeployId::new("rcev-d1")).await.unwrap(),
        Some(first.clone())
    );
    assert_eq!(
        store.of_deploy(&DeployId::new("rcev-none")).await.unwrap(),
        None
    );
    assert_eq!(store.newest_of("rcev-a", &env).await.unwrap(), Some(second));
    assert_eq!(
        store
            .newest_of("rcev-a", &EnvironmentName::parse("staging").unwrap())
            .await
            .unwrap(),
        Some(other_env)
    );
    let again = store
        .put(&first)
        .await
        .expect_err("one evidence per deploy");
    assert!(again.to_string().contains(&store.target()), "{again}");
}

/// Which deploys have evidence is answered for many at once: those kept, none of the others.
pub async fn attested_in_one_call(store: &dyn EvidenceStore) {
    assert!(store.attested(&[]).await.unwrap().is_empty());
    for kept in [
        evidence("rcev-e1", "rcev-c", "production", 10),
        evidence("rcev-e2", "rcev-c", "production", 11),
    ] {
        store.put(&kept).await.unwrap();
    }
    let asked = ["rcev-e1", "rcev-e2", "rcev-e3"].map(DeployId::new);
    let found = store.attested(&asked).await.unwrap();
    let mut found: Vec<&str> = found.iter().map(DeployId::as_str).collect();
    found.sort_unstable();
    assert_eq!(found, ["rcev-e1", "rcev-e2"]);
    let one = store.attested(&asked[1..]).await.unwrap();
    assert_eq!(one.len(), 1);
    assert!(one.contains(&asked[1]));
}
