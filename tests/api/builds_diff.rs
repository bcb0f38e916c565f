//! Issue 22 over the in-memory upstream: with several builds of one package, a change's
//! kind is dnf's (the newest build on each side among all of them), and each pair of
//! versions is read with the cheapest exact reads.

use crate::builds::{add_builds, BUILD_DIFFS};
use crate::helpers::*;
use crate::web::{change_kinds, package_changes};

/// The content reads recorded since `before`, without the version addresses.
fn content_reads(app: &TestApp, before: usize) -> Vec<String> {
    app.memory.calls()[before..]
        .iter()
        .filter(|c| {
            c.starts_with("packages ")
                || c.starts_with("advisories ")
                || c.starts_with("package_builds ")
        })
        .map(|c| {
            let mut words = c.split(' ');
            let (what, how) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            match what {
                "package_builds" => what.to_owned(),
                _ => format!("{what} {how}"),
            }
        })
        .collect()
}

#[tokio::test]
async fn each_pair_shows_dnfs_kinds_from_its_cheapest_exact_reads() {
    let app = spawn_app().await;
    let id = add_builds(&app.memory, verified());
    let expected_reads: [&[&str]; 4] = [
        // Neighbours: what v2 added and removed, then v2's builds of those names.
        &[
            "packages added",
            "packages removed",
            "advisories added",
            "advisories removed",
            "package_builds",
        ],
        // A rollback by one: the same reads of v2, the other way round.
        &[
            "packages removed",
            "packages added",
            "advisories removed",
            "advisories added",
            "package_builds",
        ],
        // Far apart: the filtered difference each way.
        &[
            "packages not-in",
            "packages not-in",
            "advisories not-in",
            "advisories not-in",
            "package_builds",
        ],
        // Against the empty version 0: the whole list, nothing else to judge against.
        &["packages all", "advisories all"],
    ];
    for ((to, against, kinds), reads) in BUILD_DIFFS.iter().zip(expected_reads) {
        let before = app.memory.calls().len();
        let reply = app
            .get(&format!(
                "/repos/{id}/versions/{to}/changes?against={against}"
            ))
            .await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let changes = package_changes(&reply.html());
        assert_eq!(change_kinds(&changes), *kinds, "v{to} against v{against}");
        let mut read = content_reads(&app, before);
        let mut reads: Vec<String> = reads.iter().map(|r| (*r).to_owned()).collect();
        read.sort();
        reads.sort();
        assert_eq!(read, reads, "v{to} against v{against}");
    }
}

#[tokio::test]
async fn a_line_lists_the_builds_on_one_side_only_and_counts_older_builds_apart() {
    let app = spawn_app().await;
    let id = add_builds(&app.memory, verified());
    let html = app
        .get(&format!("/repos/{id}/versions/2/changes?against=1"))
        .await
        .html();
    let changes = package_changes(&html);
    let line = |name: &str| {
        changes
            .iter()
            .find(|(_, n, _)| n == name)
            .map(|(_, _, text)| text.clone())
            .unwrap_or_default()
    };
    assert!(
        line("multi-u").contains("2-1 (kept) \u{2192} 3-1"),
        "upgraded from the build both versions keep: {}",
        line("multi-u")
    );
    assert!(
        line("multi-o").contains("dropped 1-1"),
        "{}",
        line("multi-o")
    );
    assert!(line("multi-o").contains("newest unchanged"));
    assert!(
        line("multi-n").contains("added 0.9-1"),
        "{}",
        line("multi-n")
    );
    assert!(
        line("multi-d").contains("2-1 \u{2192} 1-1 (kept)"),
        "down to the build both versions keep: {}",
        line("multi-d")
    );
    assert_eq!(
        text(&select(&html, "[data-kind-counts]")[0]),
        "0 added \u{b7} 0 removed \u{b7} 1 upgraded \u{b7} 1 downgraded \u{b7} 2 older builds"
    );
}
