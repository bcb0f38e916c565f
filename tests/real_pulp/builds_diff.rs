//! Issue 22 against the real Pulp: `rc-builds` keeps several builds of one package; the
//! compare page shows dnf's kinds for every way the console reads a diff (neighbours, a
//! rollback by one, far apart, against version 0), as the in-memory Pulp holding the same
//! story does.

use std::sync::Arc;

use repo_console::adapters::memory::InMemoryPulp;
use repo_console::domain::{ChecksumType, RepoVerification};

use super::builds::{add_builds, BUILDS, BUILD_DIFFS};
use super::console::{change_kinds, package_changes, spawn_console};
use super::support::pulp_or_skip;

#[tokio::test]
async fn the_kinds_are_dnfs_with_several_builds_on_pulp_and_in_memory_alike() {
    let Some(pulp) = pulp_or_skip("several builds of one package") else {
        return;
    };
    let real_id = pulp.repo_id(BUILDS);
    let real = spawn_console(Arc::new(pulp.client()), 25).await;
    let memory = Arc::new(InMemoryPulp::default());
    let fake_id = add_builds(
        &memory,
        RepoVerification {
            gpgcheck: Some(true),
            repo_gpgcheck: Some(true),
            checksum: Some(ChecksumType::Sha256),
            metadata_signed: Some(false),
        },
    );
    let fake = spawn_console(memory, 25).await;
    for (to, against, kinds) in BUILD_DIFFS {
        let path = |id| format!("/repos/{id}/versions/{to}/changes?against={against}");
        let reply = real.get(&path(&real_id)).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let on_pulp = package_changes(&reply.html());
        assert_eq!(change_kinds(&on_pulp), kinds, "v{to} against v{against}");
        let in_memory = package_changes(&fake.get(&path(&fake_id)).await.html());
        assert_eq!(on_pulp, in_memory, "v{to} against v{against}");
    }
}
