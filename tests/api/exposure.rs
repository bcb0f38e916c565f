//! Issue 37 over the in-memory upstream: the three questions (package with arch and bound,
//! advisory, CVE) across every repository and environment, as a page, JSON and CSV; every
//! state; the affected-only filter; "fixed in"; a promotion flipping a cell; the CVE index
//! filled incrementally, kept in a file and rebuilt when missing; one read per served
//! version, none when warm; refusals of questions that cannot be asked.

use std::num::NonZeroU32;
use std::sync::Arc;

use chrono::Duration;
use repo_console::adapters::files::cve_index::{FileCveIndex, FILE_NAME};
use repo_console::adapters::identity::proxy_header::TrustedProxyHeader;
use repo_console::adapters::memory::{demo, Fault, InMemoryPulp, Op};
use repo_console::adapters::metrics::Metrics;
use repo_console::domain::repository::VersionNumber;
use serde_json::Value;

use crate::exposure_world::{advisories_created, exposure_world, fix, ExposureWorld};
use crate::helpers::{attr, select, text};
use crate::test_app::TestApp;

type Exposure = TestApp<ExposureWorld>;

async fn spawn() -> Exposure {
    TestApp::builder()
        .world(exposure_world)
        .environments(demo::environments())
        .configure(|state| state.metrics(Arc::new(Metrics::new())))
        .spawn()
        .await
}

async fn json(app: &Exposure, query: &str) -> Value {
    let reply = app.get(&format!("/api/v1/exposure?{query}")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    serde_json::from_str(&reply.body).unwrap()
}

/// `(repository, environment) -> (state, version)` of every row.
fn cells(body: &Value) -> Vec<(String, String, String, Option<u64>)> {
    body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["repository"].as_str().unwrap().to_owned(),
                r["environment"].as_str().unwrap().to_owned(),
                r["state"].as_str().unwrap().to_owned(),
                r["version"].as_u64(),
            )
        })
        .collect()
}

fn cell<'a>(body: &'a Value, repo: &str, env: &str) -> &'a Value {
    body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["repository"] == repo && r["environment"] == env)
        .unwrap_or_else(|| panic!("no row {repo} {env}: {body}"))
}

fn row(
    repo: &str,
    env: &str,
    state: &str,
    version: Option<u64>,
) -> (String, String, String, Option<u64>) {
    (repo.into(), env.into(), state.into(), version)
}

fn package_builds(memory: &InMemoryPulp) -> usize {
    memory
        .calls()
        .iter()
        .filter(|c| c.starts_with("package_builds"))
        .count()
}

