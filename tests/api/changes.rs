//! What a deploy changes (the confirm step), the compare page, and the unsigned-metadata
//! warning, over the in-memory upstream.

use repo_console::adapters::memory::{demo_pulp, Fault, MemoryOptions, Op};
use repo_console::domain::repository::RepoVerification;

use crate::acme::{add_acme, ACME, NET_PACKAGE_CHANGES};
use crate::helpers::*;
use crate::web::{change_kinds, package_changes, select_in};

fn advisories(html: &scraper::Html, change: &str) -> Vec<(String, String)> {
    select(html, &format!("[data-advisory-change={change}]"))
        .iter()
        .map(|e| {
            (
                attr(e, "data-advisory").to_owned(),
                attr(e, "data-advisory-type").to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_confirm_step_shows_the_net_package_diff_security_first_with_evrs() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let reply = app
        .get(&format!("/repos/{acme}/deploy/confirm?version=5"))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = reply.html();
    let changes = package_changes(&html);
    assert_eq!(change_kinds(&changes), NET_PACKAGE_CHANGES);
    assert!(changes[1].2.contains("acme-c") && changes[1].2.contains("1-1 \u{2192} 2-1"));
    assert!(
        changes[3].2.contains("2-1 \u{2192} 1-1"),
        "{}",
        changes[3].2
    );
    assert!(changes[2].2.contains("1-1"));
    let counts = text(&select(&html, "[data-kind-counts]")[0]);
    assert_eq!(
        counts,
        "1 added \u{b7} 1 removed \u{b7} 1 upgraded \u{b7} 1 downgraded"
    );
}

#[tokio::test]
async fn the_confirm_step_lists_advisories_with_counts_and_flags_a_dropped_security_fix() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let html = app
        .get(&format!("/repos/{acme}/deploy/confirm?version=5"))
        .await
        .html();
    assert_eq!(
        advisories(&html, "added"),
        [
            ("RC-SA-0001".to_owned(), "security".to_owned()),
            ("RC-BA-0001".to_owned(), "bugfix".to_owned()),
            ("RC-EA-0001".to_owned(), "enhancement".to_owned()),
        ]
    );
    assert_eq!(
        advisories(&html, "dropped"),
        [("RC-SA-OLD".to_owned(), "security".to_owned())]
    );
    let counts: Vec<String> = select(&html, "[data-advisory-counts]")
        .iter()
        .map(text)
        .collect();
    assert_eq!(
        counts,
        ["1 security, 1 bugfix, 1 enhancement", "1 security"]
    );
    let sa = text(&select(&html, "[data-advisory=RC-SA-0001]")[0]);
    assert!(
        sa.contains("Critical") && sa.contains("security update for acme-c"),
        "{sa}"
    );
    let regression = text(&select(&html, "#advisory-regression")[0]);
    assert!(regression.contains("RC-SA-OLD"), "{regression}");
    assert_eq!(select(&html, "#deploy-modal[data-confirm=acme]").len(), 1);
    let link = select(&html, "[data-changes-link]");
    assert_eq!(
        attr(&link[0], "href"),
        format!("/repos/{acme}/versions/5/changes?against=2")
    );
}

#[tokio::test]
async fn a_deploy_that_keeps_every_security_advisory_is_not_called_a_regression() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let html = app
        .get(&format!("/repos/{acme}/deploy/confirm?version=4"))
        .await
        .html();
    assert!(select(&html, "#advisory-regression").is_empty());
    assert_eq!(advisories(&html, "added").len(), 3);
    assert!(advisories(&html, "dropped").is_empty());
}

#[tokio::test]
async fn the_diff_costs_five_upstream_calls_once_and_is_then_cached() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let content_calls = |app: &TestApp| content_calls(&app.memory);
    let before = app.memory.calls().len();
    app.get(&format!("/repos/{acme}/deploy/confirm?version=5"))
        .await;
    let first = app.memory.calls().len() - before;
    assert_eq!(
        content_calls(&app),
        5,
        "v2 and v5 are far apart: packages and advisories each way, then v5's builds of the \
         names that differ"
    );
    assert!(first <= 12, "the confirm step cost {first} upstream calls");
    app.get(&format!("/repos/{acme}/deploy/confirm?version=5"))
        .await;
    app.get(&format!("/repos/{acme}/versions/5/changes?against=2"))
        .await;
    assert_eq!(
        content_calls(&app),
        5,
        "versions are immutable: the diff is cached"
    );
}

