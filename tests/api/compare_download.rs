//! The whole comparison as a file: JSON and CSV, linked from the compare page, filtered when
//! asked, complete at size, streamed, with the edge's security headers; refusals as the page.

use std::collections::BTreeSet;

use repo_console::adapters::memory::{Fault, Op};
use repo_console::domain::repository::RepoId;

use crate::acme::{add_acme, NET_PACKAGE_CHANGES};
use crate::helpers::*;

fn json(reply: &Reply) -> serde_json::Value {
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("content-type"), "application/json");
    serde_json::from_str(&reply.body).expect("the download is one JSON document")
}

fn csv_rows(reply: &Reply) -> Vec<Vec<String>> {
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("content-type"), "text/csv; charset=utf-8");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(reply.body.as_bytes());
    reader
        .records()
        .map(|r| r.expect("a CSV record").iter().map(str::to_owned).collect())
        .collect()
}

fn assert_security_headers(reply: &Reply) {
    let csp = reply.header("content-security-policy");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert_eq!(reply.header("x-content-type-options"), "nosniff");
    assert_eq!(reply.header("x-frame-options"), "DENY");
    assert!(!reply.header("referrer-policy").is_empty());
}

#[tokio::test]
async fn the_compare_page_links_both_downloads_with_its_filter() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let base = format!("/repos/{acme}/versions/5/changes");
    let html = app
        .get(&format!("{base}?against=2&kind=added"))
        .await
        .html();
    for format in ["json", "csv"] {
        let link = &select(&html, &format!("a[data-download={format}]"))[0];
        assert_eq!(
            attr(link, "href"),
            format!("{base}.{format}?against=2&kind=added")
        );
    }
}

