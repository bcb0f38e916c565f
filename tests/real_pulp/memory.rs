//! The contract against `InMemoryPulp`, seeded through its builder with the same facts
//! as scripts/pulp/seed.sh. Needs no server: always runs.

use std::time::Duration;

use repo_console::adapters::memory::{InMemoryPulp, MemoryOptions, SyncScript};
use repo_console::domain::content::kind::ContentType;
use repo_console::domain::repository::{ChecksumType, RepoVerification, VersionNumber};

use super::contract::{
    debian_repository_contract, repository_manager_contract, DebFixture, Fixture,
};

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

#[tokio::test]
async fn in_memory_pulp_keeps_the_debian_repository_contract() {
    let pulp = InMemoryPulp::new(MemoryOptions {
        task_delay: Duration::from_millis(5),
        ..MemoryOptions::default()
    });
    let unsigned = RepoVerification {
        content_type: ContentType::Deb,
        metadata_signed: Some(false),
        ..RepoVerification::default()
    };
    let id = pulp.add_repo("rcdeb-contract", unsigned);
    let (rc1, v2, b1, epoch) = (
        "rcdeb-hello_2.0~rc1-1_all",
        "rcdeb-hello_2.0-1_all",
        "rcdeb-hello_2.0-1+b1_all",
        "rcdeb-hello_1:0.9-1_all",
    );
    pulp.add_version(&id, &[rc1], &[]);
    pulp.add_version(&id, &[v2], &[rc1]);
    pulp.add_version(&id, &[b1], &[]);
    pulp.add_version(&id, &[epoch], &[v2, b1]);
    let fixture = DebFixture {
        name: "rcdeb-contract".to_owned(),
        scratch_distribution: pulp.add_deb_distribution("rcdeb-contract-scratch", None),
    };
    debian_repository_contract(&pulp, &fixture).await;
}