#[tokio::test]
async fn a_package_is_served_or_absent_in_every_repository_and_environment() {
    let app = spawn().await;
    let body = json(&app, "package=openssl").await;
    assert_eq!(
        cells(&body),
        [
            row("db", "testing", "absent", None),
            row("db", "staging", "absent", None),
            row("db", "production", "absent", Some(1)),
            row("web", "testing", "served", Some(2)),
            row("web", "staging", "served", Some(1)),
            row("web", "production", "served", Some(1)),
        ]
    );
    let testing = cell(&body, "web", "testing");
    assert_eq!(
        testing["packages"],
        serde_json::json!([
            {"name": "openssl", "arch": "aarch64", "evr": "3.0.7-2"},
            {"name": "openssl", "arch": "x86_64", "evr": "3.0.7-2"}
        ])
    );
    assert_eq!(
        testing["older_builds_served"],
        serde_json::json!([{"name": "openssl", "arch": "x86_64", "evr": "3.0.1-1"}]),
        "older builds are listed, not judged"
    );
    assert_eq!(testing["repository_uuid"], app.fixture.web.to_string());
    let one_arch = json(&app, "package=openssl&arch=aarch64").await;
    assert_eq!(
        cell(&one_arch, "web", "testing")["packages"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(body["query"], serde_json::json!({"package": "openssl"}));
}

#[tokio::test]
async fn below_a_bound_the_newest_build_is_affected_or_fixed_and_a_newer_version_fixes_it() {
    let app = spawn().await;
    let body = json(&app, "package=openssl&below=3.0.7").await;
    let states: Vec<_> = cells(&body)
        .into_iter()
        .map(|(r, e, s, _)| (r, e, s))
        .collect();
    assert_eq!(
        states,
        [
            ("db".into(), "testing".into(), "absent".into()),
            ("db".into(), "staging".into(), "absent".into()),
            ("db".into(), "production".into(), "absent".into()),
            ("web".into(), "testing".into(), "fixed".into()),
            ("web".into(), "staging".into(), "affected".into()),
            ("web".into(), "production".into(), "affected".into()),
        ]
    );
    assert_eq!(cell(&body, "web", "production")["fixed_in"], 2);
    assert!(cell(&body, "web", "testing").get("fixed_in").is_none());
    assert_eq!(
        body["summary"]["production"],
        serde_json::json!({"affected": 1, "absent": 1})
    );
    let epoch = json(&app, "package=openssl&below=1:0.1").await;
    assert_eq!(
        cell(&epoch, "web", "testing")["state"],
        "affected",
        "an epoch wins"
    );
    let release = json(&app, "package=openssl&below=3.0.7-3").await;
    assert_eq!(cell(&release, "web", "testing")["state"], "affected");
}

#[tokio::test]
async fn an_advisory_and_a_cve_are_judged_on_every_package_they_name() {
    let app = spawn().await;
    let advisory = json(&app, "advisory=RHSA-2026:0002").await;
    assert_eq!(
        advisory["advisories"],
        serde_json::json!(["RHSA-2026:0002"])
    );
    assert_eq!(cell(&advisory, "web", "testing")["state"], "fixed");
    assert_eq!(cell(&advisory, "web", "production")["state"], "affected");
    assert_eq!(cell(&advisory, "db", "production")["state"], "absent");
    let cve = json(&app, "cve=cve-2026-1111").await;
    assert_eq!(
        cve["advisories"],
        serde_json::json!(["RHSA-2026:0001", "RHSA-2026:0002"]),
        "every advisory naming the CVE"
    );
    assert_eq!(cve["query"], serde_json::json!({"cve": "CVE-2026-1111"}));
    assert_eq!(cell(&cve, "web", "testing")["state"], "fixed");
    assert_eq!(cell(&cve, "web", "staging")["state"], "affected");
    assert_eq!(cell(&cve, "web", "production")["fixed_in"], 2);
    assert_eq!(cve["index"]["advisories"], 2);
    let nobody = json(&app, "cve=CVE-2026-9999").await;
    assert_eq!(nobody["advisories"], serde_json::json!([]));
    assert!(cells(&nobody).iter().all(|(_, _, s, _)| s == "absent"));
}

#[tokio::test]
async fn a_promotion_flips_a_cell_from_affected_to_fixed() {
    let app = spawn().await;
    let before = json(&app, "cve=CVE-2026-1111").await;
    assert_eq!(cell(&before, "web", "production")["state"], "affected");
    let v2 = app.memory.publish(&app.fixture.web, VersionNumber::new(2));
    app.memory.point_distribution("web-prod", &v2);
    let after = json(&app, "cve=CVE-2026-1111").await;
    assert_eq!(cell(&after, "web", "production")["state"], "fixed");
    assert_eq!(cell(&after, "web", "production")["version"], 2);
}

#[tokio::test]
async fn the_page_draws_the_matrix_with_counts_links_and_the_affected_filter() {
    let app = spawn().await;
    let empty = app.get("/exposure").await;
    assert_eq!(empty.status, 200);
    assert_eq!(
        select(&empty.html(), "form.exposure-form input[name=cve]").len(),
        1
    );
    assert!(
        select(&empty.html(), "[data-state]").is_empty(),
        "no question, no answer"
    );

    let page = app.get("/exposure?cve=CVE-2026-1111").await;
    assert_eq!(page.status, 200, "{}", page.body);
    let html = page.html();
    let states: Vec<(String, String, String)> = select(&html, "td[data-state]")
        .iter()
        .map(|e| {
            (
                attr(e, "data-exposure-repo").to_owned(),
                attr(e, "data-env").to_owned(),
                attr(e, "data-state").to_owned(),
            )
        })
        .collect();
    assert!(
        states.contains(&("web".into(), "production".into(), "affected".into())),
        "{states:?}"
    );
    assert!(states.contains(&("db".into(), "production".into(), "absent".into())));
    let summary: Vec<String> = select(&html, "[data-exposure-summary]")
        .iter()
        .map(text)
        .collect();
    assert_eq!(
        summary,
        [
            "testing: 1 fixed, 1 absent",
            "staging: 1 affected, 1 absent",
            "production: 1 affected, 1 absent"
        ]
    );
    let fixed_in = select(
        &html,
        "td[data-exposure-repo=web][data-env=production] a[data-fixed-in]",
    );
    assert_eq!(fixed_in.len(), 1);
    assert_eq!(attr(&fixed_in[0], "data-fixed-in"), "2");
    assert_eq!(
        attr(&fixed_in[0], "hx-get"),
        format!(
            "/repos/{}/deploy/confirm?version=2&env=production",
            app.fixture.web
        )
    );
    assert_eq!(
        attr(&fixed_in[0], "href"),
        format!("/repos/{}/versions", app.fixture.web)
    );

    let affected = app
        .get("/exposure?cve=CVE-2026-1111&affected=1")
        .await
        .html();
    let shown: Vec<String> = select(&affected, "td[data-state]")
        .iter()
        .map(|e| attr(e, "data-state").to_owned())
        .collect();
    assert_eq!(shown, ["affected", "affected"], "only the affected cells");
    let only = json(&app, "cve=CVE-2026-1111&affected=1").await;
    assert_eq!(cells(&only).len(), 2);
}

#[tokio::test]
async fn the_csv_has_a_row_per_repository_and_environment() {
    let app = spawn().await;
    let reply = app.get("/exposure.csv?package=openssl&below=3.0.7").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.header("content-type").starts_with("text/csv"));
    let lines: Vec<&str> = reply.body.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines[0], "repository,environment,version,state,packages");
    assert!(lines.contains(&"db,testing,,absent,"), "{lines:?}");
    assert!(
        lines.contains(&"web,testing,2,fixed,openssl-3.0.7-2.aarch64 openssl-3.0.7-2.x86_64"),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"web,production,1,affected,openssl-3.0.1-1.aarch64 openssl-3.0.1-1.x86_64"),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 7);
    let refused = app.get("/exposure.csv").await;
    assert_eq!(refused.status, 400);
}