#[tokio::test]
async fn a_failed_diff_is_said_in_the_modal_and_the_deploy_still_goes_ahead() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    app.pulp.set(Op::Advisories, Fault::Http(500));
    let reply = app
        .get(&format!("/repos/{acme}/deploy/confirm?version=5"))
        .await;
    assert_eq!(reply.status, 200);
    let html = reply.html();
    let why = text(&select(&html, "#changes-error")[0]);
    assert!(
        why.contains("Could not read which packages") && why.contains("500"),
        "{why}"
    );
    assert!(select(&html, "[data-change]").is_empty());
    let deployed = app.deploy_seen(&acme, "5", ACME, "2").await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    assert_eq!(app.production_version("acme-prod"), Some(5));
}

#[tokio::test]
async fn the_compare_page_shows_any_two_versions_both_ways() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let reply = app
        .get(&format!("/repos/{acme}/versions/2/changes?against=5"))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = reply.html();
    let changes = package_changes(&html);
    assert_eq!(
        change_kinds(&changes),
        [
            ("added", "acme-b"),
            ("downgraded", "acme-c"),
            ("removed", "acme-a"),
            ("upgraded", "acme-d"),
        ],
        "the reverse diff"
    );
    assert_eq!(advisories(&html, "dropped").len(), 3);
    let regression = text(&select(&html, "#advisory-regression")[0]);
    assert!(
        regression.contains("v2 drops security advisories that v5 has")
            && regression.contains("RC-SA-0001"),
        "{regression}"
    );
    assert_eq!(text(&select(&html, "h1")[0]), "Changes of v2 against v5");
}

#[tokio::test]
async fn the_compare_page_pages_a_long_list() {
    let app = spawn_app().await;
    let id = app.memory.add_repo("big", verified());
    let many: Vec<String> = (0..450).map(|i| format!("pkg-{i:04}-1")).collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    app.memory.add_version(&id, &refs, &[]);
    let first = app
        .get(&format!("/repos/{id}/versions/1/changes?against=0"))
        .await
        .html();
    assert_eq!(select(&first, "[data-change=added]").len(), 200);
    assert_eq!(text(&select(&first, ".pager span")[0]), "Page 1 of 3");
    let last = app
        .get(&format!("/repos/{id}/versions/1/changes?against=0&page=3"))
        .await
        .html();
    let rows = select(&last, "[data-change=added]");
    assert_eq!(rows.len(), 50);
    assert_eq!(attr(&rows[49], "data-package"), "pkg-0449");
}

#[tokio::test]
async fn the_confirm_step_shows_the_first_fifty_with_counts_and_a_link() {
    let app = spawn_app().await;
    let id = app.memory.add_repo("wide", verified());
    app.memory.add_version(&id, &["seed-1"], &[]);
    let live = app
        .memory
        .publish(&id, repo_console::domain::repository::VersionNumber::new(1));
    app.memory.add_distribution("wide-prod", Some(&live));
    let many: Vec<String> = (0..120).map(|i| format!("pkg-{i:03}-1")).collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    app.memory.add_version(&id, &refs, &["seed-1"]);
    let html = app
        .get(&format!("/repos/{id}/deploy/confirm?version=2"))
        .await
        .html();
    assert_eq!(select(&html, "[data-change]").len(), 50);
    let counts = text(&select(&html, "[data-kind-counts]")[0]);
    assert!(counts.starts_with("120 added \u{b7} 1 removed"), "{counts}");
    let more = text(&select(&html, ".changes p:last-child")[0]);
    assert!(more.contains("Showing 50 of 121 package changes"), "{more}");
}

#[tokio::test]
async fn the_compare_page_says_clearly_what_is_wrong_with_a_request() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    for (path, status, words) in [
        (
            format!("/repos/{acme}/versions/9/changes?against=2"),
            404,
            "v9 does not exist",
        ),
        (
            format!("/repos/{acme}/versions/5/changes?against=77"),
            404,
            "v77 does not exist",
        ),
        (
            format!("/repos/{acme}/versions/5/changes"),
            400,
            "?against=N",
        ),
        (
            format!("/repos/{acme}/versions/5/changes?against=x"),
            400,
            "'x' is not a version number",
        ),
        (
            format!("/repos/{acme}/versions/five/changes?against=2"),
            400,
            "'five' is not a version",
        ),
        (
            "/repos/not-a-uuid/versions/5/changes?against=2".to_owned(),
            404,
            "UUID",
        ),
    ] {
        let reply = app.get(&path).await;
        assert_eq!(reply.status, status, "{path}: {}", reply.body);
        let said = text(&select(&reply.html(), "#page-error")[0]);
        assert!(said.contains(words), "{path}: {said}");
    }
    for (fault, status, words) in [
        (Fault::Timeout, 504, "did not answer in time"),
        (Fault::Reset, 503, "Try again"),
        (Fault::Malformed, 502, "Try again"),
    ] {
        app.pulp.set(Op::Packages, fault);
        let reply = app
            .get(&format!("/repos/{acme}/versions/5/changes?against=2"))
            .await;
        assert_eq!(reply.status, status, "{}", reply.body);
        let said = text(&select(&reply.html(), "#page-error")[0]);
        assert!(said.contains(words), "{said}");
    }
}

