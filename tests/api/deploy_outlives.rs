//! A deploy the console accepted runs to its end whatever its client does: the client that
//! disconnects right after sending, the shutdown that begins meanwhile. Its steps show, as
//! they happen, where the confirm dialog and the versions page look.

use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use repo_console::adapters::web;
use repo_console::domain::repository::RepoId;

use crate::helpers::*;

/// Each task of the in-memory Pulp takes this long: publish, then move (the deploy's two).
const TASK: Duration = Duration::from_millis(700);

/// Sends the deploy form of `base-os` v4 over a new connection, and closes the connection
/// right after sending (a closed tab, `curl -m 1`): no answer is read.
async fn send_and_leave(app: &TestApp, id: &RepoId) {
    let host = app.address.trim_start_matches("http://");
    let body = "version=4&confirm=base-os&live=2";
    let request = format!(
        "POST /repos/{id}/deploy HTTP/1.1\r\nHost: {host}\r\nHX-Request: true\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(host).await.expect("the console listens");
    stream.write_all(request.as_bytes()).await.expect("sent");
    stream.flush().await.expect("sent");
    // Long enough for the edge to read the body and hand it to the route, then gone.
    tokio::time::sleep(Duration::from_millis(150)).await;
    drop(stream);
}

/// The audit's outcome lines, waited for (at most `within`) until there is one.
async fn outcome_lines(app: &TestApp, within: Duration) -> Vec<serde_json::Value> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let outcomes: Vec<serde_json::Value> = app
            .audit_lines()
            .into_iter()
            .filter(|line| line["outcome"] != "started")
            .collect();
        if !outcomes.is_empty() || tokio::time::Instant::now() >= deadline {
            return outcomes;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The phases the dialog's progress showed for `id`'s production, asked every 50 ms until
/// the deploy ended.
async fn phases_until_ended(app: &TestApp, id: &RepoId) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..200 {
        let reply = app
            .get(&format!("/repos/{id}/deploys/under-way?env=production"))
            .await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let html = reply.html();
        if let Some(run) = select(&html, ".deploy-run").first() {
            let phase = attr(run, "data-phase").to_owned();
            if seen.last() != Some(&phase) {
                seen.push(phase.clone());
            }
            if phase == "deployed" || phase == "ended" {
                return seen;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    seen
}

#[tokio::test]
async fn a_deploy_whose_client_disconnects_right_after_sending_runs_to_its_end() {
    let app = fixture_app().task_delay(TASK).spawn().await;
    let id = app.fixture.base_os.clone();
    send_and_leave(&app, &id).await;

    let phases = phases_until_ended(&app, &id).await;
    assert!(
        phases.iter().any(|p| p == "publishing" || p == "moving"),
        "the steps showed while the deploy ran: {phases:?}"
    );
    assert_eq!(
        phases.last().map(String::as_str),
        Some("deployed"),
        "{phases:?}"
    );

    let outcomes = outcome_lines(&app, Duration::from_secs(20)).await;
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    assert_eq!(outcomes[0]["outcome"], "deployed");
    assert_eq!(outcomes[0]["target_version"], 4);
    assert_eq!(app.production_version("base-os-prod"), Some(4));
    let lines = app.audit_lines();
    assert_eq!(lines.len(), 2, "started, then the outcome: {lines:?}");
    assert_eq!(lines[0]["deploy_id"], lines[1]["deploy_id"]);
    let shown = app
        .get(&format!("/repos/{id}/deploys/under-way?env=production"))
        .await
        .html();
    assert_eq!(
        attr(&select(&shown, ".deploy-run")[0], "data-deploy-id"),
        lines[1]["deploy_id"].as_str().unwrap(),
        "the deploy shown is the one audited"
    );
}

#[tokio::test]
async fn the_versions_page_opened_meanwhile_shows_the_deploy_running() {
    let app = fixture_app().task_delay(TASK).spawn().await;
    let id = app.fixture.base_os.clone();
    let quiet = app.get(&format!("/repos/{id}/versions")).await.html();
    assert!(
        select(&quiet, "#under-way .deploy-run").is_empty(),
        "nothing under way yet"
    );
    send_and_leave(&app, &id).await;

    let page = app.get(&format!("/repos/{id}/versions")).await;
    let html = page.html();
    let region = &select(&html, "section#under-way")[0];
    assert_eq!(
        attr(region, "hx-trigger"),
        "every 2s",
        "the region asks again while the deploy runs"
    );
    let run = &select(&html, "#under-way .deploy-run")[0];
    assert_eq!(
        (attr(run, "data-env"), attr(run, "data-target")),
        ("production", "4")
    );
    assert!(
        ["checking", "publishing", "moving"].contains(&attr(run, "data-phase")),
        "{}",
        attr(run, "data-phase")
    );

    outcome_lines(&app, Duration::from_secs(20)).await;
    // The outcome line is written first, then the deploy is shown ended.
    phases_until_ended(&app, &id).await;
    let region = app.get(&format!("/repos/{id}/deploys/under-way")).await;
    let html = region.html();
    let section = &select(&html, "section#under-way")[0];
    assert!(
        section.value().attr("hx-trigger").is_none(),
        "no more asking once it ended"
    );
    assert_eq!(
        attr(&select(&html, ".deploy-run")[0], "data-phase"),
        "deployed"
    );
}

#[tokio::test]
async fn a_shutdown_waits_for_a_deploy_whose_client_left() {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let mut app = fixture_app()
        .task_delay(TASK)
        .edge(web::EdgeSettings {
            shutdown_grace: Duration::from_secs(20),
            ..web::EdgeSettings::default()
        })
        .until(async move {
            let _ = stopped.await;
        })
        .spawn()
        .await;
    let id = app.fixture.base_os.clone();
    send_and_leave(&app, &id).await;
    assert!(
        app.audit_lines().iter().all(|l| l["outcome"] == "started"),
        "the deploy is still running when the shutdown begins"
    );

    stop.send(()).expect("the console serves");
    (&mut app.served)
        .await
        .expect("the serving task ended")
        .expect("served without error");

    let lines = app.audit_lines();
    assert_eq!(
        lines.last().map(|l| l["outcome"].clone()),
        Some(serde_json::json!("deployed")),
        "the shutdown waited for the outcome: {lines:?}"
    );
    assert_eq!(app.production_version("base-os-prod"), Some(4));
}

#[tokio::test]
async fn the_dialog_has_a_place_for_its_deploys_steps() {
    let app = spawn_app().await;
    let id = &app.fixture.base_os;
    let reply = app
        .get(&format!("/repos/{id}/deploy/confirm?version=4"))
        .await;
    let html = reply.html();
    let progress = &select(&html, "#deploy-modal #deploy-progress")[0];
    let url = attr(progress, "data-progress-url");
    assert!(
        url.starts_with(&format!(
            "/repos/{id}/deploys/under-way?env=production&since="
        )),
        "{url}"
    );
    let asked = app.get(url).await;
    assert_eq!(asked.status, 200, "{}", asked.body);
    let garbled = app
        .get(&format!(
            "/repos/{id}/deploys/under-way?env=production&since=yesterday"
        ))
        .await;
    assert_eq!(garbled.status, 400, "{}", garbled.body);
    assert!(progress.value().attr("hidden").is_some());
    assert_eq!(attr(progress, "aria-live"), "polite");
    let nothing = app
        .get(&format!("/repos/{id}/deploys/under-way?env=production"))
        .await;
    assert_eq!(nothing.status, 200);
    assert!(
        nothing.body.contains(r#"data-under-way="none""#),
        "{}",
        nothing.body
    );
    let unknown = app
        .get(&format!("/repos/{id}/deploys/under-way?env=nowhere"))
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.body);
}

#[tokio::test]
async fn the_dialog_shows_only_the_deploys_started_since_it_opened() {
    let app = fixture_app().task_delay(TASK).spawn().await;
    let id = app.fixture.base_os.clone();
    send_and_leave(&app, &id).await;
    outcome_lines(&app, Duration::from_secs(20)).await;
    let earlier = app
        .get(&format!("/repos/{id}/deploys/under-way?env=production"))
        .await;
    assert_eq!(
        select(&earlier.html(), ".deploy-run").len(),
        1,
        "ended, still listed"
    );
    let started = app.audit_lines()[0]["timestamp"]
        .as_str()
        .unwrap()
        .to_owned();
    let after =
        chrono::DateTime::parse_from_rfc3339(&started).unwrap() + chrono::Duration::milliseconds(1);
    let since = after
        .to_utc()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let dialog = app
        .get(&format!(
            "/repos/{id}/deploys/under-way?env=production&since={since}"
        ))
        .await;
    assert!(
        select(&dialog.html(), ".deploy-run").is_empty(),
        "a dialog opened after it does not show it: {}",
        dialog.body
    );
}