#[tokio::test]
async fn a_repository_or_package_named_like_a_formula_is_neutralised_in_the_csv() {
    let app = TestApp::builder()
        .world(|memory| {
            let hostile =
                memory.add_repo("=HYPERLINK(\"http://evil\")", crate::verified::verified());
            memory.add_version(
                &hostile,
                &["openssl-3.0.1-1.x86_64", "@evil-1-1.noarch"],
                &[],
            );
            let v1 = memory.publish(&hostile, VersionNumber::new(1));
            memory.add_distribution("=HYPERLINK(\"http://evil\")-testing", Some(&v1));
            exposure_world(memory)
        })
        .environments(demo::environments())
        .spawn()
        .await;
    let rows = |query: &str| {
        let app = &app;
        let query = query.to_owned();
        async move {
            let reply = app.get(&format!("/exposure.csv?{query}")).await;
            assert_eq!(reply.status, 200, "{}", reply.body);
            let mut reader = csv::ReaderBuilder::new().from_reader(reply.body.as_bytes());
            reader
                .records()
                .map(|r| r.unwrap().iter().map(str::to_owned).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        }
    };
    let openssl = rows("package=openssl&below=3.0.7").await;
    let hostile: Vec<&Vec<String>> = openssl
        .iter()
        .filter(|r| r[0].contains("HYPERLINK"))
        .collect();
    assert!(!hostile.is_empty(), "{openssl:?}");
    for row in &hostile {
        assert_eq!(row[0], "'=HYPERLINK(\"http://evil\")", "{row:?}");
    }
    assert!(
        hostile
            .iter()
            .any(|r| r[1] == "testing" && r[3] == "affected"),
        "{hostile:?}"
    );
    assert!(
        openssl.iter().any(|r| r[0] == "web"),
        "other names unchanged"
    );
    let evil = rows("package=@evil").await;
    let served = evil
        .iter()
        .find(|r| r[0].contains("HYPERLINK") && r[1] == "testing")
        .unwrap_or_else(|| panic!("{evil:?}"));
    assert_eq!(served[4], "'@evil-1-1.noarch", "{served:?}");
}

#[tokio::test]
async fn questions_that_cannot_be_asked_are_refused_saying_what_to_write() {
    let app = spawn().await;
    for (query, words) in [
        ("package=openssl&cve=CVE-2026-1111", "one question"),
        ("below=3.0", "package"),
        ("cve=CVE-26-1", "CVE-2026-1234"),
        ("package=openssl&below=3.0-1-2", "[epoch:]version[-release]"),
        ("package=a%2Cb", "commas"),
        ("packages=openssl", "unknown field"),
    ] {
        let page = app.get(&format!("/exposure?{query}")).await;
        assert_eq!(page.status, 400, "{query}: {}", page.body);
        assert!(page.body.contains(words), "{query}: {}", page.body);
        let api = app.get(&format!("/api/v1/exposure?{query}")).await;
        assert_eq!(api.status, 400, "{query}");
        let body: Value = serde_json::from_str(&api.body).unwrap();
        assert_eq!(body["error"]["code"], "bad_request");
    }
    let unknown = app.get("/api/v1/exposure?advisory=RHSA-NOPE").await;
    assert_eq!(unknown.status, 404);
    let body: Value = serde_json::from_str(&unknown.body).unwrap();
    assert_eq!(body["error"]["code"], "unknown_advisory");
    assert_eq!(app.get("/exposure?advisory=RHSA-NOPE").await.status, 404);
    let none = app.get("/api/v1/exposure").await;
    assert_eq!(none.status, 400, "the API needs a question");
}

#[tokio::test]
async fn a_hostile_question_is_shown_escaped_and_never_reaches_pulp_unencoded() {
    let app = spawn().await;
    let page = app
        .get("/exposure?package=%3Cscript%3Ealert(1)%3C%2Fscript%3E&below=1")
        .await;
    assert_eq!(
        page.status, 200,
        "a name Pulp may hold: asked, found nowhere"
    );
    assert!(
        !page.body.contains("<script>alert"),
        "escaped: {}",
        page.body
    );
    assert!(page.body.contains("&lt;script&gt;"));
    let quoted = app.get("/exposure?advisory=%22%20OR%201%3D1").await;
    assert_eq!(
        quoted.status, 400,
        "quotes and spaces are refused before Pulp"
    );
    let calls = app.memory.calls();
    assert!(calls.iter().all(|c| !c.contains("OR 1=1")), "{calls:?}");
}

#[tokio::test]
async fn a_cell_pulp_cannot_read_is_unknown_with_the_reason_never_a_guess() {
    let app = spawn().await;
    app.pulp.set(Op::PackageBuilds, Fault::Http(500));
    let body = json(&app, "package=openssl&below=3.0.7").await;
    let testing = cell(&body, "web", "testing");
    assert_eq!(testing["state"], "unknown");
    assert!(
        testing["reason"]
            .as_str()
            .unwrap()
            .contains("could not be read from Pulp"),
        "{testing}"
    );
    assert_eq!(
        cell(&body, "db", "testing")["state"],
        "absent",
        "serves nothing: known"
    );
    app.pulp.clear(Op::PackageBuilds);
    app.pulp.set(Op::ListDistributions, Fault::Http(500));
    let body = json(&app, "package=openssl").await;
    assert!(
        cells(&body).iter().all(|(_, _, s, _)| s == "unknown"),
        "{body}"
    );
    app.pulp.clear(Op::ListDistributions);
    app.pulp.set(Op::ListRepos, Fault::Http(503));
    let failed = app.get("/api/v1/exposure?package=openssl").await;
    assert_eq!(failed.status, 502, "{}", failed.body);
}

#[tokio::test]
async fn each_served_version_is_read_once_and_a_warm_question_reads_none() {
    let app = spawn().await;
    json(&app, "package=openssl&below=3.0.7").await;
    assert_eq!(
        package_builds(&app.memory),
        3,
        "web v1 and v2 (served), db v1: one read each, none for the latest already read: {:?}",
        app.memory.calls()
    );
    json(&app, "package=openssl&below=3.0.7").await;
    assert_eq!(
        package_builds(&app.memory),
        3,
        "warm: every version read is kept"
    );
}

#[tokio::test]
async fn the_cve_index_fills_incrementally_and_shows_on_metrics() {
    let app = spawn().await;
    json(&app, "cve=CVE-2026-1111").await;
    let references = |memory: &InMemoryPulp| {
        memory
            .calls()
            .into_iter()
            .filter(|c| c.starts_with("advisory_references"))
            .collect::<Vec<_>>()
    };
    assert_eq!(references(&app.memory).len(), 1, "two advisories: one page");
    app.memory.upload_advisory_unit(
        fix("RHSA-2026:0003", &["bash-5.3-1.x86_64"]),
        &["CVE-2026-3333"],
        crate::test_app::pinned_time() + Duration::minutes(1),
    );
    let new = json(&app, "cve=CVE-2026-3333").await;
    assert_eq!(new["advisories"], serde_json::json!(["RHSA-2026:0003"]));
    assert_eq!(new["index"]["advisories"], 3);
    assert_eq!(
        references(&app.memory),
        ["advisory_references 0 1000", "advisory_references 0 100"],
        "the newest page, down to the overlap: no rebuild"
    );
    assert_eq!(
        cell(&new, "web", "testing")["state"],
        "affected",
        "bash 5.2 < 5.3"
    );
    let metrics = app.get("/metrics").await.body;
    assert!(
        metrics.contains("repo_console_cve_index_advisories 3"),
        "{metrics}"
    );
    assert!(
        metrics.contains("repo_console_cve_index_cves 3"),
        "{metrics}"
    );
    assert!(metrics.contains("repo_console_cve_index_refreshed_timestamp_seconds"));
}

#[tokio::test]
async fn the_index_is_kept_in_a_file_read_back_after_a_restart_and_rebuilt_when_missing() {
    let dir = tempfile::tempdir().unwrap();
    let memory = Arc::new(InMemoryPulp::default());
    let world = exposure_world(&memory);
    // Many advisories: a rebuild reads several pages, a refresh one.
    for n in 0..2500 {
        memory.upload_advisory_unit(
            fix(&format!("RHBA-{n}"), &["other-1-1.noarch"]),
            &[],
            advisories_created() - Duration::days(30) + Duration::seconds(n),
        );
    }
    let start = || {
        let store = Arc::new(FileCveIndex::in_dir(dir.path()));
        TestApp::builder()
            .memory(memory.clone())
            .world(|_| ())
            .environments(demo::environments())
            .configure(move |state| state.cve_index_store(store))
            .spawn()
    };
    let count = |memory: &InMemoryPulp| {
        memory
            .calls()
            .iter()
            .filter(|c| c.starts_with("advisory_references"))
            .count()
    };
    let first = start().await;
    let body = json_of(&first, "cve=CVE-2026-2222").await;
    assert_eq!(body["advisories"], serde_json::json!(["RHSA-2026:0001"]));
    assert_eq!(
        count(&memory),
        3,
        "built whole: 2,502 advisories in pages of 1,000"
    );
    assert!(dir.path().join(FILE_NAME).exists());
    let restarted = start().await;
    json_of(&restarted, "cve=CVE-2026-2222").await;
    assert_eq!(
        count(&memory) - 3,
        1,
        "read back from the file: one page to refresh"
    );
    std::fs::remove_file(dir.path().join(FILE_NAME)).unwrap();
    let again = start().await;
    let rebuilt = json_of(&again, "cve=CVE-2026-2222").await;
    assert_eq!(
        count(&memory) - 4,
        3,
        "missing: rebuilt whole before answering"
    );
    assert_eq!(rebuilt["advisories"], serde_json::json!(["RHSA-2026:0001"]));
    let _ = world;
}

async fn json_of<W>(app: &TestApp<W>, query: &str) -> Value {
    let reply = app.get(&format!("/api/v1/exposure?{query}")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    serde_json::from_str(&reply.body).unwrap()
}

/// The console over the built-in demo upstream, on the demo's environments.
async fn demo_app() -> TestApp<()> {
    let demo = repo_console::adapters::memory::demo_pulp(
        repo_console::adapters::memory::MemoryOptions::default(),
        chrono::Utc::now(),
    );
    TestApp::builder()
        .memory(Arc::new(demo))
        .environments(demo::environments())
        .spawn()
        .await
}

#[tokio::test]
async fn the_demo_answers_its_cve_from_the_advisory_naming_it() {
    let app = demo_app().await;
    let body = json_of(&app, "cve=CVE-2026-1111").await;
    assert_eq!(body["advisories"], serde_json::json!(["RHSA-2026:1234"]));
    // Production serves v38, before the advisory's v42: affected, as the confirm step of
    // v46 lists the advisory as added; staging (v44) already has the fix.
    let production = cell(&body, "rhel9-baseos", "production");
    assert_eq!(
        production["state"], "affected",
        "openssl 3.5.1-1 served: {production}"
    );
    assert_eq!(production["packages"][0]["name"], "openssl");
    let staging = cell(&body, "rhel9-baseos", "staging");
    assert_eq!(
        staging["state"], "fixed",
        "openssl 3.5.1-2 served: {staging}"
    );
}

/// Issue 46: an advisory or CVE question does not apply to a Debian repository (its type
/// carries no advisories): each of its environments answers `not_applicable`, never `absent`
/// or `fixed`, while the package question judges it in Debian's order.
#[tokio::test]
async fn an_advisory_question_does_not_apply_to_a_debian_repository() {
    let app = demo_app().await;
    let body = json_of(&app, "cve=CVE-2026-1111").await;
    for environment in ["testing", "staging", "production"] {
        let debian = cell(&body, "trixie-security", environment);
        assert_eq!(debian["state"], "not_applicable", "{debian}");
    }
    assert_eq!(
        cell(&body, "rhel9-baseos", "production")["state"],
        "affected"
    );
    // Production serves v3 (nginx 1.22.1-9+deb13u1), testing v5 (the epoch's 1:1.24.0~rc1-1):
    // below 1.24.0-1 without the epoch, production is affected and testing is not.
    let body = json_of(&app, "package=nginx&below=1.24.0-1").await;
    assert_eq!(
        cell(&body, "trixie-security", "production")["state"],
        "affected"
    );
    assert_eq!(cell(&body, "trixie-security", "testing")["state"], "fixed");
}

/// Issue 43, an attack: an anonymous caller asking new exposure questions in a loop (each
/// costs Pulp reads) gets 429 with `Retry-After` past the limit of its address, on the API,
/// the page and the CSV alike, and Pulp is asked nothing more; the form without a question
/// is not counted; a caller the trusted proxy names is not limited.
#[tokio::test]
async fn anonymous_questions_are_limited_per_client_address() {
    let identity = TrustedProxyHeader::new("X-Remote-User", vec!["127.0.0.1/32".parse().unwrap()]);
    let app = TestApp::builder()
        .world(exposure_world)
        .environments(demo::environments())
        .identity(Arc::new(identity))
        .configure(|state| state.question_limit(NonZeroU32::new(3).unwrap()))
        .spawn()
        .await;
    for package in ["zlib", "bash", "curl"] {
        let asked = app
            .get(&format!("/api/v1/exposure?package={package}"))
            .await;
        assert_eq!(asked.status, 200, "{}", asked.body);
    }
    let reads = app.memory.calls().len();
    let refused = app.get("/api/v1/exposure?package=openssl").await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    let wait: u64 = refused.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let body: Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(body["error"]["code"], "too_many_questions");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("api.anonymous_exposure_per_minute"),
        "{body}"
    );
    let page = app.get("/exposure?package=openssl").await;
    assert_eq!(page.status, 429, "{}", page.body);
    assert!(page.headers.contains_key("retry-after"));
    assert!(
        page.body.contains("Too many exposure questions"),
        "{}",
        page.body
    );
    assert_eq!(app.get("/exposure.csv?package=openssl").await.status, 429);
    assert_eq!(app.memory.calls().len(), reads, "nothing asked of Pulp");
    assert_eq!(
        app.get("/exposure").await.status,
        200,
        "the form is no question"
    );
    let named = app
        .send_as("GET", "/exposure?package=openssl", "alice", "", "")
        .await;
    assert_eq!(named.status, 200, "an identified caller is not limited");
}
