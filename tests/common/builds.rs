//! The "builds" story (issue 22): a repository that keeps several builds of one package,
//! so that the kind of a change must compare the newest build on each side among all of
//! them. The same story as the `rc-builds` repository that scripts/pulp/seed.sh builds in
//! the real Pulp. Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

use repo_console::adapters::memory::{ContentChange, InMemoryPulp};
use repo_console::domain::repository::{RepoId, RepoVerification};

pub const BUILDS: &str = "rc-builds";

/// Adds the story: v1 keeps two builds of multi-u, multi-o and multi-d and one of multi-n;
/// v2 adds multi-u 3 beside them, drops multi-o's older build and multi-d's newest, and
/// adds an older multi-n build; v3 adds multi-x.
pub fn add_builds(pulp: &InMemoryPulp, verification: RepoVerification) -> RepoId {
    let id = pulp.add_repo(BUILDS, verification);
    for step in [
        ContentChange {
            add: &[
                "multi-u-1",
                "multi-u-2",
                "multi-o-1",
                "multi-o-2",
                "multi-d-1",
                "multi-d-2",
                "multi-n-1",
            ],
            ..Default::default()
        },
        ContentChange {
            add: &["multi-u-3", "multi-n-0.9"],
            remove: &["multi-o-1", "multi-d-2"],
            ..Default::default()
        },
        ContentChange {
            add: &["multi-x-1"],
            ..Default::default()
        },
    ] {
        pulp.add_content_version(&id, &step);
    }
    id
}

/// A compared pair: (to, against, the package changes as (kind, name) in order).
pub type BuildDiff = (u64, u64, &'static [(&'static str, &'static str)]);

/// (to, against, the package changes as (kind, name) in order) for every way the console
/// reads a diff: neighbours (v2 against v1), a rollback by one (v1 against v2), versions
/// far apart (v3 against v1) and against the empty version 0.
pub const BUILD_DIFFS: [BuildDiff; 4] = [
    (
        2,
        1,
        &[
            ("downgraded", "multi-d"),
            ("older-builds", "multi-n"),
            ("older-builds", "multi-o"),
            ("upgraded", "multi-u"),
        ],
    ),
    (
        1,
        2,
        &[
            ("upgraded", "multi-d"),
            ("older-builds", "multi-n"),
            ("older-builds", "multi-o"),
            ("downgraded", "multi-u"),
        ],
    ),
    (
        3,
        1,
        &[
            ("downgraded", "multi-d"),
            ("older-builds", "multi-n"),
            ("older-builds", "multi-o"),
            ("upgraded", "multi-u"),
            ("added", "multi-x"),
        ],
    ),
    (
        2,
        0,
        &[
            ("added", "multi-d"),
            ("added", "multi-n"),
            ("added", "multi-o"),
            ("added", "multi-u"),
        ],
    ),
];