#[tokio::test]
async fn the_json_download_parses_back_with_every_change_and_advisory() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let reply = app
        .get(&format!("/repos/{acme}/versions/5/changes.json?against=2"))
        .await;
    let doc = json(&reply);
    assert_eq!(
        reply.header("content-disposition"),
        "attachment; filename=\"acme-v2-v5.json\""
    );
    assert_security_headers(&reply);
    assert_eq!(doc["repository"], "acme");
    assert_eq!(
        (doc["from"].as_u64(), doc["to"].as_u64()),
        (Some(2), Some(5))
    );
    let packages = doc["packages"].as_array().unwrap();
    let kinds: Vec<(&str, &str)> = packages
        .iter()
        .map(|p| (p["kind"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, NET_PACKAGE_CHANGES, "the page's order");
    let acme_c = &packages[1];
    assert_eq!(acme_c["old"], serde_json::json!(["1-1"]));
    assert_eq!(acme_c["new"], serde_json::json!(["2-1"]));
    assert_eq!(
        (acme_c["arch"].as_str(), acme_c["security"].as_bool()),
        (Some("noarch"), Some(true))
    );
    let ids = |change: &str| -> Vec<String> {
        doc["advisories"][change]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids("added"), ["RC-SA-0001", "RC-BA-0001", "RC-EA-0001"]);
    assert_eq!(ids("dropped"), ["RC-SA-OLD"]);
    assert!(ids("updated").is_empty());
    assert_eq!(doc["advisories"]["dropped"][0]["type"], "security");
}

#[tokio::test]
async fn the_csv_download_has_a_header_a_row_per_change_and_quotes_a_comma() {
    let app = spawn_app().await;
    let id = app.memory.add_repo("odd names", verified());
    app.memory
        .add_version(&id, &["plain-1", "with,comma-1"], &[]);
    app.memory.add_version(&id, &["plain-2"], &["plain-1"]);
    let reply = app
        .get(&format!("/repos/{id}/versions/2/changes.csv?against=0"))
        .await;
    assert_eq!(
        reply.header("content-disposition"),
        "attachment; filename=\"odd_names-v0-v2.csv\""
    );
    assert_security_headers(&reply);
    let lines: Vec<&str> = reply.body.lines().collect();
    assert_eq!(lines.len(), 3, "{}", reply.body);
    assert_eq!(lines[0], "kind,name,arch,old,new,security");
    assert!(
        lines.contains(&"added,\"with,comma\",noarch,,1-1,false"),
        "{lines:?}"
    );
    let rows = csv_rows(&reply);
    assert_eq!(rows[1], ["added", "plain", "noarch", "", "2-1", "false"]);
    assert_eq!(rows[2][1], "with,comma");
}

#[tokio::test]
async fn a_package_named_like_a_formula_is_neutralised_in_the_csv() {
    let app = spawn_app().await;
    let id = app
        .memory
        .add_repo("=HYPERLINK(\"http://evil\")", verified());
    app.memory.add_version(
        &id,
        &[
            "=HYPERLINK(\"http://evil\",\"x\")-1",
            "@SUM(A1)-1",
            "+cmd|calc-1",
            "-rf-1",
            "plain-1",
        ],
        &[],
    );
    let reply = app
        .get(&format!("/repos/{id}/versions/1/changes.csv?against=0"))
        .await;
    let names: BTreeSet<String> = csv_rows(&reply)
        .into_iter()
        .skip(1)
        .map(|row| row[1].clone())
        .collect();
    let expected = [
        "'=HYPERLINK(\"http://evil\",\"x\")",
        "'@SUM(A1)",
        "'+cmd|calc",
        "'-rf",
        "plain",
    ];
    assert_eq!(names, expected.map(String::from).into(), "{}", reply.body);
    assert!(
        reply.header("content-disposition").contains("_HYPERLINK"),
        "the file name keeps safe characters only"
    );
}

/// The changes of the large diff: the size issue 22 asks for.
const N: usize = 25_000;

/// A repository whose v1 against v0 adds `n` packages (`pkg-00000`…).
fn many(app: &TestApp, n: usize) -> RepoId {
    let id = app.memory.add_repo("large", verified());
    let names: Vec<String> = (0..n).map(|i| format!("pkg-{i:05}-1")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    app.memory.add_version(&id, &refs, &[]);
    id
}

#[tokio::test]
async fn a_diff_of_25_000_changes_downloads_complete_and_streamed_and_pages() {
    let app = spawn_app().await;
    let id = many(&app, N);
    let reply = app
        .get(&format!("/repos/{id}/versions/1/changes.json?against=0"))
        .await;
    assert!(
        reply.header("content-length").is_empty(),
        "streamed, so its length is not known up front"
    );
    let doc = json(&reply);
    let names: BTreeSet<&str> = doc["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let expected: BTreeSet<String> = (0..N).map(|i| format!("pkg-{i:05}")).collect();
    assert_eq!(names.len(), N);
    assert!(expected.iter().all(|n| names.contains(n.as_str())));
    let csv = app
        .get(&format!("/repos/{id}/versions/1/changes.csv?against=0"))
        .await;
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 1 + N);
    assert_eq!(rows[N][1], format!("pkg-{:05}", N - 1));
    assert_security_headers(&csv);
    let page = app
        .get(&format!(
            "/repos/{id}/versions/1/changes?against=0&name=pkg&page=125"
        ))
        .await
        .html();
    assert_eq!(select(&page, "[data-change]").len(), 200);
    assert_eq!(text(&select(&page, ".pager span")[0]), "Page 125 of 125");
}

#[tokio::test]
async fn a_download_keeps_only_the_changes_its_filter_lets_through() {
    let app = spawn_app().await;
    let id = many(&app, 5_000);
    let base = format!("/repos/{id}/versions/1/changes");
    let doc = json(
        &app.get(&format!("{base}.json?against=0&name=PKG-049"))
            .await,
    );
    assert_eq!(doc["packages"].as_array().unwrap().len(), 100);
    let none = json(
        &app.get(&format!("{base}.json?against=0&kind=removed"))
            .await,
    );
    assert_eq!(none["packages"], serde_json::json!([]));
    let rows = csv_rows(
        &app.get(&format!("{base}.csv?against=0&kind=added&name=4999"))
            .await,
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][1], "pkg-04999");
}

#[tokio::test]
async fn a_download_is_refused_in_plain_text_with_the_status_of_the_page() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    for (path, status, words) in [
        (
            "/versions/9/changes.json?against=2",
            404,
            "v9 does not exist",
        ),
        (
            "/versions/5/changes.csv?against=77",
            404,
            "v77 does not exist",
        ),
        ("/versions/5/changes.csv", 400, "?against=N"),
        (
            "/versions/5/changes.json?against=2&kind=new",
            400,
            "'new' is not a kind of change",
        ),
    ] {
        let reply = app.get(&format!("/repos/{acme}{path}")).await;
        assert_eq!(reply.status, status, "{path}: {}", reply.body);
        assert_eq!(reply.header("content-type"), "text/plain; charset=utf-8");
        assert!(reply.body.contains(words), "{path}: {}", reply.body);
        assert_security_headers(&reply);
    }
    for (fault, status) in [
        (Fault::Timeout, 504),
        (Fault::Reset, 503),
        (Fault::Malformed, 502),
    ] {
        app.pulp.set(Op::Packages, fault);
        let reply = app
            .get(&format!("/repos/{acme}/versions/5/changes.csv?against=2"))
            .await;
        assert_eq!(reply.status, status, "{}", reply.body);
        assert!(reply.body.contains("Pulp"), "{}", reply.body);
    }
}
