//! Issue 3: the console's versions page, deploy flow and error pages against the real Pulp,
//! each checked against what Pulp's own API says (read with curl, behind the console's back).

use std::sync::Arc;

use repo_console::adapters::pulp::{PulpClient, PulpSettings, Secret};
use repo_console::domain::repository::RepoId;
use scraper::Html;
use serde_json::{json, Value};

use super::console::{attr, enc, over_upstream, select, select_in, text, Console};
use super::support::{exclusive, required_pulp, TestPulp};

/// (number, packages, added − removed) of every version, from Pulp's API.
fn pulp_versions(pulp: &TestPulp, id: &RepoId) -> Vec<(u64, u64, i64)> {
    let href =
        format!("repositories/rpm/rpm/{id}/versions/?limit=1000&fields=number,content_summary");
    let found = pulp.raw_ok("GET", &href, None);
    let count = |v: &Value, side: &str| {
        v["content_summary"][side]["rpm.package"]["count"]
            .as_u64()
            .unwrap_or(0)
    };
    let mut rows: Vec<(u64, u64, i64)> = found["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|v| {
            let added = i64::try_from(count(v, "added")).expect("small");
            let removed = i64::try_from(count(v, "removed")).expect("small");
            (
                v["number"].as_u64().expect("a number"),
                count(v, "present"),
                added - removed,
            )
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    rows
}

/// (number, packages, change, deployed) of every row of a versions page, in page order.
fn page_rows(html: &Html) -> Vec<(u64, u64, i64, bool)> {
    select(html, "tr[data-version]")
        .iter()
        .map(|row| {
            let nums = select_in(row, "td.num");
            let change = text(&nums[1]).replace('\u{2212}', "-").replace('+', "");
            (
                attr(row, "data-version").parse().expect("a number"),
                text(&nums[0]).parse().expect("a package count"),
                change.parse().expect("a signed change"),
                attr(row, "data-deployed") == "true",
            )
        })
        .collect()
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn the_versions_page_shows_what_pulp_says() {
    let pulp = required_pulp();
    // The contract test repoints a scratch distribution at rc-verified's publications.
    let _guard = exclusive("rc-verified").await;
    let console = over_upstream(Arc::new(pulp.client()), 25).spawn().await;
    let id = pulp.repo_id("rc-verified");

    let reply = console.get(&format!("/repos/{id}/versions")).await;
    let (expected, deployed) = (pulp_versions(&pulp, &id), pulp.deployed_version(&id));

    assert_eq!(reply.status, 200);
    let html = reply.html();
    let rows = page_rows(&html);
    let shown: Vec<(u64, u64, i64)> = rows.iter().map(|r| (r.0, r.1, r.2)).collect();
    assert_eq!(shown, expected, "(number, packages, change), newest first");
    assert!(
        expected.len() >= 6,
        "rc-verified is seeded with v0..v5: {expected:?}"
    );
    let flagged: Vec<u64> = rows.iter().filter(|r| r.3).map(|r| r.0).collect();
    let deployed = deployed.expect("a distribution serves rc-verified (rc-verified-prod)");
    assert_eq!(
        flagged,
        [deployed],
        "the deployed version, as Pulp's distributions say"
    );
    assert!(select(&html, "[data-badge]")
        .iter()
        .skip(1)
        .all(|b| attr(b, "data-badge") == "verified"));
    let live_button = select(&html, &format!("button[data-deploy-version='{deployed}']"));
    assert!(
        live_button[0].value().attr("disabled").is_some(),
        "no deploy of the live version"
    );
    println!("rc-verified: {} versions, v{deployed} deployed", rows.len());
}

/// Where rc-*-prod is now: (distribution href, publication href, version number).
fn production(pulp: &TestPulp, distribution: &str) -> Option<(String, String, u64)> {
    let href = pulp.href_named("distributions/rpm/rpm/", distribution)?;
    let publication = pulp.raw_ok("GET", &href, None)["publication"]
        .as_str()?
        .to_owned();
    let (_, number) = pulp.publication_version(&publication);
    Some((href, publication, number))
}

/// The preview's modal: (data-confirm, hidden `version`, hidden `live`).
async fn preview(console: &Console, id: &RepoId, target: u64) -> (String, String, String) {
    let reply = console
        .get(&format!("/repos/{id}/deploy/confirm?version={target}"))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = Html::parse_fragment(&reply.body);
    let modal = select(&html, "#deploy-modal[data-confirm]");
    let input =
        |name: &str| attr(&select(&html, &format!("input[name='{name}']"))[0], "value").to_owned();
    (
        attr(&modal[0], "data-confirm").to_owned(),
        input("version"),
        input("live"),
    )
}

async fn submit(
    console: &Console,
    id: &RepoId,
    version: &str,
    confirm: &str,
    live: &str,
) -> super::console::Reply {
    let form = format!(
        "version={}&confirm={}&live={}",
        enc(version),
        enc(confirm),
        enc(live)
    );
    console.post(&format!("/repos/{id}/deploy"), &form).await
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_deploy_through_the_console_moves_production_and_is_audited() {
    let pulp = required_pulp();
    let _guard = exclusive("rc-deploy").await;
    let console = over_upstream(Arc::new(pulp.client()), 25).spawn().await;
    let id = pulp.repo_id("rc-deploy");
    let (dist, before, current) =
        production(&pulp, "rc-deploy-prod").expect("rc-deploy-prod serves a publication");
    let target = if current == 4 { 3 } else { 4 };

    let (confirm, version, live) = preview(&console, &id, target).await;
    assert_eq!(
        (confirm.as_str(), version.as_str(), live.as_str()),
        ("rc-deploy", &*target.to_string(), &*current.to_string())
    );
    let reply = submit(&console, &id, &version, &confirm, &live).await;
    let after = production(&pulp, "rc-deploy-prod");
    let lines = console.audit_lines();
    pulp.raw_ok("PATCH", &dist, Some(&json!({ "publication": before })));

    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = Html::parse_fragment(&reply.body);
    let banner = text(&select(&html, "#deploy-banner")[0]);
    assert!(
        banner.contains(&format!("v{target}")) && banner.contains(&format!("was v{current}")),
        "{banner}"
    );
    let live_rows: Vec<&str> = select(&html, "tr[data-deployed='true']")
        .iter()
        .map(|r| attr(r, "data-version"))
        .collect();
    assert_eq!(
        live_rows,
        [target.to_string()],
        "the badge moved in the refreshed list"
    );
    let (_, publication, served) = after.expect("rc-deploy-prod still serves a publication");
    let (version_href, _) = pulp.publication_version(&publication);
    assert!(
        version_href.ends_with(&format!("/{id}/versions/{target}/")),
        "Pulp says prod serves {version_href}"
    );
    assert_eq!(served, target);

    assert_eq!(lines.len(), 2, "started + outcome: {lines:?}");
    assert_eq!(lines[0]["outcome"], "started");
    assert_eq!(lines[1]["outcome"], "deployed");
    assert_eq!(lines[0]["deploy_id"], lines[1]["deploy_id"]);
    for line in &lines {
        assert_eq!(line["previous_version"], current);
        assert_eq!(line["target_version"], target);
        assert_eq!(line["repository_uuid"], id.as_str());
        assert_eq!(line["distribution"], "rc-deploy-prod");
    }
    assert_eq!(lines[1]["publication"].as_str(), Some(publication.as_str()));
    assert_eq!(
        production(&pulp, "rc-deploy-prod").map(|p| p.2),
        Some(current),
        "restored"
    );
}

/// rc-vanishing-prod, recreated (serving v1, as seeded) when an earlier run deleted it.
fn ensure_vanishing_prod(pulp: &TestPulp, id: &RepoId) {
    if pulp
        .href_named("distributions/rpm/rpm/", "rc-vanishing-prod")
        .is_some()
    {
        return;
    }
    let version = format!("/pulp/api/v3/repositories/rpm/rpm/{id}/versions/1/");
    let found = pulp.raw_ok(
        "GET",
        &format!(
            "publications/rpm/rpm/?repository_version={}&fields=pulp_href",
            enc(&version)
        ),
        None,
    );
    let publication = match found["results"][0]["pulp_href"].as_str() {
        Some(href) => href.to_owned(),
        None => pulp.raw_ok(
            "POST",
            "publications/rpm/rpm/",
            Some(&json!({ "repository_version": version })),
        )["created_resources"][0]
            .as_str()
            .expect("a publication")
            .to_owned(),
    };
    let name = "rc-vanishing-prod";
    pulp.raw_ok(
        "POST",
        "distributions/rpm/rpm/",
        Some(&json!({ "name": name, "base_path": name, "publication": publication })),
    );
}

fn publication_count(pulp: &TestPulp, id: &RepoId) -> u64 {
    let repo = format!("/pulp/api/v3/repositories/rpm/rpm/{id}/");
    pulp.raw_ok(
        "GET",
        &format!(
            "publications/rpm/rpm/?repository={}&limit=1&fields=pulp_href",
            enc(&repo)
        ),
        None,
    )["count"]
        .as_u64()
        .expect("a count")
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_distribution_deleted_after_the_preview_changes_nothing_and_says_so() {
    let pulp = required_pulp();
    let _guard = exclusive("rc-vanishing").await;
    let id = pulp.repo_id("rc-vanishing");
    ensure_vanishing_prod(&pulp, &id);
    let console = over_upstream(Arc::new(pulp.client()), 25).spawn().await;
    let (dist, publication, current) =
        production(&pulp, "rc-vanishing-prod").expect("rc-vanishing-prod");
    let target = if current == 3 { 2 } else { 3 };

    let (confirm, version, live) = preview(&console, &id, target).await;
    pulp.raw_ok("DELETE", &dist, None);
    let publications = publication_count(&pulp, &id);
    let reply = submit(&console, &id, &version, &confirm, &live).await;
    let publications_after = publication_count(&pulp, &id);
    let deployed_after = pulp.deployed_version(&id);
    // Put it back as it was (seed.sh would, at the next run).
    let name = "rc-vanishing-prod";
    pulp.raw_ok(
        "POST",
        "distributions/rpm/rpm/",
        Some(&json!({ "name": name, "base_path": name, "publication": publication })),
    );

    assert!(
        !(200..300).contains(&reply.status),
        "{} {}",
        reply.status,
        reply.body
    );
    let html = Html::parse_fragment(&reply.body);
    let message = text(&select(&html, "#deploy-error")[0]);
    println!(
        "deploy after the distribution vanished: HTTP {}: {message}",
        reply.status
    );
    assert!(message.contains("Production was not changed"), "{message}");
    assert!(
        message.contains("was it deleted?"),
        "names what happened: {message}"
    );
    assert_eq!(
        publications_after, publications,
        "no publication was created"
    );
    assert_eq!(
        deployed_after, None,
        "no distribution serves rc-vanishing now"
    );
    assert!(
        console.audit_lines().is_empty(),
        "nothing started, nothing audited"
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_wrong_password_gives_pages_that_say_to_check_the_credentials() {
    let pulp = required_pulp();
    let id = pulp.repo_id("rc-verified");
    let client = PulpClient::new(PulpSettings {
        password: Secret::new("not-the-password"),
        ..pulp.settings()
    })
    .expect("settings");
    let console = over_upstream(Arc::new(client), 25).spawn().await;
    // The console's words; Pulp's own ("Invalid username/password") stay in the log.
    let expect =
        "Pulp refused the console's credentials: check the console's Pulp username and password";
    for path in ["/".to_owned(), format!("/repos/{id}/versions")] {
        let reply = console.get(&path).await;
        assert_eq!(
            reply.status, 503,
            "{path}: the page, with the status of the failure"
        );
        let html = reply.html();
        let error = text(&select(&html, "#page-error")[0]);
        println!("{path} with a wrong password: {error}");
        assert!(error.contains(expect), "{path}: {error}");
        assert!(!error.contains("Invalid username"), "{path}: {error}");
    }
    let deploy = submit(&console, &id, "4", "rc-verified", "3").await;
    assert_eq!(deploy.status, 503);
    let html = Html::parse_fragment(&deploy.body);
    let message = text(&select(&html, "#deploy-error")[0]);
    assert!(
        message.contains(expect) && message.contains("Production was not changed"),
        "{message}"
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_repository_name_with_html_is_escaped_on_the_dashboard_and_its_page() {
    let pulp = required_pulp();
    let name = "<b>rc-html</b> \"quoted\" & 'single'";
    let id = pulp.repo_id(name);
    let console = over_upstream(Arc::new(pulp.client()), 1000).spawn().await;
    let dashboard = console.get("/").await;
    let versions = console.get(&format!("/repos/{id}/versions")).await;

    for (page, reply) in [("dashboard", &dashboard), ("versions page", &versions)] {
        assert_eq!(reply.status, 200, "{page}");
        assert!(
            !reply.body.contains("<b>rc-html"),
            "{page}: the name's markup reached the page"
        );
        assert!(
            reply
                .body
                .contains("&lt;b&gt;rc-html&lt;/b&gt; &quot;quoted&quot; &amp; 'single'"),
            "{page}"
        );
    }
    let html = dashboard.html();
    let link = select(&html, &format!("tr[data-repo='{id}'] a"));
    assert_eq!(text(&link[0]), name);
    assert_eq!(attr(&link[0], "href"), format!("/repos/{id}/versions"));
    assert!(
        select(&html, "b").is_empty(),
        "no <b> element on the dashboard"
    );
    let html = versions.html();
    assert_eq!(text(&select(&html, "h1")[0]), name);
    assert!(text(&select(&html, "title")[0]).contains(name));
    assert!(select(&html, "h1 b").is_empty());
}

/// The deploy form sent over a connection closed right after sending (a closed tab,
/// `curl -m 1`): no answer is read.
async fn send_and_leave(console: &Console, id: &RepoId, form: &str) {
    use tokio::io::AsyncWriteExt;
    let host = console.address.trim_start_matches("http://");
    let request = format!(
        "POST /repos/{id}/deploy HTTP/1.1\r\nHost: {host}\r\nHX-Request: true\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
        form.len()
    );
    let mut stream = tokio::net::TcpStream::connect(host)
        .await
        .expect("the console listens");
    stream.write_all(request.as_bytes()).await.expect("sent");
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    drop(stream);
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_deploy_whose_client_disconnects_right_after_sending_moves_production_and_is_audited() {
    let pulp = required_pulp();
    let _guard = exclusive("rc-deploy").await;
    let console = over_upstream(Arc::new(pulp.client()), 25).spawn().await;
    let id = pulp.repo_id("rc-deploy");
    let (dist, before, current) =
        production(&pulp, "rc-deploy-prod").expect("rc-deploy-prod serves a publication");
    let target = if current == 4 { 3 } else { 4 };
    let (confirm, version, live) = preview(&console, &id, target).await;
    let form = format!(
        "version={}&confirm={}&live={}",
        enc(&version),
        enc(&confirm),
        enc(&live)
    );
    send_and_leave(&console, &id, &form).await;

    // The client is gone; the deploy goes on, and its outcome reaches the audit.
    let mut lines = Vec::new();
    for _ in 0..600 {
        lines = console.audit_lines();
        if lines.iter().any(|l| l["outcome"] != "started") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let after = production(&pulp, "rc-deploy-prod");
    let shown = console
        .get(&format!("/repos/{id}/deploys/under-way?env=production"))
        .await;
    pulp.raw_ok("PATCH", &dist, Some(&json!({ "publication": before })));

    assert_eq!(lines.len(), 2, "started, then the outcome: {lines:?}");
    assert_eq!(lines[1]["outcome"], "deployed", "{lines:?}");
    assert_eq!(lines[0]["deploy_id"], lines[1]["deploy_id"]);
    let (_, publication, served) = after.expect("rc-deploy-prod still serves a publication");
    assert_eq!(served, target, "Pulp says rc-deploy-prod serves v{served}");
    assert_eq!(lines[1]["publication"].as_str(), Some(publication.as_str()));
    let html = Html::parse_fragment(&shown.body);
    let run = &select(&html, ".deploy-run")[0];
    assert_eq!(attr(run, "data-phase"), "deployed");
    assert_eq!(
        attr(run, "data-deploy-id"),
        lines[1]["deploy_id"].as_str().unwrap()
    );
}
