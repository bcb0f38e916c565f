//! Issue 22 against the real Pulp: `rc-builds` keeps several builds of one package; the
//! compare page shows dnf's kinds for every way the console reads a diff (neighbours, a
//! rollback by one, far apart, against version 0), as the in-memory Pulp holding the same
//! story does.

use std::sync::Arc;

use repo_console::adapters::memory::InMemoryPulp;
use repo_console::domain::repository::{ChecksumType, RepoVerification};

use super::builds::{add_builds, BUILDS, BUILD_DIFFS};
use super::console::{change_kinds, over_upstream, package_changes};
use super::support::required_pulp;

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn the_kinds_are_dnfs_with_several_builds_on_pulp_and_in_memory_alike() {
    let pulp = required_pulp();
    let real_id = pulp.repo_id(BUILDS);
    let real = over_upstream(Arc::new(pulp.client()), 25).spawn().await;
    let memory = Arc::new(InMemoryPulp::default());
    let fake_id = add_builds(
        &memory,
        RepoVerification {
            gpgcheck: Some(true),
            repo_gpgcheck: Some(true),
            checksum: Some(ChecksumType::Sha256),
            metadata_signed: Some(true),
            ..Default::default()
        },
    );
    let fake = over_upstream(memory, 25).spawn().await;
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

/// Composing each version's own changes (what the console does for large versions a few
/// apart) gives exactly what Pulp's `AND NOT` filter gives, both ways, on the real server.
#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn composed_changes_equal_pulps_filter_on_the_real_server() {
    use repo_console::app::diffs::read::read_by_plan;
    use repo_console::domain::content::kind::ContentType;
    use repo_console::domain::diff::{filtered_reads, DiffEnd, DiffReads, SideReads, VersionDiff};

    let pulp = required_pulp();
    let client = pulp.client();
    let repo = pulp
        .href_named("repositories/rpm/rpm/", BUILDS)
        .expect("rc-builds is seeded");
    let href =
        |n: u64| repo_console::domain::repository::VersionHref::new(format!("{repo}versions/{n}/"));
    let (v1, v3) = (href(1), href(3));
    let end = |href| DiffEnd { href, count: None };
    for (old, new, backwards) in [(&v1, &v3, false), (&v3, &v1, true)] {
        let composed = DiffReads {
            sides: SideReads::Composed {
                steps: vec![href(2), href(3)],
                backwards,
            },
            shared_from: Some(new.clone()),
        };
        let by_steps = read_by_plan(&client, ContentType::Rpm, &composed)
            .await
            .expect("composed");
        let by_filter = read_by_plan(
            &client,
            ContentType::Rpm,
            &filtered_reads(end(old), end(new)),
        )
        .await
        .expect("filtered");
        let (by_steps, by_filter) = (VersionDiff::new(by_steps), VersionDiff::new(by_filter));
        assert!(!by_filter.packages.is_empty());
        assert_eq!(by_steps, by_filter, "{old} -> {new}");
    }
}