#[tokio::test]
async fn each_version_row_links_its_changes_against_the_previous_version() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    app.memory.delete_version(
        &acme,
        repo_console::domain::repository::VersionNumber::new(3),
    );
    let html = app.get(&format!("/repos/{acme}/versions")).await.html();
    let links: Vec<(String, String)> = select(&html, "tr[data-version]")
        .iter()
        .map(|row| {
            let link = select_in(row, "a[data-changes-against]");
            let href = link.first().map(|a| attr(a, "href").to_owned());
            (
                attr(row, "data-version").to_owned(),
                href.unwrap_or_default(),
            )
        })
        .collect();
    let expected = |n: u64, p: u64| format!("/repos/{acme}/versions/{n}/changes?against={p}");
    assert_eq!(
        links,
        [
            ("5".to_owned(), expected(5, 4)),
            ("4".to_owned(), expected(4, 2)),
            ("2".to_owned(), expected(2, 1)),
            ("1".to_owned(), expected(1, 0)),
            ("0".to_owned(), String::new()),
        ],
        "with a gap, the previous version is the one before it"
    );
}

#[tokio::test]
async fn repo_gpgcheck_without_a_signing_service_is_warned_on_the_page_and_refused_in_the_confirm_step(
) {
    let app = spawn_app().await;
    let unsigned = RepoVerification {
        metadata_signed: Some(false),
        ..verified()
    };
    let acme = add_acme(&app.memory, unsigned);
    // Clients refuse it, so it is not verified: the confirm step is refused, saying why.
    let confirm = app
        .get(&format!("/repos/{acme}/deploy/confirm?version=5"))
        .await;
    for needed in [
        "clients refuse",
        "metadata_signing_service",
        "repo_gpgcheck",
    ] {
        assert!(confirm.body.contains(needed), "confirm: {}", confirm.body);
    }
    for path in [format!("/repos/{acme}/versions")] {
        let html = app.get(&path).await.html();
        let warning = select(&html, "[data-warning=unsigned-metadata]");
        assert_eq!(warning.len(), 1, "{path}");
        let words = text(&warning[0]);
        for needed in [
            "repomd.xml.asc",
            "refuse",
            "metadata_signing_service",
            "repo_gpgcheck",
        ] {
            assert!(words.contains(needed), "{path}: {words}");
        }
    }
    let signed = app
        .get(&format!("/repos/{}/versions", app.fixture.base_os))
        .await
        .html();
    assert!(select(&signed, "[data-warning]").is_empty());
}

#[tokio::test]
async fn the_demo_shows_a_security_fix_arriving_with_the_newest_baseos() {
    let demo = demo_pulp(MemoryOptions::default(), chrono::Utc::now());
    let app = crate::test_app::TestApp::builder()
        .memory(std::sync::Arc::new(demo))
        .spawn()
        .await;
    let client = &app.client;
    let page = client.get("/").await.html();
    let baseos = select(&page, "[data-repo]")
        .iter()
        .find(|r| text(r).contains("rhel9-baseos"))
        .map(|r| attr(r, "data-repo").to_owned())
        .expect("the demo lists rhel9-baseos");
    let html = client
        .get(&format!("/repos/{baseos}/deploy/confirm?version=46"))
        .await
        .html();
    assert_eq!(
        advisories(&html, "added")
            .iter()
            .filter(|(_, kind)| kind == "security")
            .count(),
        1
    );
    let openssl = select(&html, "[data-package=openssl][data-security=true]");
    assert!(
        !openssl.is_empty(),
        "the package the security fix names comes first"
    );
    assert_eq!(
        attr(&select(&html, "[data-change]")[0], "data-package"),
        "openssl"
    );
}
