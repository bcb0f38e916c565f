//! Versions a few apart in a large repository: the difference is composed from what each
//! version in between added and removed (cheaper than Pulp's filter at that size), units
//! that come back cancel out, and a version deleted in between makes the console fall back
//! to the filter with the same answer.

use repo_console::domain::repository::{RepoId, VersionNumber};

use crate::helpers::*;
use crate::web::{change_kinds, package_changes};

/// Enough packages that composing three versions' changes beats one filter over both ends.
const PACKAGES: usize = 7_000;

/// v1: PACKAGES packages; v2 upgrades p0 and removes p1; v3 puts p1 back and adds n1; v4
/// removes n1 and p2. Net from v1 to v4: p0 upgraded, p2 removed.
fn add_steps(app: &TestApp) -> RepoId {
    let id = app.memory.add_repo("big", verified());
    let all: Vec<String> = (0..PACKAGES).map(|i| format!("p{i}-1.0")).collect();
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    app.memory.add_version(&id, &all, &[]);
    app.memory
        .add_version(&id, &["p0-2.0"], &["p0-1.0", "p1-1.0"]);
    app.memory.add_version(&id, &["p1-1.0", "n1-1.0"], &[]);
    app.memory.add_version(&id, &[], &["n1-1.0", "p2-1.0"]);
    id
}

/// The content reads since `before`: "packages added 2", "advisories not-in 4"…
fn reads_since(app: &TestApp, before: usize) -> Vec<String> {
    app.memory.calls()[before..]
        .iter()
        .filter(|c| c.starts_with("packages ") || c.starts_with("advisories "))
        .map(|c| {
            let words: Vec<&str> = c.split(' ').collect();
            let number = words[2]
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or("");
            format!("{} {} {number}", words[0], words[1])
        })
        .collect()
}

async fn kinds(app: &TestApp, id: &RepoId, to: u64, against: u64) -> Vec<(String, String)> {
    let reply = app
        .get(&format!(
            "/repos/{id}/versions/{to}/changes?against={against}"
        ))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    change_kinds(&package_changes(&reply.html()))
        .into_iter()
        .map(|(k, n)| (k.to_owned(), n.to_owned()))
        .collect()
}

fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, n)| ((*k).to_owned(), (*n).to_owned()))
        .collect()
}

#[tokio::test]
async fn three_versions_apart_the_changes_in_between_are_composed() {
    let app = spawn_app().await;
    let id = add_steps(&app);
    let before = app.memory.calls().len();
    assert_eq!(
        kinds(&app, &id, 4, 1).await,
        owned(&[("upgraded", "p0"), ("removed", "p2")]),
        "p1 came back and n1 left again: neither is a change"
    );
    let mut reads = reads_since(&app, before);
    reads.sort();
    let mut expected: Vec<String> = ["packages", "advisories"]
        .iter()
        .flat_map(|what| {
            (2..=4).flat_map(move |n| ["added", "removed"].map(|how| format!("{what} {how} {n}")))
        })
        .collect();
    expected.sort();
    assert_eq!(reads, expected, "each version's own changes, no filter");

    let before = app.memory.calls().len();
    assert_eq!(
        kinds(&app, &id, 1, 4).await,
        owned(&[("downgraded", "p0"), ("added", "p2")]),
        "a rollback over the same versions"
    );
    assert!(reads_since(&app, before)
        .iter()
        .all(|r| r.contains(" added ") || r.contains(" removed ")));
}

#[tokio::test]
async fn a_version_deleted_in_between_falls_back_to_the_filter_with_the_same_answer() {
    let app = spawn_app().await;
    let id = add_steps(&app);
    app.memory.delete_version(&id, VersionNumber::new(3));
    let before = app.memory.calls().len();
    assert_eq!(
        kinds(&app, &id, 4, 1).await,
        owned(&[("upgraded", "p0"), ("removed", "p2")])
    );
    let reads = reads_since(&app, before);
    assert!(
        reads.contains(&"packages not-in 4".to_owned())
            && reads.contains(&"packages not-in 1".to_owned()),
        "{reads:?}"
    );
}
