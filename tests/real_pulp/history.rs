//! Issue 13 against the real Pulp: a deploy, a rollback with a reason, then an outside
//! PATCH of the production distribution; the history, drift and Pulp's own record of the
//! changes (its tasks, whose `logging_cid` is the console's deploy id) agree.

use std::sync::Arc;

use repo_console::domain::repository::PublicationHref;
use repo_console::ports::RepositoryManager;
use scraper::Html;
use serde_json::json;

use super::console::{attr, over_upstream, select, text, Console};
use super::support::{exclusive, required_pulp, TestPulp};

/// Points the distribution at the publication with Pulp's API (`raw_ok` waits for the task).
fn patch_and_wait(pulp: &TestPulp, dist: &str, publication: &str) {
    pulp.raw_ok("PATCH", dist, Some(&json!({ "publication": publication })));
}

async fn page(console: &Console, path: &str) -> Html {
    let reply = console.get(path).await;
    assert_eq!(reply.status, 200, "{path}: {}", reply.body);
    Html::parse_document(&reply.body)
}

/// rc-history with production at v1 (an earlier run may have left anything), a console over
/// it, and production deployed to `version` through the console.
struct History {
    id: repo_console::domain::repository::RepoId,
    repo: String,
    dist: String,
    console: Console,
}

