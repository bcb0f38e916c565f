//! The contract against `InMemoryPulp`, seeded through its builder with the same facts
//! as scripts/pulp/seed.sh. Needs no server: always runs.

use std::time::Duration;

use repo_console::adapters::memory::{InMemoryPulp, MemoryOptions, SyncScript};
use repo_console::domain::{ChecksumType, RepoVerification, VersionNumber};

use super::contract::{repository_manager_contract, Fixture};

fn seeded() -> (InMemoryPulp, Fixture) {
    let pulp = InMemoryPulp::new(MemoryOptions {
        task_delay: Duration::from_millis(5),
        ..MemoryOptions::default()
    });
    let verified = RepoVerification {
        gpgcheck: Some(true),
        repo_gpgcheck: Some(true),
        checksum: Some(ChecksumType::Sha256),
        metadata_signed: Some(true),
        ..Default::default()
    };
    let id = pulp.add_repo("rc-verified", verified);
    pulp.add_version(&id, &["hello-1.0", "world-2.0"], &[]);
    pulp.add_version(&id, &["hello-1.1", "extra-0.1"], &[]);
    pulp.add_version(&id, &["hello-1.2"], &["extra-0.1"]);
    pulp.add_version(&id, &["world-2.1"], &["hello-1.0"]);
    pulp.add_version(&id, &["extra-0.1"], &["world-2.0"]);
    let v3 = pulp.publish(&id, VersionNumber::new(3));
    pulp.add_distribution("rc-verified-prod", Some(&v3));
    pulp.add_repo_distribution("rc-verified-staging", &id);

    let broken = pulp.add_repo("rc-broken-mirror", RepoVerification::default());
    pulp.add_remote(
        &broken,
        SyncScript::Fails {
            duration: Duration::from_millis(5),
            reason: "Cannot connect to host 127.0.0.1:9 ssl:default [Connect call failed ('127.0.0.1', 9)]".into(),
        },
    );
    pulp.add_repo("rc-unverified", RepoVerification::default());
    let scratch = pulp.add_distribution("rc-contract-scratch", None);
    (
        pulp,
        Fixture {
            scratch_distribution: scratch,
        },
    )
}

#[tokio::test]
async fn in_memory_pulp_keeps_the_repository_manager_contract() {
    let (pulp, fixture) = seeded();
    repository_manager_contract(&pulp, &fixture).await;
}