async fn history_deployed(pulp: &TestPulp, version: u64) -> History {
    let id = pulp.repo_id("rc-history");
    let repo = pulp
        .href_named("repositories/rpm/rpm/", "rc-history")
        .expect("seeded");
    let dist = pulp
        .href_named("distributions/rpm/rpm/", "rc-history-prod")
        .expect("seeded");
    patch_and_wait(pulp, &dist, &pulp.publication_of(&repo, 1));
    let console = over_upstream(Arc::new(pulp.client()), 25).spawn().await;
    let deploy = console
        .post(
            &format!("/repos/{id}/deploy"),
            &format!("version={version}&confirm=rc-history&live=1"),
        )
        .await;
    assert_eq!(deploy.status, 200, "{}", deploy.body);
    History {
        id,
        repo,
        dist,
        console,
    }
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn deploy_rollback_and_an_outside_patch_show_in_history_and_drift() {
    let pulp = required_pulp();
    let _guard = exclusive("rc-history").await;
    let History {
        id,
        repo,
        dist,
        console,
    } = history_deployed(&pulp, 3).await;
    let v2 = pulp.publication_of(&repo, 2);
    let confirm = page(
        &console,
        &format!("/repos/{id}/deploy/confirm?version=1&rollback=1"),
    )
    .await;
    assert_eq!(select(&confirm, "input[name=reason]").len(), 1);
    let form = "version=1&confirm=rc-history&live=3&rollback=1&reason=v3+breaks+dnf";
    let rollback = console.post(&format!("/repos/{id}/deploy"), form).await;
    assert_eq!(rollback.status, 200, "{}", rollback.body);
    // An operator changes production with Pulp's API, behind the console's back.
    patch_and_wait(&pulp, &dist, &v2);

    let lines = console.audit_lines();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(
        (lines[3]["kind"].as_str(), lines[3]["reason"].as_str()),
        (Some("rollback"), Some("v3 breaks dnf"))
    );
    let rollback_id = lines[3]["deploy_id"].as_str().expect("an id");
    // Pulp's own record: the rollback's distribution update carries the deploy id.
    let uuid = dist.trim_end_matches('/').rsplit('/').next().expect("uuid");
    let tasks = pulp.raw_ok(
        "GET",
        &format!("tasks/?reserved_resources=prn:rpm.rpmdistribution:{uuid}&ordering=-pulp_created&limit=3&fields=logging_cid"),
        None,
    );
    assert_eq!(
        tasks["results"][1]["logging_cid"].as_str(),
        Some(rollback_id),
        "{tasks}"
    );

    let history = page(&console, &format!("/repos/{id}/history")).await;
    let entries = select(&history, "[data-history-entry]");
    assert!(entries.len() >= 3, "{}", history.html());
    assert_eq!(
        attr(&entries[0], "data-outside"),
        "true",
        "the PATCH is newest and outside"
    );
    let outside = text(&entries[0]);
    assert!(
        outside.contains(&pulp.username) && outside.contains("\u{2192} v2"),
        "{outside}"
    );
    assert_eq!(attr(&entries[1], "data-deploy-id"), rollback_id);
    let rolled = text(&entries[1]);
    assert!(
        rolled.contains("Rollback")
            && rolled.contains("v3 \u{2192} v1")
            && rolled.contains("v3 breaks dnf"),
        "{rolled}"
    );
    assert!(text(&entries[2]).contains("v1 \u{2192} v3"));
    assert_eq!(
        attr(
            &select(&history, "[data-rollback-version]")[0],
            "data-rollback-version"
        ),
        "1"
    );

    let versions = page(&console, &format!("/repos/{id}/versions")).await;
    let drift = text(&select(&versions, "[data-drift]")[0]);
    assert!(
        drift.contains(&pulp.username),
        "who, from Pulp's task: {drift}"
    );
    let dashboard = page(&console, "/").await;
    let cell = &select(
        &dashboard,
        &format!("tr[data-repo='{id}'] [data-production-version]"),
    )[0];
    assert_eq!(attr(cell, "data-production-version"), "2");
    assert!(!super::console::select_in(cell, "[data-drift]").is_empty());

    let mut runs = Vec::new();
    for _ in 0..10 {
        let started = std::time::Instant::now();
        assert_eq!(
            console.get(&format!("/repos/{id}/history")).await.status,
            200
        );
        runs.push(started.elapsed());
    }
    let median = super::console::median_ms(runs);
    println!(
        "TIMING history page (rc-history, {} entries): median of 10 = {median:.1} ms",
        entries.len()
    );
}

/// The console keeps Pulp's record of the production distribution while the distribution
/// is unwritten (its `pulp_last_updated`): an outside PATCH that points production at the
/// publication it already serves still writes it, so the next page reads the record again
/// and shows the drift.
#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn an_outside_patch_to_the_publication_production_serves_is_drift_on_a_steady_page() {
    let pulp = required_pulp();
    let _guard = exclusive("rc-history").await;
    let History {
        id, dist, console, ..
    } = history_deployed(&pulp, 2).await;
    for load in 0..3 {
        let versions = page(&console, &format!("/repos/{id}/versions")).await;
        assert!(
            select(&versions, "[data-drift]").is_empty(),
            "load {load}: production as the console left it"
        );
    }
    let serving = pulp.raw_ok("GET", &dist, None)["publication"]
        .as_str()
        .expect("production serves a publication")
        .to_owned();
    patch_and_wait(&pulp, &dist, &serving);
    let versions = page(&console, &format!("/repos/{id}/versions")).await;
    let drift = select(&versions, "[data-drift]");
    assert_eq!(drift.len(), 1, "{}", versions.html());
    assert!(
        text(&drift[0]).contains(&pulp.username),
        "{}",
        text(&drift[0])
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn publications_are_read_by_href_in_one_call() {
    let pulp = required_pulp();
    let client = pulp.client();
    let hrefs: Vec<PublicationHref> = client
        .list_distributions()
        .await
        .expect("distributions")
        .into_iter()
        .filter_map(|d| d.publication)
        .collect();
    assert!(
        !hrefs.is_empty(),
        "the seed points distributions at publications"
    );
    let mut found = client.publications(&hrefs).await.expect("publications");
    found.sort_by(|a, b| a.href.cmp(&b.href));
    let fresh = pulp.client();
    for publication in &found {
        assert_eq!(
            &fresh.get_publication(&publication.href).await.expect("one"),
            publication
        );
    }
    let mut unique = hrefs.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(found.len(), unique.len());
}
